"""JSON as people write it by hand: a key given twice in one object is an error, not a silent overwrite.

``json.loads`` keeps the last of two equal keys, so a GM who lists ``"P3"`` twice in a position (or a
seat twice in ``realm``) would lose the first without a word. :func:`loads` refuses it, naming the key.
"""

from __future__ import annotations

import json
from typing import Any


class DuplicateKeyError(ValueError):
    """A JSON object names the same key twice."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            shown = key if len(key) <= 40 else key[:39] + "…"
            raise DuplicateKeyError(f"the key {shown!r} is given twice in one object (keys: "
                                    f"{', '.join(repr(k) for k in list(out)[:6])}{', ...' if len(out) > 6 else ''});"
                                    " keep one")
        out[key] = value
    return out


def loads(text: str | bytes) -> Any:
    """``json.loads`` that refuses a key given twice in one object (:class:`DuplicateKeyError`)."""
    return json.loads(text, object_pairs_hook=_unique)
