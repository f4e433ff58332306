"""The steps the rulebook's default played for a seat, told in that seat's own private summary.

A step resolved while a seat had sent nothing (``regent adjudicate --force``, the service's ``game.advance`` with
``force`` or at the deadline) plays the rulebook's default for it, and the public report says so for everyone
(``Rulebook defaults for: ...``). The seat's own summary (what the GM, or the Discord bot, DMs back to the player)
says it too, for that seat alone, with the step and what the default was. Who was defaulted is no engine event
(events are what the rules reveal, fixed in the golden transcripts). The CLI reads it from the game's record of
actions, replayed up to each forced ``advance`` (:func:`replayed`); the service writes it into its own log as it
forces the step (``HostedGame.advance``). Both are told in the same words (:func:`told`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.protectors.defaults import default_decision
from engine.protectors.events import listed
from engine.protectors.game import Game
from engine.protectors.state import DRAGON
from service.decision_words import said
from service.posting import by_seat

# rules: 003 1. Protector Ranking ("If a player fails to submit anything within 24h, they will bid 0"); 003 3.
# Negotiation and Orders (Fortify!); 003 Determine Protector US step ("Turn off the lights"); 003 5. Consolidation
# ("buy as many Army Units as they can afford ... bid 0"): each step's words and the rule its default comes from
STEPS = {
    "bid": ("bid", "003 1. Protector Ranking"),
    "rebid": ("re-bid", "003 1. Protector Ranking"),
    "bank_bid": ("Bank of Lannuvár bid", "003 1. Protector Ranking"),
    "orders": ("orders", "003 3. Negotiation and Orders"),
    "dragon": ("Dragon attack", "003 Determine Protector US step"),
    "consolidation": ("consolidation", "003 5. Consolidation"),
}


@dataclass(frozen=True)
class Defaulted:
    """One seat's decision the rulebook's default made: turn, step, seat and the default's lines."""

    turn: int
    step: str
    seat: str
    lines: tuple[str, ...]
    dpl: int | None = None
    """in a Dragon Attack, its DPL: a turn can hold several attacks (the After Burner, a threshold attack after an
    elimination), and a seat that sent its DM for one is told which one the default played for it"""


def replayed(game: Game) -> list[Defaulted]:
    """Every decision the rulebook's default made for a seat that sent nothing, in the order of the game."""
    if not any(a[0] == "advance" and a[1] for a in game.actions):
        return []  # no step was forced: no replay
    replay, out = Game(game.setup), []
    for action in game.actions:
        if action[0] == "submit":
            replay.submit(action[1], "\n".join(action[2]))
        elif action[0] == "advance":
            st = replay.state
            if action[1]:
                dpl = st.attack.dpl if st.step == DRAGON and st.attack is not None else None
                out += [Defaulted(st.turn, st.step, p.seat, tuple(default_decision(st, p.seat).texts), dpl)
                        for p in replay.pending() if not p.submitted]
            replay.advance(force=bool(action[1]))
    return out


def turn_line(records: list[Defaulted], turn: int, name: Callable[[str], str]) -> str:
    """The ``Rulebook defaults for: Bob, Carol in the bid step; Bob in the orders step`` line a turn's public
    report ends with (``regent report --turn N``, the service's ``game.report``): the seats the rulebook's default
    played for in each step of ``turn`` forced, in the game's order (a step forced twice running is one), each
    seat by ``name`` (its display name), in seat order; ``""`` when no step of that turn was forced. A Dragon Attack
    step names its attack by its DPL, as the seat's own summary does (``told``): a turn may have two (an After Burner,
    a threshold attack after the Dragon's Wrath). Steps running with the same seats name them once (``Cat, Jo in the
    orders step and the consolidation step``)."""
    steps: list[tuple[str, int | None, list[str]]] = []
    for d in records:
        if d.turn != turn:
            continue
        if not steps or steps[-1][:2] != (d.step, d.dpl):
            steps.append((d.step, d.dpl, []))
        if d.seat not in steps[-1][2]:
            steps[-1][2].append(d.seat)
    if not steps:
        return ""
    # steps running with the same silent seats name them once (16 seats: eight names said once a step otherwise)
    runs: list[tuple[list[str], list[str]]] = []
    for step, dpl, seats in steps:
        if runs and set(runs[-1][0]) == set(seats):
            runs[-1][1].append(_step_name(step, dpl))
        else:
            runs.append((seats, [_step_name(step, dpl)]))
    return DEFAULTS + "; ".join(f"{_seat_names(seats, name)} in {listed(in_steps)}" for seats, in_steps in runs)


