"""Positions written as compact literals, in the diplomacy-conformance style: set position -> set
orders -> process -> assert."""

from __future__ import annotations

from engine.protectors.cards import CARD_DECK
from engine.protectors.game import Game


def line_board(*edges: str, n: int) -> dict:
    """A custom board of P1..Pn with the given borders ("P1-P2", ...)."""
    nb: dict[str, set[str]] = {f"P{i}": set() for i in range(1, n + 1)}
    for e in edges:
        a, b = e.split("-")
        nb[a].add(b)
        nb[b].add(a)
    return {"provinces": {p: {"neighbors": sorted(v)} for p, v in nb.items()}}


def position(board, players: int, provinces: dict, *, ranking=None, realm=None, phase="orders",
             turn=2, dpl=0, cards=(), seed=0, options=None, teams=None, **pos) -> Game:
    """A game at ``phase`` of ``turn``. ``provinces``: {"P1": ("Player#1", units[, level[, burnt]])}.
    ``cards``: card names in play this turn."""
    provs = {}
    for p, spec in provinces.items():
        owner, units, *rest = spec
        provs[p] = {"owner": owner, "units": units, "level": rest[0] if rest else 0,
                    "burnt": rest[1] if len(rest) > 1 else False}
    seats = [f"Player#{i}" for i in range(1, players + 1)]
    owners = {v[0] for v in provinces.values()}
    eliminated = [s for s in seats if s not in owners]
    active = [s for s in seats if s in owners]
    roster = [{"seat": s, "team": teams[i] if teams else None} for i, s in enumerate(seats)]
    setup = {"board": board, "seed": seed, "players": roster, "options": options or {},
             "position": {"turn": turn, "phase": phase, "provinces": provs, "dpl": dpl,
                          "ranking": ranking or active, "realm": realm or dict.fromkeys(active, 0),
                          "eliminated": eliminated, **pos}}
    game = Game(setup)
    game.state.cards_this_turn = [(CARD_DECK[c], c) for c in cards]
    return game


def play_orders(game: Game, dms: dict[str, str]) -> list:
    """Submit the orders DMs (everyone else: nothing, i.e. no orders) and execute them."""
    from engine.protectors.decisions import OrdersDecision

    for seat in game.deciding_seats():
        game.submit(seat, dms.get(seat, OrdersDecision()))
    return game.advance()


def units(game: Game, prov: str) -> tuple[str | None, int]:
    return game.state.holder(prov), game.state.provinces[prov].units


def dragon_attack(game: Game, dpl: int, source: str = "card") -> Game:
    """Make the Dragon attack now (as if a There be Dragons! card was just played)."""
    st = game.state
    st.dpl = dpl
    st.pending_attacks = [source]
    st.reveal_queue = []
    st.step = "reveal"
    game._run()
    assert st.step == "dragon"
    return game


def fight(game: Game, dms: dict[str, str]) -> list:
    for seat, text in dms.items():
        game.submit(seat, text)
    return game.advance(force=True)


def event(events, kind):
    found = [e for e in events if e.kind == kind]
    assert found, f"no {kind} event in {[e.kind for e in events]}"
    return found[0]
