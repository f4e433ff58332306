"""Digits a DM writes that are no plain digits: raised or lowered (a footnote's ``¹``, ``5²``, ``P₁``), circled (``⑤``,
``❶``) and keycap emoji (``1️⃣``, ``🔟``). Unicode's NFKC folding (``dm_lines.unwrap``) turned them into plain digits
that ran into the number beside them: ``Bid 5⁰`` was stored as Bid 50, ``Fortify P1²`` read as P12.

rules: 003 Each Turn -- "Once a DM is sent to the GM, your orders/choices are final": a number read other than written
would be a choice the player never made. Opening a line, such a digit is the list's number (``① Fortify P1``,
``1️⃣ Work P2``), as ``1.`` is (``as_list_number``); anywhere else the line is refused, saying to write plain digits
(``not_plain``). Assumption PLAIN_DIGITS.
"""

from __future__ import annotations

import re

_RAISED = "\u00b9\u00b2\u00b3\u2070\u2074-\u2079\u2080-\u2089"  # ¹ ² ³ ⁰ ⁴-⁹ ₀-₉
_CIRCLED = "\u2460-\u2473\u24ea-\u24ff\u2776-\u2793"  # ①-⑳ ⓪ ⓫-⓿ ❶-❿ ➀-➉ ➊-➓
_KEYCAP = "(?:[0-9#*]\ufe0f?\u20e3)+|\U0001f51f"  # 1️⃣, 1️⃣0️⃣, 🔟
NOT_PLAIN_DIGIT = re.compile(f"[{_RAISED}{_CIRCLED}]|{_KEYCAP}")
_LIST_NUMBER = re.compile(f"^(\\s*)(?:[{_CIRCLED}]|{_KEYCAP})[.)]?\\s+")


def as_list_number(line: str) -> str:
    """``line`` with a circled or keycap digit opening it written as a list's bullet (``① Fortify P1`` -> ``- Fortify
    P1``); else ``line``."""
    return _LIST_NUMBER.sub(r"\1- ", line, count=1)


def not_plain(line: str) -> str | None:
    """Why ``line`` is refused for a digit that is no plain one (``Bid 5⁰``), or ``None``."""
    m = NOT_PLAIN_DIGIT.search(line)
    if m is None:
        return None
    return (
        f"'{m.group()}' is no plain digit (a raised, lowered, circled or keycap one), and read as one it would run "
        "into the number beside it: write numbers and Provinces in plain digits, like 'Bid 10' or 'P12'"
    )