DEFAULTS = "Rulebook defaults for: "


def step_line(seats: Iterable[str], step: str, dpl: int | None, name: Callable[[str], str]) -> str:
    """The ``Rulebook defaults for: Bob, Carol in the dragon step (the attack at DPL 12)`` line the report of one
    forced step ends with (``regent adjudicate --force``, the service's ``game.advance``), in the words of a turn's
    (:func:`turn_line`): the seats by ``name``, in seat order; a Dragon Attack named by its DPL."""
    return DEFAULTS + _step_words(seats, step, dpl, name)


def _step_words(seats: Iterable[str], step: str, dpl: int | None, name: Callable[[str], str]) -> str:
    return f"{_seat_names(seats, name)} in {_step_name(step, dpl)}"


def _seat_names(seats: Iterable[str], name: Callable[[str], str]) -> str:
    return ", ".join(name(s) for s in by_seat(seats))


def _step_name(step: str, dpl: int | None) -> str:
    return f"the {step} step" + (f" (the attack at DPL {dpl})" if dpl is not None else "")


def told(records: list[Defaulted], seat: str, turn: int, game: Game | None = None) -> list[str]:
    """``seat``'s lines for its summary of ``turn``: one per step of that turn the rulebook's default played for
    it. Only its own: no other seat's summary gets them. With ``game``, the turn-1 bid's line also names the faction
    the rulebook dealt the seat for the one it did not choose (:func:`dealt_faction`)."""
    out = []
    for d in records:
        if d.seat == seat and d.turn == turn:
            what, rule = STEPS.get(d.step, (d.step, "003"))
            # "not stored", not "not received": a DM may have come and been refused, and never sent again
            which = f" (the attack at DPL {d.dpl})" if d.dpl is not None else ""  # one of the turn's attacks
            line = (f"Your {what} DM for turn {turn}{which} was not stored (none came in time, or none that could be "
                    "read): "
                    "the rulebook default was played for you: "
                    f"{said(list(d.lines), d.step)} ({rule}).")
            dealt = dealt_faction(game, seat) if game is not None and d.step == "bid" and turn == 1 else None
            if dealt:
                line += f" Your faction, which you did not choose, was dealt by chance: {dealt} (003 Factions)."
            out.append(line)
    return out


def dealt_faction(game: Game, seat: str) -> str | None:
    """The faction the game dealt ``seat`` by chance in a game where players choose theirs with the turn-1 bid
    (rules: 003 Factions, "assigned ... by their own choice or by chance"; the engine deals one to a seat whose bid
    named none): the seat's faction when its setup gave it none, else None."""
    st = game.state
    if not st.options.factions or st.options.faction_choice != "chosen" or st.players[seat].faction is None:
        return None
    players = game.setup.get("players")
    listed = players if isinstance(players, list) else []  # a number of players gives no faction
    given = [p.get("faction") for i, p in enumerate(listed)
             if isinstance(p, dict) and p.get("seat", f"Player#{i + 1}") == seat]
    return None if any(given) else st.players[seat].faction


def with_told(summary: str, lines: list[str]) -> str:
    """A private summary (``Game.private_summary``) with ``lines`` under its title line."""
    if not lines:
        return summary
    title, _, rest = summary.partition("\n")
    return "\n".join([title, *lines] + ([rest] if rest else []))


def summary(game: Game, seat: str, turn: int | None = None, windows: dict[str, float] | None = None) -> str:
    """``seat``'s private summary of ``turn`` (default: the current one) with :func:`told` from a replay; ``windows``:
    the game's decision windows (the game file's ``deadlines``), which its ``Now: send your ... DM`` line says."""
    t = game.state.turn if turn is None else turn
    return with_told(game.private_summary(seat, turn, windows), told(replayed(game), seat, t, game))
