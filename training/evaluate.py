"""The evaluation harness: seat-vs-field and round-robin tournaments, mid-game takeovers.

Every game is seeded; seats rotate over seeds (game g puts the measured agent in seat g mod players),
so seat position does not bias a result. Reported per agent: win rate with a 95% Wilson interval,
VP share (own VPs / all standing VPs at the end, 0 when eliminated) and the env's terminal score
(``agents.reward.terminal_reward``) with 95% bootstrap intervals, how games ended, and an Elo ladder.
Reports are plain dicts, saved as JSON (``save_json``) and a matplotlib PNG (``save_plot``).

Mid-game takeover: positions are recorded from games every seat of which the ``recorder`` agent
plays (heuristic by default) at the start of the orders step of turn ``turn``; one seat is then
handed to agent X and, from the very same position and engine state (its random generator included),
to the baseline (caretaker by default); the other seats keep their recorder agents with the same
seeds. The pairwise differences X - baseline are the number a GM cares about.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from agents.registry import make_agent
from agents.reward import terminal_reward
from agents.runner import MAX_ADVANCES, finish, play_turn_step
from engine.errors import ValidationError
from engine.protectors.game import Game
from engine.protectors.state import ORDERS
from envs.opponents import make_setup
from training.stats import Elo, bootstrap_mean, mean, wilson


class AgentCache:
    """Agents by spec; checkpoints load once (``reset`` re-seeds them per game)."""

    def __init__(self):
        self._policies: dict[str, Any] = {}

    def get(self, spec: str, seed: int):
        if spec.startswith("policy:"):
            if spec not in self._policies:
                self._policies[spec] = make_agent(spec, seed)
            agent = self._policies[spec]
        else:
            agent = make_agent(spec, seed)
        agent.reset(seed)
        return agent


def seat_outcome(game: Game, seat: str) -> dict[str, Any]:
    res = game.result or {}
    st = game.state
    team = st.team_of(seat)
    vps = res.get("vp", {})
    total = sum(vps.values())
    win = res.get("winner") is not None and res.get("winner") in (seat, team)
    standing = seat in vps and not st.players[seat].eliminated
    return {"seat": seat, "win": win,
            # the most VPs among those standing at the end, Dragon victories included (a survival
            # measure: "win" alone is 0 for everybody when the Dragon wins)
            "top": win or (standing and vps[seat] == max(vps.values())),
            "score": terminal_reward(res, seat, team), "vp": vps.get(seat, 0),
            "vp_share": vps.get(seat, 0) / total if total else 0.0, "how": res.get("how"),
            "eliminated": st.players[seat].eliminated, "eliminated_turn": st.players[seat].eliminated_turn,
            "turn": res.get("turn")}


def standing_key(outcome: dict[str, Any]) -> tuple[float, float]:
    """A seat's final standing, larger is better: the score first, then how long the seat lasted (the
    turn it was eliminated; a seat standing at the end counts as lasting past the last turn). So two
    eliminated seats, or two seats in a game the Dragon won, are told apart by who went out later:
    the finishing order of an elimination game."""
    out = outcome.get("eliminated_turn")
    lasted = float(out) if outcome.get("eliminated") and out is not None else float((outcome.get("turn") or 0) + 1)
    return (float(outcome["score"]), lasted)


def placements(game: Game) -> dict[str, float]:
    """0 = the winner; then by VPs; the eliminated last; a Dragon victory ties everyone."""
    res = game.result or {}
    seats = list(game.state.players)
    if res.get("winner") is None:
        return dict.fromkeys(seats, 0.0)
    vps = res.get("vp", {})
    out = {}
    for s in seats:
        o = seat_outcome(game, s)
        out[s] = 0.0 if o["win"] else (1.0 + 1.0 / (1 + vps[s]) if s in vps else 3.0)
    return out


def summarize(outcomes: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(outcomes)
    wins = sum(o["win"] for o in outcomes)
    shares = [o["vp_share"] for o in outcomes]
    scores = [o["score"] for o in outcomes]
    return {"games": n, "wins": wins, "win_rate": wins / n if n else 0.0, "win_ci": list(wilson(wins, n)),
            "vp_share": mean(shares), "vp_share_ci": list(bootstrap_mean(shares)),
            "score": mean(scores), "score_ci": list(bootstrap_mean(scores)),
            "ended": dict(Counter(o["how"] for o in outcomes)),
            "eliminated_rate": mean([float(o["eliminated"]) for o in outcomes]),
            "top_rate": mean([float(o.get("top", False)) for o in outcomes]),
            "top_ci": list(wilson(sum(bool(o.get("top")) for o in outcomes), n))}


def _setup_kwargs(players, board, version, island, factions, teams) -> dict[str, Any]:
    return {"players": players, "board": board, "version": version, "island": island, "factions": factions,
            "teams": teams}


def seat_of(k: int, seats: Sequence[str]) -> str:
    """The measured seat of game (or takeover position) ``k``: it rotates over the seats, so seat position
    does not bias a result."""
    return seats[k % len(seats)]


def field_specs(seats: Sequence[str], me: str, field: Sequence[str], game_seed: int) -> dict[str, str]:
    """The agent spec of every seat but ``me``, drawn from ``field`` with the game's seed."""
    rng = random.Random(game_seed)
    return {s: rng.choice(list(field)) for s in seats if s != me}


