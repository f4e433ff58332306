"""Training configuration: one dataclass per concern, a docstring under every field, loaded from TOML.

The checked-in files under ``training/configs/`` are the source of truth for every shipped policy;
``load_config(path, **overrides)`` reads one and applies command-line overrides (``--steps``).
Unknown keys are an error naming the key, so a typo never silently falls back to a default.
"""

from __future__ import annotations

import dataclasses
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import ValidationError


@dataclass
class Scenario:
    """One kind of game the learner plays: board, player count and options (passed to the env)."""

    board: str = ""
    """board name (``ring-N``, ``ring-N-grand``, ``+island``) or a custom one; "" = the ring for ``players``"""
    players: int = 5
    """number of seats, 2..16"""
    version: str = "normal"
    """rules version: ``normal`` or ``grand`` (Grand boards have twice the Provinces)"""
    factions: bool = False
    """play with factions"""
    island: bool = False
    """add the Island (P0) to the built-in ring"""
    teams: int = 0
    """team size (0 = no teams; 2 = teams of two ...); must split ``players`` into 2+ teams"""
    weight: float = 1.0
    """relative probability of this scenario within its curriculum stage"""

    def env_kwargs(self) -> dict[str, Any]:
        """The keyword arguments for ``ProtectorsSeatEnv`` describing this scenario."""
        return {"board": self.board or None, "players": self.players, "version": self.version,
                "factions": self.factions, "island": self.island, "teams": self.teams}


@dataclass
class Stage:
    """A curriculum stage: from ``start`` (fraction of total steps) on, scenarios are drawn from here."""

    start: float = 0.0
    """fraction of ``total_timesteps`` at which this stage begins (the first stage must start at 0)"""
    scenarios: list[Scenario] = field(default_factory=lambda: [Scenario()])
    """the scenarios of this stage, drawn with their ``weight``"""


@dataclass
class LeagueConfig:
    """The self-play league: who sits in the other seats, and when a snapshot of the learner joins."""

    caretaker_weight: float = 0.4
    """probability mass of the rulebook-default caretaker in each opponent seat"""
    heuristic_weight: float = 0.4
    """probability mass of the hand-written heuristic player"""
    random_weight: float = 0.0
    """probability mass of the uniform-random player"""
    snapshot_weight: float = 0.2
    """probability mass shared by the frozen snapshots of the learner (0 while the pool has none)"""
    recent_bias: float = 2.0
    """snapshot i of k (oldest first) is drawn with weight ``recent_bias ** i``: newer ones more often"""
    max_snapshots: int = 4
    """pool size; the oldest snapshot leaves when a new one joins a full pool"""
    check_every: int = 50_000
    """learner steps between league checks (a check saves a candidate and measures it)"""
    check_games: int = 40
    """games per league check (seats rotated, seeds shared between candidate and incumbent)"""
    join_margin: float = 0.05
    """a candidate joins when its score beats the incumbent's on the same games by this margin"""
    enabled: bool = True
    """turn the league off to train against the fixed opponent mix only"""


@dataclass
class ImitationConfig:
    """Behaviour cloning from the heuristic before PPO (``training.imitation``; off while ``games`` is 0)."""

    games: int = 0
    """games recorded for the warm start (0: no imitation, PPO from scratch)"""
    expert: dict[str, Any] = field(default_factory=dict)
    """keyword arguments of the ``agents.heuristic.HeuristicAgent`` that is cloned (its knobs; {} = defaults)"""
    opponents: dict[str, float] = field(default_factory=lambda: {"heuristic": 0.8, "random": 0.1, "caretaker": 0.1})
    """agent spec -> weight for the seats not recorded"""
    record_share: float = 0.8
    """probability that a seat is recorded (played by the heuristic through the planner)"""
    epochs: int = 10
    """passes over the recorded choices"""
    batch_size: int = 512
    """minibatch size of the cross-entropy fit"""
    learning_rate: float = 1e-3
    """Adam learning rate of the fit"""
    value_coef: float = 0.5
    """weight of the value head's regression on the recorded returns"""
    held_out: float = 0.1
    """share of recorded games kept out of the fit to measure accuracy"""
    dagger_rounds: int = 0
    """rounds of DAgger after the first fit: the cloned policy plays, the heuristic labels, refit on all"""
    dagger_games: int = 0
    """games per DAgger round"""
    dagger_temperature: float = 0.5
    """sampling temperature of the cloned policy while it plays the DAgger games"""


