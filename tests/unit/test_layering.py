"""The server's modules form layers (issue 19.4): no module imports, even only for type
checking, a module that imports it back, directly or round a longer loop. A part that needs
another's answer gets a callable or a small protocol through its constructor instead."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"


def _modules() -> dict[str, Path]:
    out = {}
    for path in APP.rglob("*.py"):
        parts = path.relative_to(APP.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    targets.append(sub if sub in modules else node.module)
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def _loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    loops: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                loops.append(sorted(group))

    for v in graph:
        if v not in index:
            visit(v)
    return loops


def test_no_module_of_the_server_imports_itself_round_a_loop() -> None:
    graph = _imports(_modules())
    assert graph.get("app.tables.service"), "the graph is empty"
    assert _loops(graph) == []


def test_the_check_sees_a_loop_through_a_type_checking_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _loops(graph) == [["a", "b", "c"]]


def test_the_socket_layer_reads_no_rows_itself() -> None:
    """app/realtime asks the services (and they app/db/repo.py); it holds no session."""
    for path in (APP / "realtime").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "sqlalchemy" not in text and "sessionmaker" not in text, path.name
