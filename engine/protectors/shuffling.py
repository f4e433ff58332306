"""Shuffling with the game's generator, drawing exactly the numbers ``random.Random.shuffle`` draws.

The standard library's ``shuffle`` is written in Python and calls ``_randbelow`` once per element;
this is the same Fisher-Yates loop over ``getrandbits`` (CPython's ``_randbelow_with_getrandbits``),
written out so the compiled engine (tools/build_fast.py) runs it natively. Same generator state in,
same order and the same generator state out: games stay bit-identical
(tests/protectors/test_shuffling.py compares the two on many seeds and lengths).
"""

from __future__ import annotations

import random


def shuffle(rng: random.Random, items: list) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` would."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
