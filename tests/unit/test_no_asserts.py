"""Issue 19.1: no ``assert`` in app/ decides anything, since ``python -O`` strips them all.

Types are narrowed by real checks (``isinstance`` and a ``TypeError``/``ValueError``, or a
``RulesError`` naming the rule where a client can reach it) or by the code's shape.
"""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"


def test_app_has_no_assert_statement() -> None:
    found = [
        f"{path.relative_to(APP.parent)}:{node.lineno}"
        for path in sorted(APP.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assert)
    ]
    assert not found, f"assert statements in app/: {found}"
