"""engine.protectors.shuffling.shuffle draws exactly what random.Random.shuffle draws."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from engine.protectors.shuffling import shuffle


@given(seed=st.integers(min_value=0, max_value=2**64), length=st.integers(min_value=0, max_value=70))
def test_same_order_and_same_generator_state_as_the_standard_library(seed, length):
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(length)), list(range(length))
    shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getstate() == theirs.getstate()  # the next draws of the game are the same too


def test_it_really_shuffles():
    items = list(range(20))
    shuffle(random.Random(1), items)
    assert sorted(items) == list(range(20)) and items != list(range(20))