def seat_vs_field(agent: str, field: Sequence[str], games: int, players: int = 5, board=None,
                  version: str = "normal", island: bool = False, factions: bool = False, teams: int = 0,
                  seed: int = 0, progress: bool = True) -> dict[str, Any]:
    """``agent`` in one seat (rotating), every other seat drawn from ``field`` per game (seeded)."""
    if games < 1 or not field:
        raise ValidationError("games", "need at least one game and one field agent")
    kw = _setup_kwargs(players, board, version, island, factions, teams)
    cache, outcomes, elo = AgentCache(), [], Elo()
    for g in tqdm(range(games), desc=f"{agent} vs {'/'.join(field)}", disable=not progress):
        game_seed = seed + g
        game = Game(make_setup(seed=game_seed, **kw))
        seats = list(game.state.players)
        me = seat_of(g, seats)
        others = field_specs(seats, me, field, game_seed)
        specs = {s: others.get(s, agent) for s in seats}
        agents = {s: cache.get(spec, game_seed * 100 + i) for i, (s, spec) in enumerate(specs.items())}
        finish(game, agents)
        outcomes.append(seat_outcome(game, me))
        place = placements(game)
        elo.update([(specs[s], place[s]) for s in seats])
    return {"mode": "field", "agent": agent, "field": list(field), "setup": kw, "seed": seed,
            **summarize(outcomes), "elo": elo.ladder(), "detail": outcomes}


def round_robin(agents: Sequence[str], games: int, players: int = 5, board=None, version: str = "normal",
                island: bool = False, factions: bool = False, teams: int = 0, seed: int = 0,
                progress: bool = True) -> dict[str, Any]:
    """Every game seats the agents in rotation (seat i of game g gets agent (i + g) mod K)."""
    if len(agents) < 2 or games < 1:
        raise ValidationError("agents", "a round robin needs 2+ agents and 1+ games")
    kw = _setup_kwargs(players, board, version, island, factions, teams)
    cache, elo = AgentCache(), Elo()
    per: dict[str, list] = {a: [] for a in agents}
    for g in tqdm(range(games), desc="round robin", disable=not progress):
        game_seed = seed + g
        game = Game(make_setup(seed=game_seed, **kw))
        seats = list(game.state.players)
        specs = {s: agents[(i + g) % len(agents)] for i, s in enumerate(seats)}
        finish(game, {s: cache.get(spec, game_seed * 100 + i) for i, (s, spec) in enumerate(specs.items())})
        place = placements(game)
        elo.update([(specs[s], place[s]) for s in seats])
        for s in seats:
            per[specs[s]].append(seat_outcome(game, s))
    return {"mode": "round_robin", "agents": list(agents), "setup": kw, "seed": seed,
            "per_agent": {a: summarize(o) for a, o in per.items()}, "elo": elo.ladder(), "counts": ROUND_ROBIN_COUNTS}


ROUND_ROBIN_COUNTS = {  # written into every round-robin report: its two "games" count different things
    "per_agent.games": "seat-games: one per seat the agent played (with fewer agents than seats an agent sits in "
                       "several seats of a game, so these add up to games x players)",
    "elo.games": "games: one per game the agent sat in, however many of its seats",
}


