"""Behaviour cloning from the heuristic: the warm start of ``protectors-ppo-v2`` (docs/training.md).

1. ``collect``: seeded games in which every recorded seat is an ``ExpertRecorder``. At each of its
   decisions the recorder asks the heuristic for its whole ``Decision``, then walks the seat's
   ``agents.spaces.planner`` planner exactly as the env (and ``agents.policy``) does, taking at each masked
   choice the action consistent with that decision (``training.expert.expert_action``), and records
   (observation, mask, action). The observation is built as in ``agents.policy.PolicyAgent.act``
   (``encode_board`` once per decision, ``encode_choice`` per choice), which is what the seat env
   gives a learner. The planner's finished decision is what the seat submits, so games follow what
   the policy can express. With ``actor`` set (DAgger), the actor's choices are applied instead and
   the expert's are still the labels.
2. ``fit``: masked cross-entropy of the MaskablePPO policy head on the expert actions (a few epochs,
   Adam), plus a regression of the value head on the seat's return from that point (terminal reward
   + the VP shaping still to come, as the env pays them), so PPO fine-tuning starts from a critic that
   knows roughly what a position is worth. Reports accuracy on held-out games.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from tqdm import tqdm

from agents.reward import terminal_reward
from agents.spaces.encoding import BOARD_SIZE, OBS_SIZE, encode_board, encode_choice
from agents.spaces.planner import make_planner
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.victory import victory_points
from envs.opponents import make_setup
from training.config import Scenario, TrainConfig
from training.expert import expert_action


def _lines(decision) -> list[str]:
    """The decision as sorted DM lines (units bought in several Provinces in Province order)."""
    if hasattr(decision, "buys"):
        decision = dataclasses.replace(decision, buys=tuple(sorted(decision.buys)))
    return sorted(line.text() for line in decision.lines())


@dataclass
class Buffer:
    """Recorded choices; ``game`` and ``seat`` group them into trajectories for the returns."""

    obs: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    vps: list[int] = field(default_factory=list)
    keys: list[tuple[int, str]] = field(default_factory=list)
    decisions: int = 0
    exact: int = 0  # decisions the planner rebuilt line for line

    def arrays(self, returns: list[float]) -> dict[str, np.ndarray]:
        """The recorded arrays (``returns``: one value target per sample): ``obs`` (float16), ``masks``
        (packed bits), ``actions``, ``returns``, ``game`` (game index, for held-out splits); plus match counts."""
        n = len(self.actions)
        return {"obs": np.stack(self.obs) if n else np.zeros((0, 0), np.float16),
                "masks": np.stack(self.masks) if n else np.zeros((0, 0), np.uint8),
                "actions": np.asarray(self.actions, dtype=np.int64), "returns": np.asarray(returns, dtype=np.float32),
                "game": np.asarray([k[0] for k in self.keys], dtype=np.int64),
                "decisions": np.asarray(self.decisions), "exact": np.asarray(self.exact)}

    def add(self, obs, mask, action, vp, key) -> None:
        self.obs.append(obs.astype(np.float16))
        self.masks.append(np.packbits(mask))
        self.actions.append(int(action))
        self.vps.append(int(vp))
        self.keys.append(key)


class ExpertRecorder:
    """A seat agent that plays (and records) the expert's decisions through the planner."""

    name = "expert"

    def __init__(self, expert, buffer: Buffer, game_id: int, actor=None, seed: int | None = None):
        self.expert = expert
        self.buffer = buffer
        self.game_id = game_id
        self.actor = actor
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        self.expert.reset(seed)
        if self.actor is not None:
            self.actor.reset(seed)
        self.rng = random.Random(seed)

    def act(self, ctx: SeatContext):
        decision = self.expert.act(ctx)
        state = ctx._game.state  # as agents.policy: the planner reads only the seat's own enumeration
        planner = make_planner(state, ctx.seat)
        obs = np.zeros(OBS_SIZE, dtype=np.float32)
        obs[:BOARD_SIZE] = encode_board(state, ctx.seat)
        vp = victory_points(state, ctx.seat)
        planner.skip_forced()
        while not planner.finished:
            encode_choice(planner, obs[BOARD_SIZE:])
            mask = planner.mask()
            label = expert_action(planner, decision)
            if label is not None:
                self.buffer.add(obs, mask, label, vp, (self.game_id, ctx.seat))
                chosen = label if self.actor is None else self.actor.choose(obs, mask)
            else:  # the expert leaves this choice to chance: pick at random, learn nothing from it
                chosen = self.rng.choice(list(np.flatnonzero(mask)))
            planner.apply(int(chosen))
            planner.skip_forced()
        built = planner.decision()
        self.buffer.decisions += 1
        self.buffer.exact += _lines(built) == _lines(decision)
        return built


