"""Which DMs of a DMs file an earlier ``regent adjudicate`` run already read, so a run on the file grown reads
only the new ones.

A GM pastes DMs into one file as they arrive and runs ``regent adjudicate game.bin dms.txt`` again each time. The
DMs an earlier run read to their end (stored; noted as not used: the seat was already in, or had nothing to
decide; empty; or refused and then superseded by the seat's next DM) were read again by every later run, each
against the step the game had reached by then: a bid re-read as a re-bid, orders as a Consolidation DM, or a line
"has no decision to make in the ... step" for each. The game file keeps, per DMs file (its full path), a
fingerprint of each DM read (``GameFile.dms_read``): the seat, the DM's text (its blank edges and trailing spaces
left out, so a DM that only gained a blank line when the file grew is the same) and which occurrence of that same
seat and text in the file it is, so that the same ``none`` a player sends on two turns is two DMs. A refused DM
that still holds its step is not kept: it is read again (with ``--lenient``, or edited in place).

A block under a header that names no seat (a misspelt name; service/cli/unnamed.py) is a refused DM whose seat is
not known: it is not kept while it holds its step, so the GM can fix its header and the next run reads it as the
seat's DM. Once every seat is in it can no longer be used and is kept as read, with a fingerprint of its own
(``?`` in front, of its text alone) that a file need not hold: deleting the block later does not make the file a
new one, and fixing its header then does not make it a new DM (its text under a seat's header is left out as read
in its place).

A file that no longer holds every DM read from it is a new file given the same name (the GM pastes each batch
over the last): it is read whole. One that holds them all, and perhaps more, is the same file grown or edited; a
new file repeating every DM the last one had (a player who sends ``none`` again) cannot be told from it, so the
line that counts the DMs left out names their header lines and says what to do.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from service.gamefile import GameFile

DM = tuple[int, str, str]  # (header line number, seat, text): read_dms's
FRESH = tuple[int, str, str, str]  # the same and its fingerprint
UNNAMED = "?"  # a fingerprint's mark for a block whose header names no seat


def _base(seat: str | None, text: str) -> str:
    """A DM's seat (``None``: a block whose header names no seat, fingerprinted apart) and text, hashed."""
    body = "\n".join(line.rstrip() for line in text.strip().splitlines())
    if seat is None:
        return UNNAMED + hashlib.sha256(body.encode()).hexdigest()[:16]
    return hashlib.sha256(f"{seat}\n{body}".encode()).hexdigest()[:16]


def fingerprints(dms: list[DM], unnamed: bool = False) -> list[str]:
    """One fingerprint per DM, in order: seat and text, and the how-manieth such DM of the file it is
    (``unnamed``: blocks whose header names no seat, ``(line, header, text)``: their text alone)."""
    count: dict[str, int] = {}
    out = []
    for _, seat, text in dms:
        base = _base(None if unnamed else seat, text)
        out.append(f"{base}.{count.get(base, 0)}")
        count[base] = count.get(base, 0) + 1
    return out


class Seen:
    """The DMs of one DMs file a game file says were read, and the marking of the ones this run reads."""

    def __init__(self, gf: GameFile, path: Path | None):
        self.gf, self.key = gf, str(Path(path).resolve()) if path is not None else ""

    def split(self, dms: list[DM], unnamed: list[DM] | None = None) -> tuple[list[FRESH], list[FRESH], list[int],
                                                                              bool]:
        """The DMs still to read (with their fingerprints), the same of the blocks whose header names no seat
        (``(line, header, text)``), the header lines of those read before, and whether the file is taken as a
        new one under the same name (it no longer holds every DM read from it: all of it is read, which the GM
        is told, as a DM edited in place after it was read does that too; an unnamed block need not stay)."""
        unnamed = unnamed or []
        prints, odd = fingerprints(dms), fingerprints(unnamed, unnamed=True)
        done = set(self.gf.dms_read.get(self.key, ()))
        renewed = not {d for d in done if not d.startswith(UNNAMED)} <= set(prints)
        if renewed:
            self.gf.dms_read.pop(self.key, None)
            done = set()
        # an unnamed block read (not used) and no longer in the file: its header was fixed, or it was deleted
        fixed: dict[str, int] = {}
        for d in done - set(odd):
            if d.startswith(UNNAMED):
                fixed[d.rsplit(".", 1)[0]] = fixed.get(d.rsplit(".", 1)[0], 0) + 1
        fresh, fresh_odd, old = [], [], []
        for blocks, fps, out in ((dms, prints, fresh), (unnamed, odd, fresh_odd)):
            for (n, who, text), fp in zip(blocks, fps, strict=True):
                was = _base(None, text) if out is fresh and fp not in done else ""
                if fixed.get(was):  # that block under the seat's header now: read, as it was
                    fixed[was] -= 1
                    self.read(fp)
                    old.append(n)
                elif fp in done:
                    old.append(n)
                else:
                    out.append((n, who, text, fp))
        return fresh, fresh_odd, sorted(old), renewed

    def read(self, fingerprint: str | None) -> None:
        """This DM was read to its end: a later run on the file leaves it out (``None``: no DM, a bad header)."""
        if fingerprint is None:
            return
        done = self.gf.dms_read.setdefault(self.key, [])
        if fingerprint not in done:
            done.append(fingerprint)

    def unread(self, fingerprint: str) -> None:
        """This DM was refused: it holds its step, and a later run reads it again."""
        done = self.gf.dms_read.get(self.key, [])
        if fingerprint in done:
            done.remove(fingerprint)
        if not done:
            self.gf.dms_read.pop(self.key, None)


def renewed(path: Path) -> str:
    """The one line saying a DMs file is read whole again: it is not the file an earlier run read, grown."""
    return (f"{path}: not every DM an earlier run read from this file is still in it (a new batch pasted over it, "
            "or a DM edited after it was read), so all of it is read as new")


def at_lines(lines: list[int]) -> str:
    """``line 4`` or ``lines 1, 3, 5`` (``lines 1, 3, 5, ..., 40, 42`` past six): where a run's headers are."""
    shown = [str(n) for n in lines] if len(lines) <= 6 else [*map(str, lines[:3]), "...", *map(str, lines[-2:])]
    return f"line {lines[0]}" if len(lines) == 1 else f"lines {', '.join(shown)}"


def skipped(path: Path, lines: list[int]) -> str:
    """The one line that counts the DMs an earlier run read (none of them is read again)."""
    return (f"{path}: {len(lines)} DM(s) already read by an earlier run, not read again (headers at "
            f"{at_lines(lines)}); a new file that repeats them needs another name")