@dataclass
class TakeoverConfig:
    """Mid-game starts in training (``envs.midgame``, issue 19): some episodes begin at a position recorded
    on the fly, the learner taking over a live seat, as a GM hands Regent a seat mid-game."""

    prob: float = 0.0
    """probability that an episode starts mid-game (0: off, every episode from turn 1)"""
    turns: list[int] = field(default_factory=lambda: [2, 8])
    """[first, last] turn of the takeover: the orders step of a turn drawn uniformly (the last one reached
    when the recorded game ends sooner)"""
    recorders: dict[str, float] = field(default_factory=lambda: {"heuristic": 0.6, "random": 0.2, "caretaker": 0.2})
    """agent spec -> weight of who plays the seats before the takeover"""
    mixed: float = 0.3
    """probability that each seat draws its own recorder (otherwise one draw plays every seat)"""
    bad_seat: float = 0.2
    """probability that the learner's seat was played badly before the takeover (by a ``bad_agents`` draw)"""
    bad_agents: dict[str, float] = field(default_factory=lambda: {"random": 0.5, "caretaker": 0.5})
    """agent spec -> weight of who played the learner's seat badly"""

    def env_kwargs(self) -> dict[str, Any] | None:
        """The seat env's ``midgame`` option (None when off)."""
        if not self.prob:
            return None
        return {"prob": self.prob, "turns": tuple(self.turns), "recorders": dict(self.recorders),
                "mixed": self.mixed, "bad_seat": self.bad_seat, "bad_agents": dict(self.bad_agents)}


@dataclass
class TrainConfig:
    """Everything one training run needs; ``main(config)`` in ``training.train`` runs it."""

    exp_name: str = "protectors-ppo"
    """name of the experiment (part of the run name under ``runs/``)"""
    seed: int = 1
    """seed of python, numpy, torch, the envs and the league"""
    env_id: str = "regent/Protectors-v0"
    """Gymnasium id of the seat env"""
    total_timesteps: int = 200_000
    """learner decisions (env steps) to train for, summed over all envs"""
    n_envs: int = 2
    """parallel envs: SubprocVecEnv when > 1, DummyVecEnv when 1"""
    torch_threads: int = 1
    """torch intra-op threads in the learner (2 cores: one per env worker is the better use)"""
    learning_rate: float = 3e-4
    """Adam learning rate"""
    n_steps: int = 512
    """rollout length per env between updates"""
    batch_size: int = 256
    """minibatch size"""
    n_epochs: int = 4
    """optimisation epochs per rollout"""
    gamma: float = 0.998
    """discount (a game is a few hundred small choices; the reward comes at the end)"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_range: float = 0.2
    """PPO clip range"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """value loss weight"""
    max_grad_norm: float = 0.5
    """gradient clipping"""
    net_arch: list[int] = field(default_factory=lambda: [128, 128])
    """hidden layers of the (separate) policy and value MLPs"""
    env_options: dict[str, Any] = field(default_factory=dict)
    """extra keyword arguments for the seat env (e.g. ``silent_turn_prob``, ``reward_shaping``, ``strong_opening``)"""
    curriculum: list[Stage] = field(default_factory=lambda: [Stage()])
    """stages over board size and options; the active stage is chosen by the fraction of steps done"""
    league: LeagueConfig = field(default_factory=LeagueConfig)
    """opponents and the snapshot league"""
    imitation: ImitationConfig = field(default_factory=ImitationConfig)
    """behaviour-cloning warm start from the heuristic (off by default)"""
    takeover: TakeoverConfig = field(default_factory=TakeoverConfig)
    """mid-game starts in training (off by default: ``prob = 0``)"""
    target_kl: float = 0.0
    """stop a PPO update early when the approximate KL exceeds this (0: off); keeps a warm start intact"""
    eval_scenario: Scenario = field(default_factory=Scenario)
    """the game of the periodic evaluation and the league checks (default: the 5-player ring)"""
    eval_opponents: list[str] = field(default_factory=lambda: ["heuristic"])
    """opponent specs of the periodic evaluation (drawn per seat)"""
    eval_freq: int = 20_000
    """learner steps between MaskableEvalCallback runs (0: off)"""
    eval_episodes: int = 20
    """games per periodic evaluation (``eval_opponents`` on ``eval_scenario``)"""
    checkpoint_freq: int = 50_000
    """learner steps between resumable checkpoints written under the run directory (0: off)"""
    runs_dir: str = "runs"
    """where run directories (TensorBoard/CSV logs, checkpoints) go; git-ignored"""
    save_dir: str = ""
    """if set, the final ``model.zip`` and ``config.toml`` are also written here (e.g. ``checkpoints/X``)"""
    progress: bool = True
    """show a tqdm progress bar"""
    vec_env: str = "auto"
    """``auto`` (subproc when n_envs > 1), ``subproc`` or ``dummy``"""
    init_from: str = ""
    """a trained ``model.zip`` (e.g. ``checkpoints/protectors-ppo-v4/model.zip``) whose network (and Adam
    state) this run starts from instead of a fresh or behaviour-cloned one: a new run with this config's
    hyperparameters, curriculum and league, counting its steps from 0 (no warm start); "" = off"""


def _build(cls: type, data: dict[str, Any], where: str) -> Any:
    """Build dataclass ``cls`` from a TOML table, recursing into nested config types."""
    if not isinstance(data, dict):
        raise ValidationError("config", f"{where}: expected a table, got {type(data).__name__}")
    names = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise ValidationError("config", f"{where}: unknown key(s) {', '.join(unknown)}; known: {', '.join(names)}")
    kwargs: dict[str, Any] = {}
    hints = typing.get_type_hints(cls)
    for key, value in data.items():
        if not _fits(value, hints[key]):
            raise ValidationError("config", f"{where}: {key} must be {_describe(hints[key])}, not {value!r}")
        if cls is TrainConfig and key == "league":
            value = _build(LeagueConfig, value, f"{where}.league")
        elif cls is TrainConfig and key == "imitation":
            value = _build(ImitationConfig, value, f"{where}.imitation")
        elif cls is TrainConfig and key == "takeover":
            value = _build(TakeoverConfig, value, f"{where}.takeover")
        elif cls is TrainConfig and key == "curriculum":
            value = [_build(Stage, s, f"{where}.curriculum[{i}]") for i, s in enumerate(value)]
        elif cls is TrainConfig and key == "eval_scenario":
            value = _build(Scenario, value, f"{where}.eval_scenario")
        elif cls is Stage and key == "scenarios":
            value = [_build(Scenario, s, f"{where}.scenarios[{i}]") for i, s in enumerate(value)]
        kwargs[key] = value
    return cls(**kwargs)


def _fits(value: Any, hint: Any) -> bool:
    """Whether a TOML value has a field's type (an int is a float too; a bool is neither; a nested
    config is a table, checked key by key when it is built)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is str:
        return isinstance(value, str)
    if origin is list:
        return isinstance(value, list) and all(_fits(v, args[0]) for v in value)
    if origin is dict:
        return isinstance(value, dict) and all(_fits(v, args[1]) for v in value.values())
    if dataclasses.is_dataclass(hint):
        return isinstance(value, dict | hint)
    return True