def play_one(game_id: int, seed: int, scenario: Scenario, buffer: Buffer, others: dict[str, float],
             record_share: float, actor=None, shaping: float = 1.0, gamma: float = 0.998,
             expert: dict[str, Any] | None = None, teacher: str | None = None) -> dict[str, Any]:
    """One game: each seat is recorded with probability ``record_share`` (at least one is), the rest drawn
    from ``others`` (agent spec -> weight). The recorded seats' decisions are ``teacher``'s (an agent
    spec, e.g. ``search``) or, without one, the heuristic's with the ``expert`` knobs. Returns the
    outcome and fills ``buffer``; the value targets of this game's samples are returned as a list
    aligned with what was added."""
    from agents.heuristic import HeuristicAgent
    from agents.registry import make_agent
    from agents.runner import finish

    rng = random.Random(seed)
    game = Game(make_setup(scenario.board or None, scenario.players, seed, scenario.version, scenario.factions,
                           scenario.island, scenario.teams))
    seats = list(game.state.players)
    rec = {s for s in seats if rng.random() < record_share} or {rng.choice(seats)}
    specs, weights = list(others), list(others.values())
    agents: dict[str, Any] = {}
    for i, s in enumerate(seats):
        if s in rec:
            teach = make_agent(teacher, seed * 100 + i) if teacher else HeuristicAgent(**(expert or {}))
            agents[s] = ExpertRecorder(teach, buffer, game_id, actor=actor)
        else:
            spec = rng.choices(specs, weights=weights)[0]
            agents[s] = make_agent(spec, seed * 100 + i)
            if getattr(agents[s], "name", "") == "caretaker":
                del agents[s]  # the rulebook default, applied by advance(force=True)
                continue
        agents[s].reset(seed * 100 + i)
    start = len(buffer.actions)
    finish(game, agents)
    returns = seat_returns(game, buffer, start, rec, shaping, gamma)
    return {"result": game.result, "recorded": sorted(rec), "returns": returns}


def seat_returns(game: Game, buffer: Buffer, start: int, rec: set[str], shaping: float = 1.0,
                 gamma: float = 0.998) -> list[float]:
    """The value targets of the samples ``buffer`` gained from ``start`` on in the finished ``game``: each
    recorded seat's terminal reward, discounted by its choices still to come, plus the VP shaping still
    to come (as the env pays them)."""
    st = game.state
    returns = []
    keys = buffer.keys[start:]
    left = {s: sum(1 for k in keys if k[1] == s) for s in rec}
    final = {s: victory_points(st, s) for s in rec}
    for k, vp in zip(keys, buffer.vps[start:], strict=True):
        s = k[1]
        left[s] -= 1
        outcome = terminal_reward(game.result, s, st.team_of(s))
        returns.append(outcome * gamma ** left[s] + shaping * (final[s] - vp) / 10)
    return returns


