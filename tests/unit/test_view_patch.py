"""The delta frames' patch turns any JSON value into any other (checked with jsonpatch)."""

from __future__ import annotations

import copy
from typing import Any

import jsonpatch
from hypothesis import given
from hypothesis import strategies as st

from app.realtime.delta import view_patch

_json: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(["a", "b", "x/y", "t~1"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b", "c/d", "~e", "0"]), children, max_size=4)
    ),
    max_leaves=20,
)


@given(_json, _json)
def test_the_patch_rebuilds_the_new_value(old: Any, new: Any) -> None:
    patch = view_patch(old, new)
    assert jsonpatch.apply_patch(copy.deepcopy(old), patch) == new
    assert old == copy.deepcopy(old)  # nothing mutated


@given(_json)
def test_equal_values_need_no_operation(value: Any) -> None:
    assert view_patch(value, copy.deepcopy(value)) == []


def test_a_growing_list_is_sent_as_its_new_items() -> None:
    patch = view_patch({"trick": [1, 2]}, {"trick": [1, 2, 3]})
    assert patch == [{"op": "add", "path": "/trick/-", "value": 3}]
