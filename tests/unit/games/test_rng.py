"""``Rng.shuffle`` writes its draws out for speed: it is held here to its definition, the
Fisher–Yates loop over ``below``, draw for draw, and leaves the generator exactly as that
loop leaves it (its draws, and the fields set that every dump reads)."""

from __future__ import annotations

import random

import pytest

from app.games.base import Rng


def _by_definition(rng: Rng, items: list[str]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


@pytest.mark.parametrize("seed", range(60))
def test_shuffle_draws_as_its_definition(seed: int) -> None:
    size = random.Random(seed).randrange(0, 70)
    fast, slow = Rng.from_seed(seed * 7919), Rng.from_seed(seed * 7919)
    if seed % 3:  # a generator that has drawn before
        fast.below(5)
        slow.below(5)
    items = [f"T{i}" for i in range(size)]
    a, b = list(items), list(items)
    fast.shuffle(a)
    _by_definition(slow, b)
    assert a == b
    assert fast == slow
    assert fast.model_fields_set == slow.model_fields_set
    assert fast.model_dump_json(exclude_unset=True) == slow.model_dump_json(exclude_unset=True)
    assert fast.next64() == slow.next64()