def collect(games: int, seed: int = 0, scenarios: list[Scenario] | None = None,
            others: dict[str, float] | None = None, record_share: float = 1.0, actor=None,
            shaping: float = 1.0, progress: bool = True, expert: dict[str, Any] | None = None,
            teacher: str | None = None) -> dict[str, np.ndarray]:
    """Play ``games`` seeded games and return the recorded arrays: ``obs`` (float16), ``masks`` (packed
    bits), ``actions``, ``returns``, ``game`` (game index, for held-out splits); plus match counts."""
    scenarios = scenarios or [Scenario()]
    others = others or {"heuristic": 1.0}
    buf = Buffer()
    returns: list[float] = []
    rng = random.Random(seed)
    for g in tqdm(range(games), desc="imitation games", disable=not progress):
        sc = rng.choices(scenarios, weights=[s.weight for s in scenarios])[0]
        out = play_one(g, seed * 1_000_003 + g, sc, buf, others, record_share, actor, shaping, expert=expert,
                       teacher=teacher)
        returns.extend(out["returns"])
    return buf.arrays(returns)


def merge(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Concatenate collections (game indices are offset so they stay distinct)."""
    out: dict[str, Any] = {}
    offset = 0
    games = []
    for p in parts:
        games.append(p["game"] + offset)
        offset += int(p["game"].max()) + 1 if len(p["game"]) else 0
    for k in ("obs", "masks", "actions", "returns"):
        out[k] = np.concatenate([p[k] for p in parts if len(p[k])])
    out["game"] = np.concatenate(games)
    out["decisions"] = np.asarray(sum(int(p["decisions"]) for p in parts))
    out["exact"] = np.asarray(sum(int(p["exact"]) for p in parts))
    return out


def unpack_masks(masks: np.ndarray, n_actions: int) -> np.ndarray:
    return np.unpackbits(masks, axis=1)[:, :n_actions].astype(bool)


def split(data: dict[str, np.ndarray], held_out: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Sample indices of training and held-out games (whole games, so held-out states are unseen). A game
    is held out by a hash of its index and ``seed``, so it stays held out when more data is merged in."""
    if held_out <= 0:
        return np.arange(len(data["game"])), np.array([], dtype=np.int64)
    h = (data["game"].astype(np.uint64) * np.uint64(2654435761) + np.uint64(seed * 97 + 13)) % np.uint64(10_007)
    test = h < np.uint64(int(held_out * 10_007))
    return np.flatnonzero(~test), np.flatnonzero(test)


def accuracy(policy, data: dict[str, np.ndarray], idx: np.ndarray, batch: int = 4096) -> float:
    """Share of samples where the policy's most likely legal action is the expert's."""
    import torch

    if len(idx) == 0:
        return float("nan")
    hits = 0
    n_actions = policy.action_space.n
    with torch.no_grad():
        for i in range(0, len(idx), batch):
            j = idx[i:i + batch]
            obs = torch.as_tensor(data["obs"][j].astype(np.float32))
            masks = unpack_masks(data["masks"][j], n_actions)
            dist = policy.get_distribution(obs)
            logits = dist.distribution.logits.cpu().numpy()
            logits[~masks] = -np.inf
            hits += int((logits.argmax(1) == data["actions"][j]).sum())
    return hits / len(idx)


def fit(model, data: dict[str, np.ndarray], epochs: int = 5, batch_size: int = 512, learning_rate: float = 1e-3,
        value_coef: float = 0.5, held_out: float = 0.1, seed: int = 0, progress: bool = True) -> dict[str, Any]:
    """Fit ``model.policy`` (a MaskablePPO policy) to the expert actions; returns accuracies and losses."""
    import torch

    policy = model.policy
    policy.set_training_mode(True)
    n_actions = policy.action_space.n
    train_idx, test_idx = split(data, held_out, seed)
    opt = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    rng = np.random.default_rng(seed)
    history = []
    for ep in range(epochs):
        perm = rng.permutation(train_idx)
        tot_pi = tot_v = 0.0
        nb = 0
        for i in tqdm(range(0, len(perm), batch_size), desc=f"imitation epoch {ep + 1}/{epochs}",
                      disable=not progress, leave=False):
            j = np.sort(perm[i:i + batch_size])
            obs = torch.as_tensor(data["obs"][j].astype(np.float32))
            masks = unpack_masks(data["masks"][j], n_actions)
            acts = torch.as_tensor(data["actions"][j])
            values, log_prob, _ = policy.evaluate_actions(obs, acts, action_masks=masks)
            loss_pi = -log_prob.mean()
            loss_v = torch.nn.functional.mse_loss(values.flatten(), torch.as_tensor(data["returns"][j]))
            loss = loss_pi + value_coef * loss_v
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), 1.0)
            opt.step()
            tot_pi += float(loss_pi.detach())
            tot_v += float(loss_v.detach())
            nb += 1
        history.append({"epoch": ep + 1, "loss_pi": tot_pi / max(1, nb), "loss_v": tot_v / max(1, nb)})
    policy.set_training_mode(False)
    return {"samples": len(data["actions"]), "train_samples": len(train_idx),
            "held_out_samples": len(test_idx), "train_accuracy": accuracy(policy, data, train_idx[:50_000]),
            "held_out_accuracy": accuracy(policy, data, test_idx), "epochs": history,
            "decisions": int(data["decisions"]), "decisions_rebuilt_exactly": int(data["exact"])}