def _describe(hint: Any) -> str:
    """A field's type in a config's words."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    names = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}
    if hint in names:
        return names[hint]
    if origin is list:
        return f"a list of {_describe(args[0]).removeprefix('a ').removeprefix('an ')}s"
    if origin is dict:
        return "a table" + ("" if args[1] is Any else f" of {_describe(args[1]).removeprefix('a ')}s")
    return "a table"


def validate(cfg: TrainConfig) -> TrainConfig:
    """Check the values that would otherwise fail deep inside SB3 or a subprocess."""
    if cfg.n_envs < 1:
        raise ValidationError("config", f"n_envs must be >= 1, got {cfg.n_envs}")
    if not 0 <= cfg.seed < 2**32:  # numpy's seed range; anything else failed after the run folder was made
        raise ValidationError("config", f"seed must be 0..{2**32 - 1}, got {cfg.seed}")
    if cfg.total_timesteps < 1:
        raise ValidationError("config", f"total_timesteps must be >= 1, got {cfg.total_timesteps}")
    _check_ppo_ranges(cfg)
    if cfg.vec_env not in ("auto", "subproc", "dummy"):
        raise ValidationError("config", f"vec_env must be auto, subproc or dummy, got {cfg.vec_env!r}")
    if not cfg.curriculum or cfg.curriculum[0].start != 0.0:
        raise ValidationError("config", "the curriculum needs a first stage with start = 0.0")
    starts = [s.start for s in cfg.curriculum]
    if starts != sorted(starts) or starts[-1] >= 1.0:
        raise ValidationError("config", f"curriculum starts must increase and stay below 1.0, got {starts}")
    for i, stage in enumerate(cfg.curriculum):
        if not stage.scenarios:
            raise ValidationError("config", f"curriculum[{i}] has no scenarios")
        for sc in stage.scenarios:
            if not 2 <= sc.players <= 16:
                raise ValidationError("config", f"curriculum[{i}]: players must be 2..16, got {sc.players}")
            if sc.weight <= 0:
                raise ValidationError("config", f"curriculum[{i}]: scenario weight must be > 0")
    _check_scenarios(cfg)
    lg = cfg.league
    weights = (lg.caretaker_weight, lg.heuristic_weight, lg.random_weight, lg.snapshot_weight)
    if min(weights) < 0 or sum(weights) <= 0:
        raise ValidationError("config", f"league weights must be >= 0 with a positive sum, got {weights}")
    im = cfg.imitation
    if im.games < 0 or im.epochs < 0 or im.dagger_rounds < 0 or im.dagger_games < 0:
        raise ValidationError("config", "imitation games, epochs and dagger counts must be >= 0")
    if not 0.0 < im.record_share <= 1.0 or not 0.0 <= im.held_out < 1.0:
        raise ValidationError("config", "imitation.record_share must be in (0, 1] and held_out in [0, 1)")
    if im.games and (not im.opponents or min(im.opponents.values()) < 0 or sum(im.opponents.values()) <= 0):
        raise ValidationError("config", f"imitation.opponents needs weights >= 0 with a positive sum, "
                                        f"got {im.opponents}")
    if im.expert:
        import inspect

        from agents.heuristic import HeuristicAgent

        known = set(inspect.signature(HeuristicAgent).parameters) - {"seed"}
        bad = sorted(set(im.expert) - known)
        if bad:
            raise ValidationError("config", f"imitation.expert: unknown heuristic knob(s) {', '.join(bad)}; "
                                            f"known: {', '.join(sorted(known))}")
    _check_env_options(cfg)
    if cfg.takeover.prob:
        from envs.midgame import MidGameStarts

        try:
            MidGameStarts.of(cfg.takeover.env_kwargs())
        except ValidationError as err:
            raise ValidationError("config", f"takeover: {err}") from None
    if cfg.target_kl < 0:
        raise ValidationError("config", f"target_kl must be >= 0 (0: off), got {cfg.target_kl}")
    if lg.max_snapshots < 1:
        raise ValidationError("config", "league.max_snapshots must be >= 1")
    return cfg


def _check_ppo_ranges(cfg: TrainConfig) -> None:
    """Values SB3 would take and then fail on mid-run (n_steps = 0: 'internal error (UnboundLocalError)';
    batch_size = 1: NaN logits after the first rollout) or that leave a run measuring nothing."""
    lg = cfg.league
    bad = [
        (cfg.n_steps < 1 or cfg.n_steps * cfg.n_envs < 2, f"n_steps must be >= 1 with n_steps x n_envs >= 2, "
                                                          f"got {cfg.n_steps} x {cfg.n_envs}"),
        (cfg.batch_size < 2, f"batch_size must be >= 2 (advantages are normalised per batch), got {cfg.batch_size}"),
        (cfg.n_epochs < 1, f"n_epochs must be >= 1, got {cfg.n_epochs}"),
        (cfg.torch_threads < 1, f"torch_threads must be >= 1, got {cfg.torch_threads}"),
        (cfg.learning_rate <= 0, f"learning_rate must be > 0, got {cfg.learning_rate}"),
        (not 0 < cfg.gamma <= 1, f"gamma must be in (0, 1], got {cfg.gamma}"),
        (not 0 <= cfg.gae_lambda <= 1, f"gae_lambda must be in [0, 1], got {cfg.gae_lambda}"),
        (cfg.clip_range <= 0, f"clip_range must be > 0, got {cfg.clip_range}"),
        (any(n < 1 for n in cfg.net_arch), f"net_arch layers must be >= 1 unit, got {cfg.net_arch}"),
        (cfg.eval_freq > 0 and cfg.eval_episodes < 1, f"eval_episodes must be >= 1 while eval_freq > 0 (eval_freq = 0 "
                                                      f"turns the evaluation off), got {cfg.eval_episodes}"),
        (lg.enabled and lg.check_every > 0 and lg.check_games < 1,
         f"league.check_games must be >= 1 while the league checks (enabled = false or check_every = 0 turns them "
         f"off), got {lg.check_games}"),
    ]
    for wrong, message in bad:
        if wrong:
            raise ValidationError("config", message)


ENV_OPTIONS_SET_BY_RUN = ("board", "players", "version", "factions", "island", "teams", "opponents", "midgame")
"""seat env arguments a run sets itself (the curriculum's scenarios, the league, ``[takeover]``), not
``[env_options]``"""


def _check_scenarios(cfg: TrainConfig) -> None:
    """Every scenario is a game the seat env can make (a team size that splits the players, a known
    version, a board that fits): refused here, in one line, rather than in the env workers when the
    curriculum reaches it (a traceback per worker, and a learner waiting on them for ever)."""
    from envs.opponents import probe_game

    named = [(f"curriculum[{i}].scenarios[{j}]", sc) for i, st in enumerate(cfg.curriculum)
             for j, sc in enumerate(st.scenarios)]
    for where, sc in [*named, ("eval_scenario", cfg.eval_scenario)]:
        try:
            probe_game(**sc.env_kwargs())
        except ValidationError as err:
            raise ValidationError("config", f"{where}: {err}") from None


def _check_env_options(cfg: TrainConfig) -> None:
    """``[env_options]`` are the seat env's own arguments: an unknown name or a bad value is refused here, in
    one line, rather than in every env worker (a traceback per worker, then a broken pipe)."""
    import inspect

    from envs.seat_env import ProtectorsSeatEnv

    known = set(inspect.signature(ProtectorsSeatEnv).parameters) - set(ENV_OPTIONS_SET_BY_RUN)
    bad = sorted(set(cfg.env_options) - known)
    if bad:
        raise ValidationError("config", f"env_options: unknown option(s) {', '.join(bad)}; "
                                        f"known: {', '.join(sorted(known))}")
    for i, stage in enumerate(cfg.curriculum):  # every scenario: a seat = "Player#5" fits 5 seats, not 3
        for j, sc in enumerate(stage.scenarios):
            try:
                ProtectorsSeatEnv(**sc.env_kwargs(), **cfg.env_options)
            except (ValidationError, TypeError, ValueError) as err:
                where = f" (with curriculum[{i}].scenarios[{j}])" if i or j else ""
                raise ValidationError("config", f"env_options{where}: {err}") from None
    from envs.opponents import OpponentPool

    try:  # the periodic evaluation's opponents: refused now, not at the first evaluation once the run is under way
        OpponentPool(tuple(cfg.eval_opponents))
    except ValidationError as err:
        raise ValidationError("config", f"eval_opponents: {str(err).removeprefix('opponents: ')}") from None


def load_config(path: str | Path, **overrides: Any) -> TrainConfig:
    """Read a TOML config; ``overrides`` (top-level fields, None = keep) win over the file."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValidationError("config", f"no config file at {p}") from None
    except tomllib.TOMLDecodeError as err:
        raise ValidationError("config", f"{p}: not valid TOML ({err})") from err
    for key, value in overrides.items():
        if value is not None:
            data[key] = value
    cfg = _build(TrainConfig, data, p.name)
    try:
        return validate(cfg)
    except ValidationError as err:  # name the file, as _build's errors do
        raise ValidationError("config", f"{p.name}: {str(err).removeprefix('config: ')}") from None


def to_dict(cfg: TrainConfig) -> dict[str, Any]:
    """The config as plain data (for the model card and the run's hyperparameter table)."""
    return dataclasses.asdict(cfg)


def to_toml(cfg: TrainConfig) -> str:
    """Write the config back as TOML (saved next to every checkpoint, so a run can be reproduced)."""
    data = to_dict(cfg)
    lines: list[str] = []
    for key, value in data.items():
        if key not in ("league", "curriculum", "env_options", "eval_scenario", "imitation", "takeover"):
            lines.append(f"{key} = {_toml_value(value)}")
    lines.append("")
    lines.append("[env_options]")
    lines.extend(f"{k} = {_toml_value(v)}" for k, v in data["env_options"].items())
    lines.append("")
    lines.append("[eval_scenario]")
    lines.extend(f"{k} = {_toml_value(v)}" for k, v in data["eval_scenario"].items())
    lines.append("")
    lines.append("[league]")
    lines.extend(f"{k} = {_toml_value(v)}" for k, v in data["league"].items())
    lines.append("")
    lines.append("[imitation]")
    lines.extend(f"{k} = {_toml_value(v)}" for k, v in data["imitation"].items())
    lines.append("")
    lines.append("[takeover]")
    lines.extend(f"{k} = {_toml_value(v)}" for k, v in data["takeover"].items())
    for stage in data["curriculum"]:
        lines.append("")
        lines.append("[[curriculum]]")
        lines.append(f"start = {_toml_value(stage['start'])}")
        for sc in stage["scenarios"]:
            lines.append("[[curriculum.scenarios]]")
            lines.extend(f"{k} = {_toml_value(v)}" for k, v in sc.items())
    return "\n".join(lines) + "\n"


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_value(str(k))} = {_toml_value(x)}" for k, x in v.items()) + "}"
    return repr(v)
