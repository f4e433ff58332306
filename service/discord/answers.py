"""What a player's DM is answered, as pure functions and constants: stored (``accepted``, with ``FINAL``), refused
(``refusal``), too late for the step now open (``too_late``, beginning ``TOO_LATE``), not stored for the service being
down (``RESEND``), the same answer again (``REPEATED``), an edit or a deletion of a DM already answered (``EDITED``,
``DELETED``), and an empty decision in the rules' words (``NOTHING``); a line quoted as inline code (``code``)."""

from __future__ import annotations

import re
from typing import Any

from service.client import ServiceError
from service.discord.texts import STEP_WORDS

FINAL = "Choices are final (rules 003: \"Once a DM is sent to the GM, your orders/choices are final\")."
RESEND = ("The Regent service cannot be reached right now: your DM was NOT stored. "
          "Please send it again in a few minutes.")
EDITED = ("You edited a DM I had already answered: the edit changes nothing, and what I answered to it stands "
          "(a decision stored is final: rules 003, \"Once a DM is sent to the GM, your orders/choices are final\"). "
          "Anything new goes in a new DM.")
DELETED = ("You deleted a DM I had already answered: deleting it changes nothing, and what I answered to it stands "
           "(a decision stored is final: rules 003, \"Once a DM is sent to the GM, your orders/choices are final\"). "
           "Anything new goes in a new DM.")
TOO_LATE = "**Nothing was stored.** Your DM came in before the "  # how too_late's answer begins
# said once instead of the same answer again to a player's DMs in quick succession (``Dms._answer_once``)
REPEATED = ("I read your DM, and my answer is the same as to the one before (above). I read every DM you send, but "
            "for a minute I will not repeat that answer; a different one comes at once.")
# what an empty decision is, said as the rules say it: `none` in the orders step is no orders at all,
# not the rulebook's default for a silent seat (Fortify!), docs/dm-syntax.md
NOTHING = {"orders": "✓ `none`: no orders; your units stay where they are and do nothing",
           "dragon": "✓ `Turn off the lights`: you commit no Army Units"}


# a seat id as the service's canonical form writes one (Player#1 never matches inside Player#12: all the digits)
SEAT_ID = re.compile(r"Player#\d+")


def named(text: str, names: dict[str, str]) -> str:
    """``text`` with each seat id that has a display name in ``names`` written as that name."""
    return SEAT_ID.sub(lambda m: names.get(m.group(0)) or m.group(0), text)


def code(text: str) -> str:
    """``text`` as inline code, whole: between double backticks when it holds a backtick (a player's line or a name
    such as "`x"), which single ones would end halfway; a run of two or more backticks, which nothing inline can
    hold, shows as ``ˋ``."""
    if "`" not in text:
        return f"`{text}`"
    if "``" in text:
        return "`" + text.replace("`", "ˋ") + "`"
    return f"`` {text} ``"


def too_late(key: str, seat: str, kind: str) -> str:
    """The answer to a DM that came in before the step now open began: it was written for the step before,
    which resolved (its deadline passed, the GM resolved it) while the DM waited. It is not taken for this
    step, even where its words would fit it (`none` is no orders, and no purchases too): rules 003, "Once a DM
    is sent to the GM, your orders/choices are final", so a misplaced one could never be mended."""
    step = STEP_WORDS.get(kind, kind)
    return (f"{TOO_LATE}{step} step began: the step it was written for "
            f"was resolved meanwhile (its deadline passed or the GM resolved it), and it is not taken as your "
            f"{step}. The game now waits for your {step} ({seat}, {key}): send it in a new DM.")


def accepted(key: str, seat: str, kind: str, result: dict[str, Any], names: dict[str, str] | None = None) -> str:
    """The answer to a stored DM: each line stored, left out, dropped or warned about, then ``FINAL``. ``names``
    (seat -> display name): the stored lines name players as the player did (``Send 10 to Ivan``), not by the seat
    ids of the service's canonical form."""
    out = [f"**Stored** for {seat} in {key} ({STEP_WORDS.get(kind, kind)}):"]
    out += [f"✓ {code(named(str(line), names or {}))}" for line in result.get("accepted") or []] or [
        NOTHING.get(kind, "✓ nothing")]
    for item in result.get("ignored") or []:
        if not isinstance(item, dict) or str(item.get("text", "")).strip():  # blank lines go unmentioned
            why = str(item.get("why", "")) if isinstance(item, dict) else ""
            # "Hi GM, Bid 20": the line's order was read (above), only the words beside it were left out
            out.append(f"line {item.get('line_no')}: {why}" if why.startswith("left out ")
                       else "ignored: " + line_note(item))
    for item in result.get("dropped") or []:
        out.append("✗ dropped: " + line_note(item))
    for warning in result.get("warnings") or []:  # e.g. Provinces with units but no order (Snitch alone)
        if not str(warning).startswith("these act at once"):  # a DM of looks only: said in players' words below
            out.append(f"⚠ {warning}")
    out.append(FINAL)
    return "\n".join(out)


def refusal(err: ServiceError) -> str:
    """The answer to a DM the service refused (``err``): what to fix, or why nothing was stored."""
    if err.code == "invalid_order":
        rejected = err.details.get("rejected") or []
        out = ["**Nothing was stored.** Fix these lines and send the whole DM again:"]
        out += [f"✗ {code(str(r.get('line', '')))}: {r.get('reason', '')}" for r in rejected] or [f"✗ {err.message}"]
        count = err.details.get("rejected_count")
        if isinstance(count, int) and count > len(rejected) > 0:  # the service lists the first ones only
            more = count - len(rejected)
            out.append(f"…and {more} more line{'s' if more > 1 else ''} refused, not listed here: check every "
                       "line of the DM.")
        return "\n".join(out)
    if err.code == "conflict":
        return f"Not stored: {err.message}."
    if err.code in ("internal", "rate_limited", "unavailable"):
        return f"The service could not store your DM ({err.message}). Nothing was stored; please send it again."
    return f"Not stored: {err.message}"


def line_note(item: Any) -> str:
    """One line of a DM the service left out or dropped, as the answer quotes it."""
    if isinstance(item, dict):
        return f"line {item.get('line_no', item.get('n', '?'))} {code(str(item.get('text', item.get('line', ''))))}" + (
            f" ({item['why'] if 'why' in item else item.get('reason', '')})")
    if isinstance(item, list | tuple) and len(item) == 3:
        return f"line {item[0]} {code(str(item[1]))} ({item[2]})"
    return code(str(item))
