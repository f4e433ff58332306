"""A block of a DMs file whose header names no seat (a misspelt name, ``== Crol ==``), or text above the first
header: a DM whose seat is not known (docs/gm-guide.md, 2).

It is refused as a DM is, in one line naming the file, the line and the closest seat (``GameFile.unknown_seat``),
and the file's other DMs are read and stored. While a seat is still missing it holds the step as a refused DM
does (not even ``--force`` resolves it: it may be that seat's DM, and the rulebook default must not stand in for
a player who wrote), and it is not marked read (service/cli/dms_seen.py): fix its header and the next run reads
it as that seat's DM. Once every seat is in, it can no longer be used (rules: 003 Each Turn — "Once a DM is sent
to the GM, your orders/choices are final"): it is said so, marked read and holds nothing, so a DMs file grown past
it (the seat's DM pasted again below under the right header) is not refused on every run after.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from service import seat_names
from service.cli import dms_seen
from service.gamefile import GameFile


def describe(path: Path, n: int, label: str | None, gf: GameFile) -> str:
    """The block's one line: where it is and why it names no seat."""
    if label is None:
        return f"{path} line {n}: text before the first '== Player#N ==' header (whose DM is it?)"
    if seat_names.closest_seat(gf.game, label) is None:
        # no seat is close: a reply of the GM's own in a conversation pasted from Discord, as likely as a typo
        return (f"{path} line {n}: {gf.unknown_seat(label)}; if it is your own message, --gm "
                f"{shlex.quote(label)} leaves it out")
    return f"{path} line {n}: {gf.unknown_seat(label)}"


def settle(path: Path, blocks: list[dms_seen.FRESH], gf: GameFile, seen: dms_seen.Seen) -> tuple[list[str],
                                                                                                 list[str]]:
    """The lines of the blocks that hold the step (refused: the run ends with status 2), and those of the blocks
    no seat could use any more (said; marked read, so the next run leaves them out)."""
    game = gf.game
    missing = [p.seat for p in game.pending() if not p.submitted]
    held, unused = [], []
    for n, label, _, fp in blocks:
        what = describe(path, n, label, gf)
        if missing and not game.over:
            held.append(f"{what}; that DM is not stored")
            continue
        seen.read(fp)
        why = "the game is over" if game.over else f"every seat is in for the {game.step} step"
        unused.append(f"{what}; {why}, so that DM is not used (DMs are final)")
    return held, unused
