"""``regent report``: the text a GM posts for the players, or one player's private DM summary.

    regent report game.bin                         # this turn's public report
    regent report game.bin --turn 3                # turn 3's
    regent report game.bin --since-last            # only what is new since the last --since-last
    regent report game.bin --since-last --discord  # the same, cut into messages of <= 2,000 characters
    regent report game.bin --private Player#3      # Player#3's DM summary (display names work too)

Reports use the players' display names (``Player#N`` for a seat without one). ``--since-last``
remembers in the game file how far the report was posted (``--dry-run`` shows it without moving
the mark). ``--discord`` prints each message under a ``----- message i/n -----`` line; the
separator lines are not part of the messages, whose Discord markdown is escaped (a name ``Ann*`` reads as written).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.errors import ValidationError
from engine.protectors.position import before_position
from engine.protectors.report import quiet_turn

SEPARATOR = "----- message {i}/{n} ({chars} characters) -----"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="the public report to post, or a player's private summary")
    p.add_argument("game", type=Path, help="game file (from 'regent new' / 'regent adjudicate')")
    when = p.add_mutually_exclusive_group()
    when.add_argument("--turn", type=int, default=None, help="the report of this turn (default: now)")
    when.add_argument("--since-last", action="store_true",
                      help="only what is new since the last --since-last run (marked in the game file)")
    p.add_argument("--dry-run", action="store_true", help="with --since-last: print, but do not mark as posted")
    p.add_argument("--private", metavar="SEAT", default=None,
                   help="this player's DM summary instead (Player#3 or a display name)")
    p.add_argument("--discord", action="store_true", help="cut into messages of at most 2,000 characters")
    p.add_argument("--limit", type=int, default=None, help=argparse.SUPPRESS)  # tests: a smaller limit
    p.set_defaults(func=run_report)


def run_report(args: argparse.Namespace) -> int:
    from service import gamefile
    from service.cli import failure
    from service.posting import DISCORD_LIMIT, split_messages

    if args.dry_run and not args.since_last:
        raise ValidationError("--dry-run", "only goes with --since-last")
    if args.private is not None and args.since_last:
        raise ValidationError("--since-last", "a private summary is always whole; leave out --since-last")
    gf = gamefile.read(args.game, warn=failure.warn)
    game = gf.game
    if args.turn is not None and not 1 <= args.turn <= game.state.turn:
        raise ValidationError("--turn", f"the game has turns 1 to {game.state.turn}, not {args.turn}")
    if args.private is not None:
        seat = gf.seat_named(args.private)
        if seat is None:
            raise ValidationError("--private", gf.unknown_seat(args.private))
        from service.defaulted import summary

        # with the steps the rulebook default played for that seat, and the game's own windows (its deadlines)
        text = summary(game, seat, args.turn, gf.deadlines)
        # and under its title whether an AI played the seat that turn, in the public report's words (public: the
        # channel read the same line): the player back from a break reads orders they never sent otherwise
        played = gf.ai_named({game.state.turn if args.turn is None else args.turn}).get(seat)
        if played:
            title, _, rest = text.partition("\n")
            text = f"{title}\n{gamefile.played_by_ai(game, {seat: played})}\n{rest}"
    elif args.since_last:
        since = _posted(gf)
        text, mark = game.report_since(since)
        if text and not args.dry_run:
            gf.posted = mark
            gamefile.write(args.game, gf, backup=False)
        if not text:
            print("nothing new since the last post", file=sys.stderr)
            return 0
        text = _ai_lines(gf, text, {e.turn for e in game.state.events[since:mark]})
    else:
        why = before_position(game.setup, args.turn, "the event log before that is not carried")
        if why:  # an empty report would read as "nothing happened" (the service refuses it the same way)
            raise ValidationError("--turn", why)
        turn = game.state.turn if args.turn is None else args.turn
        quiet = quiet_turn(game, turn)  # a bare header read as a report left empty by mistake
        text = (game.report(args.turn) + (f"\n{quiet}" if quiet else "") + _ai_line(gf, {turn})
                + _defaults_line(gf, turn))
    if not args.discord:
        print(text)
        return 0
    from service.discord.texts import shown

    limit = DISCORD_LIMIT if args.limit is None else args.limit
    # players' names as written: their Discord markdown (`Ann*`, a backtick, `a|b`) escaped, as the bot escapes a report
    messages = split_messages(shown(text), limit)
    for i, message in enumerate(messages, start=1):
        print(SEPARATOR.format(i=i, n=len(messages), chars=len(message)))
        print(message.rstrip("\n"))
    return 0


def _posted(gf) -> int:
    """How far the public report was posted (the game file's ``posted`` event index)."""
    posted = getattr(gf, "posted", None)
    if posted is None:
        raise ValidationError("--since-last", "this game file format cannot record the last post yet")
    return posted


def _ai_line(gf, turns: set[int]) -> str:
    """Issue 24: what the channel sees always labels the seats an AI played in the turns it covers (a seat
    given back to its player is not named for the turns the player played)."""
    played = gf.ai_named(turns)  # each AI as the GM chose it when it played (expert -> search)
    if not played:
        return ""
    from service.gamefile import played_by_ai

    return "\n" + played_by_ai(gf.game, played)


def _ai_lines(gf, text: str, turns: set[int]) -> str:
    """``text``, what is new since the last post, with the seats an AI played: over one turn one line at its end (as
    ``_ai_line``), over several each turn's part ending with that turn's line (``service.posting.under_turn``), as
    the service's ``game.report`` with ``since`` says them: a seat an AI played in an earlier turn is not named
    under a later turn's header its player played."""
    if len(turns) < 2:
        return text + _ai_line(gf, turns)
    from service.gamefile import played_by_ai
    from service.posting import under_turn

    for turn in sorted(turns):
        played = gf.ai_named({turn})
        if played:
            text = under_turn(text, turn, [played_by_ai(gf.game, played)])
    return text


def _defaults_line(gf, turn: int) -> str:
    """The ``Rulebook defaults for: ...`` line ``regent adjudicate --force`` ended a forced step's report with,
    for the steps of ``turn`` forced (read from the game's record): a turn's report posted again says whose decisions
    the rulebook made, in the words of the service's ``game.report`` (``service.defaulted.turn_line``)."""
    from service.defaulted import replayed, turn_line

    line = turn_line(replayed(gf.game), turn, gf.name)
    return f"\n{line}" if line else ""
