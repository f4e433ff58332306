"""Seeds for the NPR and NPN controllers: unpredictable unless the GM gives one, never shared.

- No seed (a missing or ``null`` ``seed``, no ``--seed``): a fresh 63-bit seed from Python's
  ``secrets`` is drawn and recorded in the result's ``dice.seed``, so nobody can predict the dice
  and the GM can still replay the decision by passing that seed back.
- Each NPR, combined NPR force and New World nation rolls from its own stream, seeded from
  ``(seed, decision, name(s), place, round or turn)`` (:func:`stream_seed`), so two NPRs, two
  nations, two battles or two turns decided with one seed never get the same dice.

docs/npr-rules.md, "Dice and seeds", says the same for GMs.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

from engine.errors import ValidationError
from engine.trace import Dice

SEED_BITS = 63  # as engine/protectors/setup.py: too many to guess, still a plain JSON/msgpack integer


def fresh_seed() -> int:
    """An unpredictable seed for a decision asked without one."""
    return secrets.randbits(SEED_BITS)


def check_seed(seed: Any, field: str = "seed") -> int | None:
    """``seed`` if it is an integer or None; a :class:`ValidationError` naming ``field`` otherwise."""
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValidationError(field, f"must be an integer or null, not {type(seed).__name__}")
    return seed


def stream_seed(seed: int, *key: Any) -> int:
    """The seed of one stream: the first 63 bits of SHA-256 over the JSON text of ``[seed, *key]``."""
    text = json.dumps([seed, *key], ensure_ascii=False, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> (64 - SEED_BITS)


class SeededDice(Dice):
    """The dice of one decision: its ``seed`` (drawn when None) and every roll of every stream."""

    def __init__(self, seed: int | None = None):
        super().__init__(fresh_seed() if seed is None else check_seed(seed))

    def stream(self, *key: Any) -> Dice:
        """The dice of one NPR, force or nation; its rolls are recorded here too, in order."""
        child = Dice(stream_seed(self.seed, *key))
        child.rolls = self.rolls  # one record, in the order the rolls were made
        return child
