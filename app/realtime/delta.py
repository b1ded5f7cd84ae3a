"""View deltas for the opt-in delta frames: an RFC 6902 JSON Patch from one view to the next.

``jsonpatch.make_patch`` gives the same kind of patch but searches for moves and
copies; on a Luz view it costs ≈ 1.4 ms, and a table needs one patch per seat per
version. Views change in a few leaves or by growing lists, so a structural walk
that emits only ``add``/``remove``/``replace`` is enough and ≈ 30× cheaper. Any
JSON Patch library applies the result (the tests use ``jsonpatch``).
"""

from __future__ import annotations

from typing import Any


def _pointer(path: str, key: str | int) -> str:
    return f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}"


def view_patch(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """The operations that turn ``old`` into ``new`` (both JSON values)."""
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        ops: list[dict[str, Any]] = []
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": _pointer(path, key)})
        for key, value in new.items():
            if key not in old:
                ops.append({"op": "add", "path": _pointer(path, key), "value": value})
            elif old[key] != value:
                ops.extend(view_patch(old[key], value, _pointer(path, key)))
        return ops
    if isinstance(old, list) and isinstance(new, list):
        shared = min(len(old), len(new))
        if old[:shared] == new[:shared]:
            # The common case: a list grew (a trick, a log) or lost its tail.
            if len(new) > shared:
                return [{"op": "add", "path": f"{path}/-", "value": v} for v in new[shared:]]
            return [
                {"op": "remove", "path": f"{path}/{i}"} for i in range(len(old) - 1, shared - 1, -1)
            ]
        if len(old) == len(new):
            ops = []
            for index, (a, b) in enumerate(zip(old, new, strict=True)):
                if a != b:
                    ops.extend(view_patch(a, b, f"{path}/{index}"))
            return ops
    return [{"op": "replace", "path": path, "value": new}]
