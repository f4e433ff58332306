"""``regent new`` and ``regent adjudicate``: a GM's game file, DMs stored as they arrive.

    regent new game.bin --setup setup.json       # players[i].name (display names), players[i].agent (AI seats)
    regent adjudicate game.bin dms.txt           # store each valid DM now; say who is still pending
    regent adjudicate game.bin --advance         # resolve the step (all DMs in)
    regent adjudicate game.bin --force           # resolve now: the rulebook defaults for silent seats

The game file is service/gamefile.py's format (the one ``game.export`` writes). A DMs file holds each
seat's DM under a header line ``== Player#3 ==``, ``== Alice ==`` (the display name) or ``== red ==`` (the
seat's colour), or under the line Discord's copy of a message group starts with (``Alice — Today at 14:03``;
``--gm NAME`` leaves out the GM's own replies in such a paste); the text is in the rulebook's syntax
(docs/dm-syntax.md). AI seats (``regent seat``) decide whenever their step is waiting, and each of their
decisions is printed with a one-line reason the GM can show the players. A DMs file run again as it grows:
the DMs an earlier run read from it are not read again (service/cli/dms_seen.py).
Every write is atomic and keeps the version before this run as ``game.bin.bak``.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from engine import json_mistakes, jsonfile
from engine.errors import RegentError, ValidationError
from engine.protectors.notation_words import EXPECTED_BY_STEP
from engine.protectors.report import display_names, named
from service import defaulted, gamefile
from service.cli import dms_seen, failure, unnamed
from service.decision_words import said
from service.errors import clip
from service.gamefile import GameFile
from service.position_notes import attack_check, position_notes
from service.posting import by_seat, under_turn

HEADER = re.compile(r"^\s*[*_~`]*\s*={2,}\s*(.+?)\s*={2,}\s*[*_~`]*\s*$")  # Discord markup around it too
# Discord's copy of a message group starts with the sender and when it was sent: "Alice — Today at 14:03",
# "Alice — Yesterday at 9:41 PM", "Alice — 28/11/2026 14:03", "Alice — 11/28/26, 2:03 PM". The dash and a
# time of that shape are both needed, so no line of orders is read as one.
_SENT = (r"(?:(?:today|yesterday)\s+at\s+|\d{1,2}[/.\-]\d{1,2}[/.\-]\d{2,4},?\s+(?:at\s+)?)"
         r"\d{1,2}[:.]\d{2}(?:\s*[ap]\.?m\.?)?")
DISCORD_COPY = re.compile(rf"^\s*(\S.{{0,79}}?)\s+[—–]\s+{_SENT}\s*$", re.IGNORECASE)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help="create a game file from a setup")
    p.add_argument("out", type=Path)
    p.add_argument("--setup", type=Path, help="setup JSON (docs/protocol.md): board, seed, players with "
                                              "name (display name) and agent (an AI seat), deadlines; "
                                              "default: ring-7")
    p.add_argument("--board", default=None, help="the board, over the setup's: ring-N, ring-N-grand, either with "
                                                 "+island for the Island (ring-N-grand+island), or a board JSON file")
    p.add_argument("--seed", type=int, default=None, help="the game's seed, over the setup's")
    p.add_argument("--overwrite", action="store_true", help="replace an existing game file (kept as .bak)")
    p.set_defaults(func=run_new)
    a = sub.add_parser("adjudicate", help="store seats' DMs in a game file as they arrive; resolve with --advance")
    a.add_argument("game", type=Path, help="game file (from 'regent new' or game.export)")
    a.add_argument("dms", type=Path, nargs="?", help="DMs file: each DM under a '== Player#N ==' or "
                                                     "'== display name ==' header, or as copied from Discord "
                                                     "('Alice — Today at 14:03' above it)")
    a.add_argument("--advance", action="store_true", help="resolve the step now (every seat must be in)")
    a.add_argument("--force", action="store_true",
                   help="resolve the step now, the rulebook defaults for seats that sent nothing")
    a.add_argument("--lenient", action="store_true",
                   help="drop only a DM's invalid lines (listed) and keep the rest, instead of rejecting it")
    a.add_argument("--dry-run", action="store_true", help="check and resolve, but do not save")
    a.add_argument("--gm", action="append", default=[], metavar="NAME",
                   help="your own name in the DMs file (repeatable): the messages under it, your replies in a "
                        "conversation pasted from Discord, are left out")
    a.set_defaults(func=run_adjudicate)


# -- regent new ----------------------------------------------------------------------------------
def run_new(args: argparse.Namespace) -> int:
    from service import hosted_setup
    from service.errors import RpcError

    if args.out.exists() and not args.overwrite:
        raise ValidationError(str(args.out), "already exists (a running game?); --overwrite replaces it")
    setup = _read_json(args.setup) if args.setup else {"board": "ring-7"}
    if args.board:
        setup["board"] = args.board
    if args.seed is not None:
        setup["seed"] = args.seed
    # what a mistake is blamed on: the setup file, and the flags that changed what it says
    where = " with ".join([str(args.setup)] * bool(args.setup) + [f"--board {args.board}"] * bool(args.board)
                          + [f"--seed {args.seed}"] * (args.seed is not None)) or "setup"
    try:
        engine_setup, service = hosted_setup.split_setup(setup)
        from engine.protectors.game import Game

        game = Game(engine_setup)
        meta = hosted_setup.service_meta(engine_setup, service, list(game.state.players), game)
    except RpcError as err:
        raise ValidationError(where, err.message) from None
    except RegentError as err:
        raise ValidationError(where, str(err)) from None
    gf = GameFile(game, agents={s: a for s, a in meta["controllers"].items() if a}, ai_levels=meta["ai_levels"],
                  deadlines=dict(meta["windows"]), step_started=gamefile.now(),
                  service={k: service[k] for k in ("auto_advance", "expiry") if k in service},
                  dms_read=dict(meta.get("dms_read") or {}))  # an exported setup's: those DMs are not read again
    # an exported setup's step_ai: the seats whose decision in the open step their AI made (the report resolving it
    # names them under Played by AI, as the game exported would)
    gf.step_ai = dict(meta.get("position_ai") or {})
    for seat, agent in gf.step_ai.items():
        gf.note_ai(seat, agent, game.state.turn)
    for note in position_notes(game, engine_setup.get("position")):
        failure.warn(f"regent: warning: {args.setup or 'setup'}: {note}")
    # a position at its `ranking` or `reveal` step runs on by itself (docs/positions.md): the bids, the ranking and
    # the cards it revealed are the report to post now, counted as posted as adjudicate's reports are
    report, gf.posted = new_report(game, 0)
    gamefile.write(args.out, gf)
    ai_seats = ", ".join(f"{gf.display(s)}: {gf.label(s)}" for s, _ in gamefile.in_seat_order(gf.game, gf.agents))
    print(f"created {args.out}: {len(game.state.players)} seats" + (f"; AI seats: {ai_seats}" if ai_seats else ""))
    attack = attack_check(game)  # a game brought in at its dragon step: the attack its report never announced
    if attack:
        print(attack)
    # a game brought in at its orders step: Weather forecast's look is made now (none to pass on if the position ended
    # the game as it came in: Fire and blood!, the last seat standing)
    looks = [] if game.over else _looks(gf, 0)
    if report:
        print(report)
    if looks:  # secrets, set apart as adjudicate sets them apart (with no report above them too)
        print(GM_ONLY)
    for look in looks:
        print(look)
    print(status(gf))
    return 0


def _read_text(path: Path, what: str) -> str:
    """A user's text file, or one clear error naming it: missing, not a regular file (a directory,
    ``/dev/null``, a pipe), unreadable, or not UTF-8 (a leading byte-order mark is dropped)."""
    if not path.exists():
        raise ValidationError(str(path), f"no such {what} file")
    if not path.is_file():
        raise ValidationError(str(path), f"not a regular file (give the {what} file itself)")
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise ValidationError(str(path), f"not UTF-8 text ({err.reason} at byte {err.start})") from None
    except OSError as err:
        raise ValidationError(str(path), f"cannot read it ({err.strerror})") from None


def _read_json(path: Path) -> dict[str, Any]:
    text = _read_text(path, "setup")
    try:
        data = jsonfile.loads(text)
    except jsonfile.DuplicateKeyError as err:
        raise ValidationError(str(path), str(err)) from None
    except json.JSONDecodeError as err:
        raise ValidationError(str(path), json_mistakes.not_json(err)) from None
    if not isinstance(data, dict):
        raise ValidationError(str(path), "a setup is a JSON object")
    return data


# -- reading a DMs file --------------------------------------------------------------------------
def read_dms(path: Path, gf: GameFile, gm: tuple[str, ...] = ()) -> tuple[
        list[tuple[int, str, str]], list[tuple[int, str | None, str]], list[int]]:
    """The DMs in a file, in order: ``[(header line number, seat, text)]``, the blocks whose header names no
    seat, ``[(header line number, header, text)]`` (text before the first header is one, its header ``None``,
    unless it is only blank lines and ``//`` notes): ``unnamed`` says what becomes of them; and the header
    lines of the GM's own messages (a header naming one of ``gm``), which are left out. A header is
    ``== name ==`` or Discord's copy of a message group (``Alice — Today at 14:03``)."""
    text = _read_text(path, "DMs")
    mine = {name.strip().lstrip("@").casefold() for name in gm if name.strip()}
    blocks: list[tuple[int, str | None, str | None, list[str]]] = []
    own: list[int] = []
    for n, line in enumerate(text.splitlines(), start=1):
        m = HEADER.match(line) or DISCORD_COPY.match(line)
        if m and m.group(1).strip().lstrip("@").casefold() in mine:
            own.append(n)
            blocks.append((n, "", None, []))  # the GM's own message: read to the next header, then left out
        elif m:
            blocks.append((n, gf.seat_named(m.group(1)), m.group(1), []))
        elif blocks:
            blocks[-1][3].append(line)  # blank lines too: the DM's line k is the file's line n + k
        elif line.strip() and not line.strip().startswith("//"):  # a DM with no header: from here to the first
            blocks.append((n, None, None, [line]))
    dms, unnamed = [], []
    for n, seat, label, lines in blocks:
        if seat is None:
            unnamed.append((n, label, "\n".join(lines)))
        elif seat:
            dms.append((n, seat, "\n".join(lines)))
    return dms, unnamed, own


def submit_dm(game: Any, seat: str, text: str, lenient: bool) -> tuple[list[str], list, list, list[str]]:
    """Submit one DM: (accepted lines, ignored lines, dropped lines, warnings: what the stored decision
    leaves undone that the player may not mean). The engine's ``submit_dm``: greetings ignored, ``lenient``
    drops invalid lines; a DM it would drop every order of is refused (raises), not stored as a choice of nothing."""
    r = game.submit_dm(seat, text, lenient=lenient)
    return list(r.lines), list(r.ignored), list(r.dropped), list(r.warnings)


# -- AI seats ------------------------------------------------------------------------------------

def ai_decisions(gf: GameFile, cache: dict[str, Any]) -> list[str]:
    """Every AI seat the current step waits for decides now; returns the lines printed for the GM."""
    from tqdm import tqdm

    from engine.protectors.defaults import default_decision
    from engine.protectors.position import steps_before
    from engine.protectors.seat import SeatContext
    from service import ai, explain
    from service.extras import install_hint

    game, out = gf.game, []
    due = [p for p in game.pending() if gf.agents.get(p.seat) and not p.submitted]
    # an expert seat thinks for seconds, 16 seats of it for a minute: a bar on a terminal (none when piped)
    for p in tqdm(due, desc=f"AI seats, {game.step}", unit="seat", file=sys.stderr, disable=None, leave=False):
        name = gf.agents[p.seat]
        # keyed by the steps resolved since the game began, those before an imported position too (steps_before),
        # so a game made from `regent export-position` gives its AI seats the dice the game exported would have
        seed = ai.decision_seed(game.setup.get("seed"), p.seat, game.actions, steps_before(game.setup))
        view = SeatContext(game, p.seat).view
        try:
            decision = ai.decide(game, p.seat, name, cache, seed)
            why = explain.reason(name, cache.get(p.seat), decision, view)
            lines = game.submit(p.seat, decision)
        except ModuleNotFoundError as err:
            raise ValidationError(f"{p.seat} ({name})", install_hint(err, f"the agent {name!r}")) from None
        except Exception as err:  # an illegal proposal or a failing agent: the rulebook default, said so
            refused = err if isinstance(err, RegentError) else f"{type(err).__name__}: {err}"
            decision = default_decision(game.state, p.seat)
            why = f"{explain.describe(decision, view)} (the rulebook default: the agent's choice failed: {refused})"
            lines = game.submit(p.seat, decision)
        gf.note_ai(p.seat, name, game.state.turn)
        gf.step_ai[p.seat] = name
        out.append(f"AI {gf.display(p.seat)} [{gf.label(p.seat, name)}], {game.step}: {why}")
        out.append("    DM: " + said(lines, game.step))
    return out


# -- reports and status --------------------------------------------------------------------------
def new_report(game: Any, start: int) -> tuple[str, int]:
    """The public report of what happened since event ``start`` (engine/protectors/report.py), and the
    event index it reaches (the game file's ``posted`` moves there, so ``regent report --since-last``
    never repeats what adjudicate printed)."""
    return game.report_since(start)


def status(gf: GameFile) -> str:
    """Where the game stands: who is in, who the step still waits for, and its deadline in local time."""
    game = gf.game
    if game.over:
        res = game.result or {}
        return f"game over: {res.get('how', '')}, winner {res.get('winner') or 'the Dragon'}"
    pending = {p.seat: p for p in game.pending()}
    done = [gf.display(s) for s in by_seat(pending) if pending[s].submitted]
    waiting = [gf.display(s) + (f" [AI {gf.label(s)}]" if s in gf.agents else "")
               for s in by_seat(pending) if not pending[s].submitted]
    head = f"Turn {game.state.turn}, {game.step} step"
    if not waiting:
        return f"{head}: every DM is in ({', '.join(done)}); resolve with --advance"
    return (f"{head}: waiting for {', '.join(waiting)}"
            + (f"; in: {', '.join(done)}" if done else "") + f"; {gamefile.describe_deadline(gf.deadline())}")


# -- regent adjudicate ---------------------------------------------------------------------------
def run_adjudicate(args: argparse.Namespace) -> int:
    with gamefile.locked(args.game):
        return _adjudicate(args)


def _adjudicate(args: argparse.Namespace) -> int:
    gf = gamefile.read(args.game, warn=failure.warn)
    game = gf.game
    for name in args.gm:  # a seat's name given by a slip would leave that player's DMs out without a word
        seat = gf.seat_named(name)
        if seat is not None:
            raise ValidationError("--gm", f"{name!r} names the seat {gf.display(seat)}, whose DMs it would leave out; "
                                          "give the name you post under yourself")
    dms, odd, own = read_dms(args.dms, gf, tuple(args.gm)) if args.dms else ([], [], [])
    if own:
        print(f"{args.dms}: {len(own)} message(s) of yours (--gm) left out (headers at {dms_seen.at_lines(own)})")
    # the DMs an earlier run read from this file (it grows as DMs arrive) are not read again: one line counts them
    seen = dms_seen.Seen(gf, args.dms)
    fresh, odd_fresh, old, renewed = seen.split(dms, odd)
    if args.dms and not dms and not odd and not own:  # the wrong file saved, or not saved yet: said, not a silent run
        print(f"{args.dms}: no DM in it (each goes under a '== Player#N ==' or '== display name ==' header)")
    if renewed:
        print(dms_seen.renewed(args.dms))
    if old:
        print(dms_seen.skipped(args.dms, old))
    if game.over and (fresh or args.advance or args.force):
        raise ValidationError(str(args.game), "the game is over; nothing more can be submitted or resolved")
    last, first = [gamefile.dumps(gf)], [True]
    initial, marks = last[0], {f: list(d) for f, d in gf.dms_read.items()}

    def save() -> None:
        body = gamefile.dumps(gf)
        if not args.dry_run and body != last[0]:  # only a change is written
            # .bak: the file as it was before this run; a run that only read DMs it did not use keeps the .bak
            # there is (as --since-last does), so copying it back still undoes the last run that changed the game
            news = first[0] and not getattr(args, "again", False) and gamefile.dumps(replace(gf, dms_read=marks)) \
                != initial  # a run's second pass (below) keeps the .bak of the file as it was before the run
            gamefile.write(args.game, gf, backup=news)
            last[0], first[0] = body, first[0] and not news

    rejected: list[tuple[str | None, str, str | None]] = []  # (seat, why, DM)
    # a seat's DM refused by an earlier run holds the step in a run without that file too (--force included): the
    # game file keeps it (``refused``) until the seat's DM is stored, its AI decides, or a run on that file no
    # longer refuses it (this file's are read again below: refused again, or not)
    open_step, waiting = gamefile.step_key(game), {p.seat for p in game.pending() if not p.submitted}
    records = {s: r for s, r in gf.refused.items() if r["step"] == open_step and s in waiting and r["file"] != seen.key}
    earlier = {s: f"{gf.display(s)}: rejected by an earlier run (DM at line {r['line']} of {Path(r['file']).name}): "
                  f"{r['why']}" for s, r in records.items()}
    rejected += [(s, line, None) for s, line in earlier.items()]
    last_dm = {seat: n for n, seat, _, _ in fresh}  # --lenient mends a seat's last DM here, never one it corrected
    stored = 0
    later: list[int] = []  # the DMs that came once every seat was in: the next step's
    for n, seat, text, fp in fresh:
        who = gf.display(seat)
        seen.read(fp)  # read to its end whatever follows, but a refusal (unread below: it is read again)
        if not text.strip():
            print(f"{who}: empty DM (line {n}); nothing stored")
            continue
        if seat in game.state.submissions and any(p.seat == seat for p in game.pending()):
            # said: no human sent it (the AI as the GM chose it, "normal -> heuristic")
            by_ai = f" by its AI ({gf.label(seat, gf.step_ai[seat])})" if seat in gf.step_ai else ""
            if not rejected and all(p.submitted or p.seat in gf.agents for p in game.pending()):
                # rules: 003 Each Turn — with every seat in, "the game continues immediately": a DM that came after
                # is the next step's (a Consolidation after the orders), read once this one resolves, not dropped
                seen.unread(fp)
                later.append(n)
                print(f"{who}: already in{by_ai} for the {game.step} step, as is every seat: the DM at line {n} came "
                      "after the step was complete, so it is read for the next step")
                continue
            # rules: 003 Each Turn — "Once a DM is sent to the GM, your orders/choices are final": the
            # DM stored first stands (a second DM of the seat; the ones an earlier run read are left out above)
            print(f"{who}: already in{by_ai} for the {game.step} step; the DM at line {n} is not used (DMs are final)")
            continue
        if not any(p.seat == seat for p in game.pending()):
            # a late DM for a step already resolved, or a seat with nothing to decide now (no units
            # against the Dragon...): it cannot be this step's decision, so it holds nothing up
            why = game.why_not_deciding(seat).removeprefix(seat + " ")
            print(f"{who}: {why}; the DM at line {n} is not used")
            continue
        before = len(game.state.events)
        try:
            lines, ignored, dropped, warnings = submit_dm(game, seat, text, args.lenient and last_dm[seat] == n)
        except (RegentError, ValueError) as err:
            seen.unread(fp)
            # the reason goes to the player: its quoted lines name players as the player did, not by seat id
            names = display_names(game.state)
            why = _by_name(_refusal(err, n), names)
            rejected.append((seat, f"{who}: rejected (DM at line {n}): {why}", fp))
            records[seat] = {"file": seen.key, "line": n, "why": clip(why, REFUSED_WHY),
                             "step": open_step}
            continue
        stored += 1
        gf.step_ai.pop(seat, None)
        print(f"{who}: stored: " + said(lines, game.step))
        for warning in warnings:  # e.g. Provinces with units the DM gave no order (Snitch alone)
            print(f"    note: {warning}")
        for look in _looks(gf, before):  # a Palantír or a paid Weather forecast: the player needs it now
            print(f"    {look}")
        if any(p.seat == seat and not p.submitted for p in game.pending()):  # look-ahead abilities alone
            print(f"    these act at once; {who}'s decision for the {game.step} step is still to come")
        if seat in gf.agents:  # a seat can change hands mid-step (docs/gm-guide.md 3); said, so it is no slip
            print(f"    {who} is an AI seat ({gf.label(seat)}): this DM was stored as its decision; to give the "
                  f"seat back: regent seat {shlex.quote(str(args.game))} {shlex.quote(gf.name(seat))} human")
        # the seat's refused DM earlier in this file was fixed by this one: said, but it no longer holds
        # the step (a file grown as DMs arrive holds the refused DM and then its correction)
        for fixed in [r for r in rejected if r[0] == seat]:
            rejected.remove(fixed)
            seen.read(fixed[2])  # no longer holds the step: a later run leaves it out
            was = f"{who}: the DM an earlier run rejected" if fixed[2] is None and seat in earlier else fixed[1]
            print(f"    {was}; superseded by the DM at line {n}")
        records.pop(seat, None)
        for item in dropped:
            print(f"    dropped {_item(item, n)}")
        for item in ignored:
            if isinstance(item, list | tuple) and len(item) == 3 and not str(item[1]).strip():
                continue  # blank lines go without saying
            why = str(item[2]) if isinstance(item, list | tuple) and len(item) == 3 else ""
            if why.startswith("left out ") and isinstance(item[0], int):  # the order was read, beside-words not
                print(f"    line {n + item[0]}: {why}")
            else:
                print(f"    ignored {_item(item, n)}")
    cache: dict[str, Any] = {}
    # the AI seats' decisions are secrets: when this run may resolve the step, they wait for the not-for-posting
    # line under its report (printed above the report, a GM copying the output down to that line posted them)
    decided = ai_decisions(gf, cache)
    if not (args.advance or args.force):
        for line in decided:
            print(line)
        decided = []
    # a refused DM of a seat an AI has taken since: the AI's decision stands for the step, the DM holds nothing
    for taken in [r for r in rejected if r[0] in gf.step_ai]:
        rejected.remove(taken)
        seen.read(taken[2])
        records.pop(str(taken[0]), None)
        was = f"{gf.display(str(taken[0]))}: the DM an earlier run rejected" if taken[2] is None else taken[1]
        # its AI as the GM chose it when it decided in this step (the seat may have changed hands since)
        print(f"{was}; superseded by the decision of its AI ({gf.decided_label(taken[0], gf.step_ai[taken[0]])})")
    gf.refused = {s: r for s, r in records.items() if any(x[0] == s for x in rejected)}
    # a block whose header names no seat holds the step while a seat is missing (it may be its DM), else not used
    held, unused = unnamed.settle(args.dms, odd_fresh, gf, seen)
    for line in unused:
        print(line)
    rejected[:0] = [(None, line, None) for line in held]
    for _, line, _ in rejected:
        print(line, file=sys.stderr)
    save()
    # a rejected DM holds the step: its seat did send something, so neither --advance nor the
    # rulebook defaults (--force) may stand in for it; fix the DM (or use --lenient) and run again
    resolve = (args.advance or args.force) and not rejected
    if rejected and (args.advance or args.force):
        print("not resolved: a DM was not stored (listed above); send the corrected DM (or use --lenient), or fix "
              "the header that names no seat, and run again")
    while not game.over and not rejected:
        missing = by_seat(p.seat for p in game.pending() if not p.submitted)  # seat order, as the status line
        if missing and not resolve:
            break
        if missing and not args.force:
            for line in decided:  # no report in this run: nothing above them to post
                print(line)
            print(status(gf))
            raise ValidationError(str(args.game), f"cannot resolve the {game.step} step: waiting for "
                                  f"{', '.join(gf.display(s) for s in missing)}; --force applies the "
                                  "rulebook defaults to them")
        due = gf.deadline()
        if missing and due is not None and gamefile.now() < due:
            print(f"note: forcing the {game.step} step before its {gamefile.describe_deadline(due)}")
        start, played, turn, forced = len(game.state.events), dict(gf.step_ai), game.state.turn, game.step
        # which of the turn's Dragon Attacks the defaults played in (a turn may have two: the After Burner)
        dpl = game.state.attack.dpl if forced == gamefile.DRAGON and game.state.attack is not None else None
        game.advance(force=bool(missing))
        # a Bank of Lannuvár round answers the choices just revealed, and its report shows them again: the AI
        # decisions among them stay on record, so it names the seats an AI played (it said "none")
        gf.step_started, gf.step_ai = gamefile.now(), dict(played) if gamefile.bank_round_began(game, start) else {}
        report, reached = new_report(game, start)
        gf.posted = max(gf.posted, reached)
        resolved: list[str] = []  # what the step resolved was: said under its own turn, before the next turn's header
        if played or gf.agents:  # a game with AI seats labels every step, a round no AI decided too
            resolved.append(gamefile.played_by_ai(game, {s: gf.decided_label(s, a) for s, a in played.items()}))
        if missing:
            resolved.append(defaulted.step_line(missing, forced, dpl, gf.name))
        report = under_turn(report, turn, resolved)
        save()  # before the report is shown: a report the GM may post is never of a step left unsaved
        print(report)
        resolve = False  # one step per --advance/--force; later steps resolve only when every DM is in
        # Weather forecast's free look as the orders step begins, and the AI seats' decisions: secrets, so
        # they are set apart from the report above, which is what the GM posts
        private = decided + _looks(gf, start) + ai_decisions(gf, cache)
        decided = []
        if private:
            print(GM_ONLY)
        for line in private:
            print(line)
        save()
    for line in decided:  # no step resolved in this run (a DM held it): no report above them
        print(line)
    if later and not args.dry_run and gamefile.step_key(game) != open_step and not game.over:
        # the step resolved: the DMs that came after it was complete are read now, for the step that follows (a run
        # of its own on the file: --advance and --force were for the step resolved above)
        return _adjudicate(argparse.Namespace(**{**vars(args), "advance": False, "force": False, "again": True}))
    print(status(gf))
    if args.dry_run:
        print("dry run: nothing saved")
    # this run's refusals fail it; an earlier run's (the GM knows of them) only when they kept it from resolving
    new = [r for r in rejected if r[0] is None or r[2] is not None]
    if new:
        raise ValidationError(str(args.dms), f"{len(new)} DM(s) not stored (listed above); "
                                             f"{stored} stored" + (" (dry run)" if args.dry_run else ""))
    if rejected and (args.advance or args.force):
        raise ValidationError(str(args.game), f"the {game.step} step is held by {len(rejected)} DM(s) an earlier run "
                                              "rejected (listed above): store the seat's corrected DM, or fix or "
                                              "delete the refused one in its file and run on that file")
    return 0


GM_ONLY = "--- not for posting (the GM and the seats named only) ---"
# characters of a refusal's reason the game file keeps (``GameFile.refused``) and a later run says again: the whole of
# what the GM passes on (a 300-character cut ended a reason halfway, "a note to the GM can go on a line s...")
REFUSED_WHY = 2000


def _looks(gf: GameFile, since: int) -> list[str]:
    """The looks at the decks made since event ``since``, each for its seat alone to be told (rules: 003
    Kalu'Ak, Weather forecast; the Palantír): the public report leaves them out, the player needs them
    before giving orders."""
    return [f"tell {gf.display(seat)} alone: {e.text}" for e in gf.game.state.events[since:]
            if e.kind == "peek" and e.visible_to for seat in sorted(e.visible_to)]


# a syntax example in a refusal: "is not a player like Player#2", "like '(30 from Player#2)'" (patterns, not seats)
_EXAMPLE = re.compile(r"like (?:Player#\d+|'[^']*')")


def _by_name(text: str, names: dict[str, str]) -> str:
    """A refusal's ``text`` with the players it quotes by their display names (``named``), but for the syntax examples
    of what a step takes (``EXPECTED_BY_STEP``: ``Snitch Player#2`` there is a pattern, not the seat Player#2) and
    those a reason gives after "like" (``'Zed' is not a player like Player#2`` read "like Bob")."""
    kept = [v for v in EXPECTED_BY_STEP.values() if v in text] + _EXAMPLE.findall(text)
    for i, example in enumerate(kept):
        text = text.replace(example, f"\0{i}\0")
    text = named(text, names)
    for i, example in enumerate(kept):
        text = text.replace(f"\0{i}\0", example)
    return text


def _refusal(err: Exception, header: int) -> str:
    """Why a DM was refused, for the GM to pass on: the engine's reason, or for a DM with several refused lines
    (their line numbers known) each line in the DMs file's order with its line there and why, once ("line 3: 'Work,
    work! P99': P99 is not on this board", then "also line 4: ..."), so the player mends every one at once. The
    engine's message joins every reason in the order its rules check them, and listing the lines under it said
    each but the first twice."""
    details = getattr(err, "details", None)
    listed = details.get("rejected") if isinstance(details, dict) else None
    rows = sorted((r for r in listed if isinstance(r, dict) and isinstance(r.get("line_no"), int)),
                  key=lambda r: r["line_no"]) if isinstance(listed, list) else []
    if len(rows) < 2 or len(rows) != len(listed or []):
        return str(err)
    out = [f"{'also ' if i else ''}line {header + r['line_no']}: {r.get('line', '')!r}: {r.get('reason', '')}"
           for i, r in enumerate(rows)]
    count = details.get("rejected_count") if isinstance(details, dict) else None
    if isinstance(count, int) and count > len(rows):
        out.append(f"...and {count - len(rows)} more refused line(s), not listed")
    return "\n    ".join(out)


def _item(item: Any, header: int) -> str:
    """A dropped or ignored line ``(line_no in the DM, text, why)`` with its line in the DMs file."""
    if isinstance(item, list | tuple) and len(item) == 3 and isinstance(item[0], int):
        n, text, why = item
        return f"line {header + n}: {text!r} ({why})"
    return str(item)