def play_to_orders(game: Game, agents: dict[str, Any], turn: int) -> bool:
    """Play ``game`` with ``agents`` up to the start of the orders step of ``turn``; False when it ended first."""
    for _ in range(MAX_ADVANCES):
        if game.over or (game.state.turn >= turn and game.step == ORDERS):
            break
        play_turn_step(game, agents)
    return not game.over


def record_positions(count: int, turn: int = 2, players: int = 5, recorder: str = "heuristic", board=None,
                     version: str = "normal", island: bool = False, factions: bool = False, teams: int = 0,
                     seed: int = 0, progress: bool = True, max_tries: int | None = None) -> list[tuple[int, Game]]:
    """(seed, game) at the start of the orders step of ``turn`` in recorder-played games (games over
    before then are skipped)."""
    if count < 1 or turn < 1:
        raise ValidationError("positions", f"need at least one position and a turn from 1, not {count} "
                                           f"position(s) at turn {turn}")
    kw = _setup_kwargs(players, board, version, island, factions, teams)
    out: list[tuple[int, Game]] = []
    tries = 0
    bar = tqdm(total=count, desc=f"recording {recorder} positions", disable=not progress)
    while len(out) < count and tries < (max_tries or 20 * count):
        game_seed = seed + tries
        tries += 1
        game = Game(make_setup(seed=game_seed, **kw))
        agents = {s: make_agent(recorder, game_seed * 100 + i) for i, s in enumerate(game.state.players)}
        if play_to_orders(game, agents, turn):
            out.append((game_seed, game.clone()))
            bar.update(1)
    bar.close()
    return out


def why_better(agent: dict[str, Any], baseline: dict[str, Any]) -> str:
    """How a seat's result beat the baseline's (both ``seat_outcome``s, the agent's score higher):
    ``won``; ``dragon_stopped`` (the baseline's game ended in a Dragon victory, the agent's did not);
    ``vp_share`` (neither won nor lost to the Dragon: a larger share of the VPs at the end)."""
    if agent["win"]:
        return "won"
    if baseline["how"] == "dragon" and agent["how"] != "dragon":
        return "dragon_stopped"
    return "vp_share"


def takeover(agent: str, baseline: str = "caretaker", positions: int = 20, turn: int = 2, players: int = 5,
             recorder: str = "heuristic", seed: int = 0, progress: bool = True,
             recorded: list[tuple[int, Game]] | None = None, **setup) -> dict[str, Any]:
    """Hand one seat of each recorded position to ``agent`` and to ``baseline``; compare pairwise.
    ``recorded``: positions already recorded with these arguments (``record_positions``), so several
    agents can be measured on them without recording again."""
    if recorded is None:
        recorded = record_positions(positions, turn, players, recorder, seed=seed, progress=progress, **setup)
    if not recorded:
        raise ValidationError("positions", f"no game of {recorder} lasted to turn {turn}")
    cache = AgentCache()
    pairs = []
    for k, (game_seed, pos) in enumerate(tqdm(recorded, desc=f"takeover {agent} vs {baseline}",
                                              disable=not progress)):
        seat = seat_of(k, [s for s in pos.state.players if not pos.state.players[s].eliminated])
        row = {"seed": game_seed, "seat": seat, "turn": pos.state.turn}
        for role, who in (("agent", agent), ("baseline", baseline)):
            game = pos.clone()  # the same position, engine random state included
            agents = {s: make_agent(recorder, game_seed * 100 + i) for i, s in enumerate(game.state.players)}
            agents[seat] = cache.get(who, game_seed * 100 + 99)
            finish(game, agents)
            row[role] = seat_outcome(game, seat)
        pairs.append(row)
    diff = {m: [float(r["agent"][m]) - float(r["baseline"][m]) for r in pairs] for m in ("score", "vp_share", "win")}
    better_how = Counter(why_better(r["agent"], r["baseline"]) for r in pairs
                         if r["agent"]["score"] > r["baseline"]["score"])
    out = {"mode": "takeover", "agent": agent, "baseline": baseline, "recorder": recorder, "turn": turn,
           "players": players, "seed": seed, "positions": len(pairs),
           "agent_summary": summarize([r["agent"] for r in pairs]),
           "baseline_summary": summarize([r["baseline"] for r in pairs]),
           "better": sum(d > 0 for d in diff["score"]), "worse": sum(d < 0 for d in diff["score"]),
           "same": sum(d == 0 for d in diff["score"]), "better_how": dict(better_how),
           "baseline_eliminated": sum(r["baseline"]["eliminated"] for r in pairs),
           # the same pairs by finishing order (score, then who was eliminated later): a softer reading
           # of "beats", reported beside the score comparison above, not instead of it
           "standing_better": sum(standing_key(r["agent"]) > standing_key(r["baseline"]) for r in pairs),
           "standing_worse": sum(standing_key(r["agent"]) < standing_key(r["baseline"]) for r in pairs),
           "detail": pairs}
    for m, d in diff.items():
        out[f"diff_{m}"] = mean(d)
        out[f"diff_{m}_ci"] = list(bootstrap_mean(d))
    return out


