"""``ProtectorsSeatEnv``: Gymnasium env for one learning seat in a full Protectors game.

Every decision of the learning seat is a sequence of masked Discrete choices (``agents.spaces.planner``);
the other seats are agents drawn from an opponent pool, optionally silent (rulebook defaults).
Observation: ``agents.spaces.encoding`` (a float32 vector of the seat's own view and the current choice).
Reward: ``agents.reward.terminal_reward`` at the end; optional shaping (off by default); optionally measured
against the caretaker's score from the same start (``caretaker_baseline``).
"""

from __future__ import annotations

import copy
import random
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from agents.reward import terminal_reward
from agents.runner import MAX_ADVANCES
from agents.spaces import layout as L
from agents.spaces.encoding import BOARD_SIZE, OBS_SIZE, BoardCache, encode_board_into, encode_choice
from agents.spaces.planner import Planner, make_planner
from agents.strong import big_table_bid
from engine.errors import RegentError, ValidationError
from engine.protectors.game import Game
from engine.protectors.seat import SeatContext
from engine.protectors.victory import victory_points
from envs.midgame import MidGameStarts
from envs.opponents import OpponentPool, check_flag, check_number, check_render_mode, make_setup, probe_game

ILLEGAL_MODES = ("penalize", "raise")
ILLEGAL_PENALTY = -0.01  # an unmasked illegal action changes nothing and costs this (assumption ILLEGAL_ACTION)
MIDGAME_TRIES = 3  # mid-game positions whose game ends before the learner's first real choice: retry, then start fresh
MAX_CHOICES = 20_000  # truncation guard; real games need a few hundred choices at most
RESET_OPTIONS = ("game_seed", "midgame", "seat")  # what reset(options=...) reads
CARETAKER_BASELINES = ("off", "difference", "sign", "beats")  # the terminal reward, as is or against the caretaker's