def scenario_mix(cfg: TrainConfig) -> list[Scenario]:
    """Every scenario of the curriculum, weighted by its share of its stage times the stage's share of
    training (so the recorded games look like the games PPO will play)."""
    out = []
    starts = [st.start for st in cfg.curriculum] + [1.0]
    for i, st in enumerate(cfg.curriculum):
        total = sum(sc.weight for sc in st.scenarios)
        for sc in st.scenarios:
            out.append(Scenario(**{**sc.__dict__, "weight": sc.weight / total * (starts[i + 1] - starts[i])}))
    return out


def warm_start(model, cfg: TrainConfig, run_dir) -> dict[str, Any]:
    """Record ``cfg.imitation.games`` heuristic games, fit ``model``'s policy and value heads, then the
    DAgger rounds; saves ``imitation/model.zip`` and ``imitation/report.json`` under ``run_dir``."""
    import json
    import time
    from pathlib import Path

    from agents.policy import PolicyAgent

    im = cfg.imitation
    t0 = time.time()
    scenarios = scenario_mix(cfg)
    shaping = float(cfg.env_options.get("reward_shaping", 0.0))
    kw = {"scenarios": scenarios, "others": im.opponents, "record_share": im.record_share, "shaping": shaping,
          "progress": cfg.progress, "expert": im.expert}
    data = collect(im.games, seed=cfg.seed, **kw)
    fit_kw = {"batch_size": im.batch_size, "learning_rate": im.learning_rate, "value_coef": im.value_coef,
              "held_out": im.held_out, "seed": cfg.seed, "progress": cfg.progress}
    rounds = [fit(model, data, epochs=im.epochs, **fit_kw)]
    for r in range(im.dagger_rounds):
        actor = PolicyAgent(model, seed=cfg.seed + r, temperature=im.dagger_temperature)
        more = collect(im.dagger_games, seed=cfg.seed * 7919 + r + 1, actor=actor, **kw)
        data = merge([data, more])
        rounds.append(fit(model, data, epochs=max(1, im.epochs // 2), **fit_kw))
    out = Path(run_dir) / "imitation"
    out.mkdir(parents=True, exist_ok=True)
    model.save(out / "model.zip")
    report = {"rounds": rounds, "seconds": round(time.time() - t0, 1), "games": im.games, "expert": im.expert,
              "dagger_rounds": im.dagger_rounds, "dagger_games": im.dagger_games,
              "held_out_accuracy": rounds[-1]["held_out_accuracy"], "samples": rounds[-1]["samples"]}
    (out / "report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return report