# -- saving --------------------------------------------------------------------------------------
def save_json(report: dict[str, Any], path: str | Path) -> Path:
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(report, indent=2, default=str))
    return p


def plot_label(spec: str, width: int = 22, shorten: bool = True) -> str:
    """A tick label that fits under a bar: ``policy:<dir>/<file>.zip@T`` becomes ``<dir>/<file>@T`` (the full
    spec is in the JSON report; ``shorten=False`` keeps it whole), wrapped at ``width`` characters, after a
    ``/`` where it can."""
    import textwrap

    if shorten and spec.startswith("policy:"):
        parts = []
        for one in spec.split(":", 1)[1].split("+"):  # an ensemble: a+b+c
            path, _, temp = one.partition("@")
            p = Path(path)
            parts.append(f"{p.parent.name}/{p.stem}" if p.parent.name else p.stem)
        spec = "+".join(parts) + (f"@{temp}" if temp else "")
    lines: list[str] = []
    for piece in [x + "/" for x in spec.split("/")[:-1]] + [spec.split("/")[-1]]:
        if lines and len(lines[-1]) + len(piece) <= width:
            lines[-1] += piece
        else:
            lines += textwrap.wrap(piece, width, break_on_hyphens=False) or [piece]
    return "\n".join(lines)


def save_plot(report: dict[str, Any], path: str | Path) -> Path:
    """A PNG: win rate (Wilson 95%) and VP share (bootstrap 95%) per agent, or takeover differences."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    if report["mode"] == "takeover":
        names = ["agent", "baseline"]
        rows = [report["agent_summary"], report["baseline_summary"]]
        title = f"Takeover at turn {report['turn']}: {report['agent']} vs {report['baseline']}"
        labels = [report["agent"], report["baseline"]]
    elif report["mode"] == "round_robin":
        names = list(report["per_agent"])
        rows = [report["per_agent"][n] for n in names]
        title, labels = "Round robin", names
    else:
        rows, labels = [report], [report["agent"]]
        title = f"{report['agent']} vs field {'/'.join(report['field'])}"
    ticks = [plot_label(x) for x in labels]
    if len(set(ticks)) < len(ticks):  # two specs shortened alike: the whole specs, wrapped
        ticks = [plot_label(x, 30, shorten=False) for x in labels]
    fig, axes = plt.subplots(1, 3, figsize=(12, 4.5))
    for ax, key, name in zip(axes, ("win_rate", "vp_share", "score"), ("win rate", "VP share", "score"),
                             strict=True):
        vals = [r[key] for r in rows]
        ci = [r["win_ci" if key == "win_rate" else f"{key}_ci"] for r in rows]
        err = [[max(0.0, v - c[0]) for v, c in zip(vals, ci, strict=True)],
               [max(0.0, c[1] - v) for v, c in zip(vals, ci, strict=True)]]
        ax.bar(range(len(vals)), vals, yerr=err, capsize=4, color="#4477aa")
        ax.set_xticks(range(len(vals)), ticks, rotation=20, ha="right", fontsize=8)
        ax.set_title(f"{name} (95% CI)")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(p, dpi=100)
    plt.close(fig)
    return p
