"""Lines read with the next one. An order's word alone with a colon over the lines that hold such orders ("Commit:"
over "- 3 from P27" and "- 2 from P28", "Buy:" over "- 1 in P2"): a header, as "Commitments:" and "Purchases:" are
(``dm_lines.chatter``).

rules: 003 Determine Protector US step ("how many (if any) of their Army Units they want to commit"), Consolidation (the
buying step): the lines below say it all, and the word above them only names them. Read so only when the next line with
text holds such an order; else it stays refused, as an order with nothing after its word ("Commit:" over "Turn off the
lights" could be a commitment left out). It was refused as "expected the unit count after 'Commit', but the line ends".
Assumption ORDER_WORD_HEADER.

An order cut short at the end of its line ("March 2 from P27" with "to P26" on the next, as a phone wraps a long line)
is refused, the answer saying the next line does not continue it (``cut_short``); it said only "... but the line ends".
"""

from __future__ import annotations

from engine.protectors.dm_entry import DmLine
from engine.protectors.dm_lines import HEADER, unwrap, words
from engine.protectors.notation_cursor import LINE_ENDS
from engine.protectors.orders import Buy, Commit

ORDER_WORD_HEADER = True
# the words of such a header line, and the order every line below it must hold
_HEADS: dict[tuple[str, ...], type] = {("commit",): Commit, ("i", "commit"): Commit, ("buy",): Buy, ("i", "buy"): Buy}


def order_word_headers(entries: list[DmLine]) -> list[DmLine]:
    """``entries`` with a refused ``Commit:`` (``I commit:``, ``Buy:``) line left out as a header when the next line
    with text holds only that kind of order."""
    if not ORDER_WORD_HEADER:
        return entries
    out = list(entries)
    for i, e in enumerate(out):
        text = unwrap(e.text)
        kind = _HEADS.get(words(text)) if e.kind == "refused" and text.endswith(":") else None
        if kind is None:
            continue
        after = next((x for x in out[i + 1 :] if x.text.strip()), None)
        if (
            after is not None
            and after.kind == "order"
            and after.parsed
            and all(isinstance(ln.item, kind) for ln in after.parsed)
        ):
            out[i] = DmLine(e.no, e.text, "ignored", why=HEADER)
    return out


def cut_short(entries: list[DmLine]) -> list[DmLine]:
    """``entries`` with a refusal of an order cut short at its line's end, when a line with text follows, saying that
    an order is read within its line: "March 2 from P27" / "to P26" (rules: 003 Each Turn; docs/dm-syntax.md, one
    order per line)."""
    out = list(entries)
    for i, e in enumerate(out):
        if e.kind != "refused" or LINE_ENDS not in e.why:
            continue
        after = next((x for x in out[i + 1 :] if x.text.strip()), None)
        if after is not None and after.kind != "ignored":
            out[i] = e.refuse(
                f"{e.why}; an order is read within its line, and the next line does not go on with it: "
                "write the order whole on one line",
                e.error,
            )
    return out