class ProtectorsSeatEnv(gym.Env):
    """One seat of a Protectors game as a Gymnasium env with action masks.

    Options: ``board`` (None: the ring for ``players``), ``players`` (2-16), ``version``
    ("normal"/"grand"), ``factions``, ``island``, ``teams`` (team size, 0 = no teams), ``opponents``
    (agent specs, drawn per seat per game), ``silent_turn_prob`` / ``silent_forever_prob``,
    ``seat`` (None: a random seat each game), ``reward_shaping`` (coefficient of the per-step change
    in own VPs / 10; 0 = off), ``skip_forced`` (choices with one legal action are applied for you),
    ``illegal_action`` ("penalize": no change and ILLEGAL_PENALTY; "raise": ValidationError),
    ``midgame`` (None: every episode starts at turn 1; a ``envs.midgame.MidGameStarts`` or its fields
    as a dict: with its ``prob`` an episode starts at a position recorded on the fly, mid-game),
    ``strong_opening`` (the learner's turn-1 bid follows the ``strong`` level's big-table rule,
    ``agents.strong.big_table_bid``: at a big table its amount is the rule's whatever the policy chose, so
    a policy trains for the games ``strong`` plays), ``caretaker_baseline`` ("off": the terminal reward;
    "difference": minus the score the caretaker, the rulebook's default for an inactive player, reaches
    from the episode's very start, with the same engine state and random generator and copies of the same
    opponents; "sign": only whether the learner finished above (+1), level with (0) or below (-1) it,
    the pairwise comparison ``regent eval takeover`` counts; "beats": 1 when the learner finished above it and
    0 otherwise, the share that benchmark reports, with finishing below no worse than finishing level).
    """

    # render_fps: Gymnasium's checker asks for one; an "ansi" report has no frame rate of its own
    metadata: ClassVar[dict] = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, board: str | dict | None = None, players: int = 5, version: str = "normal",
                 factions: bool = False, island: bool = False, teams: int = 0,
                 opponents: tuple[str, ...] | list[str] = ("caretaker",), silent_turn_prob: float = 0.0,
                 silent_forever_prob: float = 0.0, seat: str | None = None, reward_shaping: float = 0.0,
                 skip_forced: bool = True, illegal_action: str = "penalize", render_mode: str | None = None,
                 midgame: MidGameStarts | dict | None = None, strong_opening: bool = False,
                 caretaker_baseline: str = "off"):
        if illegal_action not in ILLEGAL_MODES:
            raise ValidationError("illegal_action", f"one of {ILLEGAL_MODES}")
        if caretaker_baseline not in CARETAKER_BASELINES:
            raise ValidationError("caretaker_baseline", f"one of {', '.join(CARETAKER_BASELINES)}, "
                                                        f"not {caretaker_baseline!r}")
        check_flag("strong_opening", strong_opening)
        check_flag("skip_forced", skip_forced)
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.setup_args = dict(board=board, players=players, version=version, factions=factions, island=island,
                               teams=teams)
        probe = probe_game(**self.setup_args)  # a bad combination of options is refused here, not at reset()
        self.seats = tuple(probe.state.players)  # every game of these options has these seats
        self._check_seat("seat", seat)
        self.pool = OpponentPool(opponents if isinstance(opponents, str) else tuple(opponents), silent_turn_prob,
                                 silent_forever_prob)
        self.midgame = MidGameStarts.of(midgame)
        self.start: dict[str, Any] = {"turn": 1}  # where the current episode began (``info["start"]``)
        self.fixed_seat = seat
        self.reward_shaping = check_number("reward_shaping", reward_shaping)
        self.strong_opening = bool(strong_opening)
        self.caretaker_baseline = caretaker_baseline
        self.baseline_score: float | None = None  # the caretaker's score from this episode's start
        self.skip_forced = skip_forced
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-1.0, 10.0, shape=(OBS_SIZE,), dtype=np.float32)
        self.action_space = spaces.Discrete(L.ACTION_SIZE)
        self.game: Game | None = None
        self.planner: Planner | None = None
        self.cache: BoardCache | None = None
        self._obs = np.zeros(OBS_SIZE, dtype=np.float32)
        self._board = self._obs[:BOARD_SIZE]  # views: both blocks are written in place
        self._choice = self._obs[BOARD_SIZE:]
        self._done_mask = np.zeros(L.ACTION_SIZE, dtype=bool)
        self._done_mask[L.DONE] = True
        self._rng = random.Random(0)

    # -- gymnasium API --------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        options = options or {}
        unknown = sorted(set(options) - set(RESET_OPTIONS))
        if unknown:
            raise ValidationError("options", f"unknown reset option(s) {', '.join(map(repr, unknown))}; "
                                             f"known: {', '.join(RESET_OPTIONS)}")
        self._check_seat("options", options.get("seat"))  # before a mid-game recording looks it up
        if options.get("midgame") and "game_seed" in options:
            raise ValidationError("options", "game_seed names a fresh game from turn 1 and midgame=True a "
                                             "recorded position: give one of them")
        self._rng = random.Random(int(self.np_random.integers(2**31)))
        if self._midgame_now(options):
            seat = options.get("seat") or self.fixed_seat
            for _ in range(MIDGAME_TRIES):
                recorded = self.midgame.record(self.setup_args, random.Random(self._rng.randrange(2**31)), seat)
                if recorded is None:
                    break
                self.game, seat_now, self.start = recorded
                self._start({"seat": seat_now})
                if self.planner is not None:  # the seat has a choice before the game ends
                    return self._observe(), self._reset_info()
        self.start = {"turn": 1}
        game_seed = options.get("game_seed", self._rng.randrange(2**31))
        self.game = Game(make_setup(seed=game_seed, **self.setup_args))
        self._start(options)
        return self._observe(), self._reset_info()

    def _check_seat(self, name: str, seat: str | None) -> None:
        if seat is not None and seat not in self.seats:
            raise ValidationError(name, f"unknown seat {seat!r}; this game's seats are {', '.join(self.seats)}")

    def _midgame_now(self, options: dict) -> bool:
        """Start this episode mid-game? ``options["midgame"]`` True/False decides; else a draw with
        ``midgame.prob`` (no draw at all when mid-game starts are off: the random stream stays as it was)."""
        forced = options.get("midgame")
        if forced is not None:
            if forced and self.midgame is None:
                raise ValidationError("midgame", "this env has no mid-game starts configured")
            return bool(forced)
        if self.midgame is None or not self.midgame.prob or "game_seed" in options:
            return False
        return self._rng.random() < self.midgame.prob

    def reset_from(self, game: Game, seat: str, seed: int | None = None):
        """Start from a position (a clone of ``game``), the learning seat being ``seat``."""
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**31)))
        self.game = game.clone()
        self.start = {"turn": self.game.state.turn}
        self._start({"seat": seat})
        return self._observe(), self._reset_info()

    def _start(self, options: dict | None) -> None:
        seats = list(self.game.state.players)
        self.seat = (options or {}).get("seat") or self.fixed_seat or self._rng.choice(seats)
        if self.seat not in seats:
            raise ValidationError("seat", f"unknown seat {self.seat!r}")
        others = [s for s in seats if s != self.seat]
        self.agents, self.silent = self.pool.draw(others, self._rng)
        for i, s in enumerate(others):
            self.agents[s].reset(self._rng.randrange(2**31) + i)
        # seats whose decisions advance(force=True) makes: silent for good, or the caretaker (whose
        # play is the rulebook default)
        self._by_default = self.silent | {s for s in others if getattr(self.agents[s], "name", "") == "caretaker"}
        self._acting = [s for s in others if s not in self._by_default]
        if self.cache is None or not self.cache.fits(self.game.state):
            self.cache = BoardCache(self.game.state)
        self.choices = 0
        self._silent_turns: dict[tuple[str, int], bool] = {}
        self._vp = victory_points(self.game.state, self.seat) if self.reward_shaping else 0  # read only when shaping
        self.baseline_score = None if self.caretaker_baseline == "off" else self._caretaker_score()
        self._run_until_learner()

    def step(self, action):
        if self.game is None:
            raise ValidationError("env", "call reset() first")
        if self.planner is None:
            raise ValidationError("env", "the game is over; call reset()")
        a = int(action)
        planner = self.planner
        if not (0 <= a < L.ACTION_SIZE and planner.mask()[a]):
            if self.illegal_action == "raise":
                planner.apply(a)  # raises the ValidationError naming the choice
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), ILLEGAL_PENALTY, False, False, info
        planner.apply(a)
        self.choices += 1
        if self.skip_forced:
            planner.skip_forced()
        g = self.game
        if planner.stage is None:  # finished
            self._submit_own(planner.decision())
            self._others_act()
            g.advance(force=True)
            self._run_until_learner()
        reward = 0.0
        if self.reward_shaping:
            vp = victory_points(g.state, self.seat)
            reward += self.reward_shaping * (vp - self._vp) / 10
            self._vp = vp
        terminated = g.over
        if terminated:
            reward += self._terminal_reward()
        truncated = not terminated and self.choices >= MAX_CHOICES
        return self._observe(), float(reward), terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """MaskablePPO's convention: a bool array over the Discrete actions (never all False)."""
        if self.planner is None:
            return self._done_mask.copy()
        return self.planner.mask().copy()

    def render(self):
        if self.game is None:
            return ""
        return self.game.report(seat=self.seat)

    # -- internals ------------------------------------------------------------------------------
    def _run_until_learner(self) -> None:
        """Opponents play and the engine advances until the learning seat has a real choice."""
        g = self.game
        st = g.state
        seat = self.seat
        self.planner = None
        while not g.over:
            if seat in g.deciding_seats() and seat not in st.submissions:
                planner = make_planner(st, seat)
                if self.skip_forced:
                    planner.skip_forced()
                if planner.stage is not None:  # not finished: a real choice
                    self.planner = planner
                    encode_board_into(st, seat, self._board, self.cache)
                    return
                self._submit_own(planner.decision())
            if self._acting:
                self._others_act()
            g.advance(force=True)
        encode_board_into(st, seat, self._board, self.cache)

    def _score(self) -> float:
        g = self.game
        return terminal_reward(g.result, self.seat, g.state.team_of(self.seat))

    def _terminal_reward(self) -> float:
        score = self._score()
        if self.baseline_score is None:
            return score
        if self.caretaker_baseline == "difference":
            return score - self.baseline_score
        if self.caretaker_baseline == "beats":
            return float(score > self.baseline_score)
        return float(np.sign(score - self.baseline_score))

    def _caretaker_score(self) -> float:
        """The learner's score had the caretaker played its seat from here: the game is cloned (its random
        generator too), the opponents and the env's own generator copied, and the game played out with the
        learner's seat left to ``advance(force=True)``'s rulebook defaults. Nothing of this episode changes."""
        saved = self.game, self.agents, self._rng, self._silent_turns
        self.game = self.game.clone()
        self.agents = copy.deepcopy(self.agents)
        self._rng = copy.deepcopy(self._rng)
        self._silent_turns = dict(self._silent_turns)
        try:
            for _ in range(MAX_ADVANCES):
                if self.game.over:
                    return self._score()
                self._others_act()  # every seat but the learner's, which gets the default below
                self.game.advance(force=True)
            raise RuntimeError(f"the caretaker's game did not end within {MAX_ADVANCES} steps")
        finally:
            self.game, self.agents, self._rng, self._silent_turns = saved

    def _submit_own(self, decision: Any) -> None:
        """The learner's decision, with ``strong``'s big-table opening bid when ``strong_opening`` is on."""
        if self.strong_opening:
            decision = big_table_bid(self.game.state, self.seat, decision) or decision
        self.game.submit(self.seat, decision)

    def _others_act(self) -> None:
        if not self._acting:
            return  # every other seat plays the rulebook default, which advance(force=True) applies
        g = self.game
        for s in g.deciding_seats():
            if s == self.seat or s in g.state.submissions or s in self._by_default:
                continue  # silent for good, or the caretaker: advance(force=True) applies the default
            if self._silent_this_turn(s):
                continue  # silent this turn: the rulebook default applies at advance(force=True)
            try:
                g.submit(s, self.agents[s].act(SeatContext(g, s)))
            except RegentError:
                continue  # a broken opponent behaves like a silent one; the game is never corrupted

    def _silent_this_turn(self, s: str) -> bool:
        if not self.pool.silent_turn_prob:
            return False
        key = (s, self.game.state.turn)
        if key not in self._silent_turns:
            self._silent_turns[key] = self._rng.random() < self.pool.silent_turn_prob
        return self._silent_turns[key]

    def _observe(self) -> np.ndarray:
        encode_choice(self.planner, self._choice)
        return self._obs.copy()

    def _info(self) -> dict[str, Any]:
        g = self.game
        return {"action_mask": self.action_masks(), "seat": self.seat, "engine_step": g.step if g else None,
                "stage": self.planner.stage if self.planner else None,
                "result": g.result if g is not None and g.over else None, "start_turn": self.start["turn"],
                "caretaker_score": self.baseline_score}

    def _reset_info(self) -> dict[str, Any]:
        """``reset``'s info: also ``start``, where the episode began (``turn``; for a mid-game start
        ``drawn_turn``, ``recorders`` (seat -> agent spec) and ``bad_seat``)."""
        info = self._info()
        info["start"] = {k: dict(v) if isinstance(v, dict) else v for k, v in self.start.items()}
        return info

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickling (a resumable training checkpoint): the board and choice blocks are views of one
        observation buffer again (pickle would have copied them apart)."""
        self.__dict__.update(state)
        if "seats" not in state:  # written before the env kept its seats
            self.seats = tuple(probe_game(**self.setup_args).state.players)
        self._board = self._obs[:BOARD_SIZE]
        self._choice = self._obs[BOARD_SIZE:]
