"""A note to the GM after ``//`` on an order's line that reads as an order itself (``order_in_note``).

rules: 003 Each Turn -- the DM gives the player's choices, and a note to the GM after // is none (docs/dm-syntax.md):
a note that reads wholly as an order of this step ("Fortify P1 // Work P2", "Bid 10 // Faction: Hodir") could be a
choice, '//' written as a separator, or a note. It is refused, never dropped unsaid: the Work, work! was left out with
the note, and a faction dealt in place of the Hodir named. A note in words, and a line starting with //, stay notes.
Assumption ORDER_IN_NOTE.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.protectors.dm_entry import TRAILING_COMMENT, DmLine
from engine.protectors.dm_line import read_line
from engine.protectors.notation import MAX_REASON, NameList, clip, echo

ORDER_IN_NOTE = True


def order_in_note(
    e: DmLine, seats: Mapping[str, str], names: set[str], step: str | None, shown: NameList | None
) -> DmLine:
    """``e`` refused when it is an order (or a choice of nothing) with a note after // that reads wholly as an order of
    ``step``; else ``e``."""
    note = TRAILING_COMMENT.search(e.text) if ORDER_IN_NOTE and e.kind in ("order", "nothing") else None
    if note is None or read_line(e.no, note.group().strip()[2:], seats, names, step, shown).kind != "order":
        return e
    return e.refuse(
        clip(
            f"{echo(note.group().strip())} after the order reads as an order itself, and what follows // "
            "is a note, left out: put the order on its own line if you mean it, or the note in words",
            MAX_REASON,
        ),
        "syntax",
    )
