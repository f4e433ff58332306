"""The decisions the AI levels make on fixed positions and in fixed games: the proof that a speed change left them
as they were (session 31: ``expert``'s play-outs made faster, its decisions unchanged).

On positions recorded from all-heuristic games at the start of the orders step (``training.evaluate.record_positions``)
the first standing seat's orders are asked of ``search`` (the ``expert`` level) and of ``heuristic`` with fixed seeds;
the record keeps the decision texts, every candidate's mean play-out score and the play-outs per candidate. A few
full games with several levels seated (``agents.runner.play_game``) add their final state digests
(``service.gamefile.state_digest``). Record before a change, again after it, and compare: every entry must be equal.
``--fixture`` rewrites the small set tests/agents/test_decisions_unchanged.py checks in seconds.

    .venv/bin/python -m benchmarks.decision_record --out before.json [--sizes 5,7,10,16] [--positions 2]
    .venv/bin/python -m benchmarks.decision_record --out after.json --compare before.json
    .venv/bin/python -m benchmarks.decision_record --fixture
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from agents.registry import make_agent
from agents.runner import play_game
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from envs.opponents import make_setup
from service.gamefile import state_digest
from training.evaluate import record_positions

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "agents" / "data" / "decisions.json"
SEED = 31000
TURNS = (2, 4, 6)
# (seats, turn, setup options) beside the plain rings: a team game, the Grand board with the Island, factions
VARIED = ((8, 4, {"teams": 2}), (6, 3, {"island": True, "version": "grand"}), (7, 4, {"factions": True}))
# (seats, the agents seated in turn, setup options) of the full games
GAMES: tuple[tuple[int, tuple[str, ...], dict[str, Any]], ...] = (
    (5, ("search", "heuristic", "strong", "caretaker", "steward"), {}),
    (7, ("heuristic", "strong", "fair", "caretaker", "heuristic", "steward", "ppo:easy"), {"factions": True}),
    (8, ("heuristic", "strong", "heuristic", "fair") * 2, {"teams": 2}),
    (6, ("heuristic", "strong", "steward") * 2, {"island": True, "version": "grand"}),
    (10, ("heuristic",) * 4 + ("strong",) * 3 + ("caretaker",) * 3, {}),
)
# what the test checks: small and quick in pure Python
FIXTURE_CASES = ((5, 6, {}), (7, 4, {}), (8, 4, {"teams": 2}), (16, 2, {}))
FIXTURE_SEARCHED = (5, 7)  # the sizes whose expert decision the fixture holds (the heuristic's: every case)
FIXTURE_GAMES = (1, 2)  # indexes into GAMES


def _texts(decision: Any) -> list[str]:
    return [ln.text() for ln in decision.lines()]


def decisions(cases: Any, positions: int, searched: Any = None) -> list[dict[str, Any]]:
    """For every (seats, turn, options) case, ``positions`` positions: the heuristic's orders and, when the seat
    count is in ``searched`` (None: always), expert's with its candidates' scores."""
    search, heuristic = make_agent("search", 0), make_agent("heuristic", 0)
    out = []
    for n, turn, kw in cases:
        for game_seed, pos in record_positions(positions, turn, players=n, seed=SEED, progress=False, **kw):
            seat = next(s for s, p in pos.state.players.items() if not p.eliminated)
            game = pos.clone()
            heuristic.reset(game_seed)
            row: dict[str, Any] = {"seats": n, "turn": turn, "options": kw, "seed": game_seed, "seat": seat,
                                   "heuristic": _texts(heuristic.act(SeatContext(game, seat)))}
            if searched is None or n in searched:
                search.reset(game_seed)
                row["expert"] = _texts(search.act(SeatContext(game, seat)))
                row["scores"] = [[_texts(c), s] for c, s in search.last_scores]
                row["rollouts"] = search.last_rollouts
            out.append(row)
    return out


def games(which: Any = None) -> list[dict[str, Any]]:
    """The final state digest of each of GAMES (``which``: their indexes)."""
    out = []
    for k, (n, specs, kw) in enumerate(GAMES):
        if which is not None and k not in which:
            continue
        setup = make_setup(None, n, 777 + n, **kw)
        seats = list(Game(setup).state.players)
        game = play_game(setup, {s: make_agent(a, 0) for s, a in zip(seats, specs, strict=True)})
        out.append({"seats": n, "agents": list(specs), "options": kw, "turn": game.state.turn,
                    "digest": state_digest(game)})
    return out


def fixture() -> dict[str, Any]:
    """What tests/agents/test_decisions_unchanged.py compares with FIXTURE."""
    return {"decisions": decisions(FIXTURE_CASES, 1, FIXTURE_SEARCHED), "games": games(FIXTURE_GAMES)}


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Where two records differ (none: the same decisions and games)."""
    out = [f"{len(a[k])} {k} against {len(b[k])}" for k in ("decisions", "games") if len(a[k]) != len(b[k])]
    for k in ("decisions", "games"):
        out += [f"{k}: {x} != {y}" for x, y in zip(a[k], b[k], strict=False) if x != y]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="write the record here (JSON)")
    ap.add_argument("--compare", help="a record to compare with (exit 1 if anything differs)")
    ap.add_argument("--sizes", default="5,7,10,16")
    ap.add_argument("--positions", type=int, default=2, help="positions per size and turn")
    ap.add_argument("--no-games", action="store_true")
    ap.add_argument("--fixture", action="store_true", help=f"rewrite {FIXTURE.relative_to(FIXTURE.parents[2])}")
    args = ap.parse_args(argv)
    if args.fixture:
        FIXTURE.parent.mkdir(parents=True, exist_ok=True)
        FIXTURE.write_text(json.dumps(fixture(), indent=1) + "\n")
        print(f"wrote {FIXTURE}")
        return 0
    start = time.process_time()
    cases = [(int(n), t, {}) for n in args.sizes.split(",") for t in TURNS] + list(VARIED)
    record = {"decisions": decisions(cases, args.positions)}
    print(f"{len(record['decisions'])} positions, {time.process_time() - start:.1f} s CPU")
    record["games"] = [] if args.no_games else games()
    if args.out:
        Path(args.out).write_text(json.dumps(record, indent=1) + "\n")
    if args.compare:
        diff = differences(json.loads(Path(args.compare).read_text()), record)
        print("\n".join(diff) if diff else f"identical to {args.compare}: {len(record['decisions'])} positions' "
                                           f"decisions and scores, {len(record['games'])} games' digests")
        return 1 if diff else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
