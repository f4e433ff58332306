"""What the bot writes, as pure functions of a game view or a text: a step's name (``STEP_WORDS``), a game's end
(``HOW_WORDS``, ``result_text``), the channel's line for the step open (``next_text``), a seat with its name
(``label``), Discord timestamps (``when``) and spans (``span``), a report's ``Played by AI`` line (``with_ai_line``),
a player's words made unable to ping (``quiet_mentions``), a player's name or the service's report made plain text
(``shown``), the GM's words quoted back (``echo``) and a message's fingerprint (``digest``)."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from service.posting import by_seat

# a game's end as players read it; the bot talks only to the service, so this is engine.protectors.victory.how_told
# written out (tests/service/test_how_words.py keeps the two the same)
HOW_WORDS = {"dragon": "Fire and blood! The Dragon wins", "last_man_standing": "Last man standing!",
             "times_up": "Time's Up!"}
STEP_WORDS = {"bid": "Protector Ranking bids", "rebid": "re-bids", "bank_bid": "Bank of Lannuvár bids",
              "orders": "orders", "dragon": "Dragon Attack commitments", "consolidation": "Consolidation"}
# what pings in a post's text: @everyone, @here, a member <@ID> / <@!ID>, a role <@&ID>
PINGS = re.compile(r"@(everyone|here|[!&]?\d+>)")


def quiet_mentions(text: str) -> str:
    """``text`` with every ping made plain text (a zero-width space after the ``@``): a player's words the
    bot answers with (a DM it quotes back) must not ping anyone, nor add a member to a private thread, where
    a mention of another player would let them read it (secrecy)."""
    return PINGS.sub("@\u200b\\1", text)


# Discord markdown a player's display name may carry (`Sam*`, `_Ann`, `a|b`, a backtick, `[x](url)` as a masked link):
# escaped with a backslash, which Discord shows as the character itself
_MARKDOWN = re.compile(r"[\\*_~|`\[]")
# a block quote or a heading, only where a line starts (after a report's `- ` bullet too)
_LINE_MARK = re.compile(r"^(\s*(?:-\s+)?)([>#])", re.MULTILINE)


def shown(text: str) -> str:
    """Words the bot did not write, as Discord should show them: a player's display name, or the service's report
    naming players. Its markdown characters are escaped, so a name such as ``Sam*`` or ``_Ann`` reads as written and
    leaves the post's own formatting alone, and its pings are made plain (``quiet_mentions``): a name ``<@&ID>`` or
    ``<@ID>`` would ping a role or a member from every post that names the seat, where the bot's own mentions do."""
    text = _MARKDOWN.sub(lambda m: "\\" + m.group(0), quiet_mentions(text))
    return _LINE_MARK.sub(lambda m: m.group(1) + "\\" + m.group(2), text)


ECHO_CHARS = 100  # of the GM's own words an answer quotes back (a command's option holds up to 6,000 characters)


def echo(words: str) -> str:
    """The GM's words as an answer quotes them (``'Sam'``), cut to ``ECHO_CHARS`` with how much was left out: an
    option pasted by mistake must not make the answer longer than Discord takes, which would leave the GM none."""
    if len(words) <= ECHO_CHARS:
        return repr(words)
    return f"{words[:ECHO_CHARS]!r}... ({len(words) - ECHO_CHARS} more characters)"


def when(ts: float, style: str = "R") -> str:
    """A Discord timestamp: each reader sees it in their own time zone."""
    return f"<t:{int(ts)}:{style}>"


def span(seconds: float) -> str:
    seconds = max(0, int(seconds))
    h, m = divmod(seconds // 60, 60)
    return f"{h} h {m:02d} min" if h else f"{m} min"


def digest(words: str) -> str:
    """A short fingerprint of a message's words (the state file keeps it, not the words)."""
    return hashlib.sha256(words.encode()).hexdigest()[:16]


DEFAULTS_LINE = "Rulebook defaults for: "
"""how the service's report of a turn with forced steps ends (its ``Played by AI`` line comes before it)"""


def with_ai_line(report: str) -> str:
    """The report with its ``Played by AI: ...`` line, ``none`` when no AI played, so AI seats are
    always labelled (the service adds the line only when an AI played), where the service puts it: before a closing
    ``Rulebook defaults for: ...`` line."""
    if "Played by AI:" in report:
        return report
    lines = report.rstrip("\n").split("\n")
    at = len(lines) - 1 if lines[-1].startswith(DEFAULTS_LINE) else len(lines)
    return "\n".join([*lines[:at], "Played by AI: none", *lines[at:]])


def seat_label(view: dict[str, Any], seat: str) -> str:
    """``Player#2 (Sam)``: a seat with its display name (the seat alone when they are the same)."""
    name = ((view.get("players") or {}).get(seat) or {}).get("name")
    return f"{seat} ({shown(name)})" if name and name != seat else seat


def next_text(view: dict[str, Any]) -> str:
    """The channel's line for the step open in ``view`` (who it waits for, the deadline), or the result."""
    if view["over"]:
        return result_text(view)
    pend = [p for p in view["pending"] if not p["submitted"]]  # an AI seat has decided already
    who = ", ".join(seat_label(view, s) for s in by_seat(p["seat"] for p in pend))  # not ranking order
    dl = min((p["deadline"] for p in pend), default=None)
    out = f"**Turn {view['turn']}: {STEP_WORDS.get(view['step'], view['step'])}**"
    if not pend:
        return out + ": every decision is in; the GM resolves it."
    out += f" from {who}"
    if (view.get("clock") or {}).get("held"):  # reopened by the GM's undo: no deadline resolves it (docs/service.md)
        return out + ("; no deadline: after the GM's undo, the GM resolves it with /regent advance. "
                      "Send yours to me by DM.")
    if dl is not None:
        out += f", deadline {when(dl, 'f')} ({when(dl)})"
    if (view.get("clock") or {}).get("paused"):
        out += " (the clock is paused)"
    return out + ". Send yours to me by DM."


def result_text(view: dict[str, Any]) -> str:
    """The game's end as the channel reads it: how it ended, the winner, the teams' and seats' VP."""
    res = view.get("result") or {}
    vp = res.get("vp") or {}
    how = HOW_WORDS.get(res.get("how"), res.get("how") or "ended")
    out = [f"**The game is over** (turn {res.get('turn', view['turn'])}, {how})."]
    winner = res.get("winner")
    if winner:
        players = view.get("players") or {}
        team = [s for s, p in players.items() if p.get("team") is not None and str(p["team"]) == str(winner)]
        if winner not in players and team:  # a team game is won by a team
            out.append(f"Winner: team {winner} ({', '.join(seat_label(view, s) for s in team)})")
        else:
            out.append(f"Winner: {seat_label(view, winner)}")
    teams = [row for row in res.get("table") or () if row.get("side") not in (view.get("players") or {})]
    if teams:  # Time's Up! in a team game: the sides' sums decide (rules: 003 Team Games)
        out.append("Teams: " + ", ".join(f"team {row['side']} {row['vp']} VP" for row in teams))
    if vp:
        out.append("VP: " + ", ".join(f"{seat_label(view, s)} {v}"
                                      for s, v in sorted(vp.items(), key=lambda kv: -kv[1])))
    return "\n".join(out)
