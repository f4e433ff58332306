"""``ProtectorsParallelEnv``: PettingZoo ParallelEnv, every seat an agent (self-play).

All seats choose at once, each through its own planner (``agents.spaces.planner``): a seat whose decision is
complete, or that has nothing to decide now, gets a mask with DONE only and its action is ignored.
Each engine step lasts a fixed number of env steps worked out from public facts (``envs.pacing.step_turns``),
whatever the seats choose, so when it resolves tells no seat anything about the others' hidden choices or
$Realm; then the finished decisions are submitted together and the engine resolves the step (rules: 003
"All orders ... revealed ... at the same time"). Observations are dicts ``{"observation", "action_mask"}``
(PettingZoo convention). Every agent stays until the game ends (an eliminated seat only has DONE);
rewards are ``agents.reward.terminal_reward`` at the end, shaping optional and off by default.
"""

from __future__ import annotations

import random
import warnings
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from agents.reward import terminal_reward
from agents.spaces import layout as L
from agents.spaces.encoding import BOARD_SIZE, OBS_SIZE, BoardCache, encode_board, encode_board_into, encode_choice
from agents.spaces.planner import Planner, make_planner
from engine.errors import ValidationError
from engine.protectors.game import Game
from engine.protectors.victory import victory_points
from envs.opponents import check_flag, check_number, check_render_mode, make_setup, probe_game
from envs.pacing import step_turns

ILLEGAL_PENALTY = -0.01
RESET_OPTIONS = ("game_seed",)  # what reset(options=...) reads


class ProtectorsParallelEnv(ParallelEnv):
    metadata: ClassVar[dict] = {"name": "protectors_v0", "render_modes": ["ansi"], "is_parallelizable": True,
                                "render_fps": 1}

    def __init__(self, board: str | dict | None = None, players: int = 5, version: str = "normal",
                 factions: bool = False, island: bool = False, teams: int = 0, reward_shaping: float = 0.0,
                 skip_forced: bool = True, illegal_action: str = "penalize", render_mode: str | None = None):
        if illegal_action not in ("penalize", "raise"):
            raise ValidationError("illegal_action", "one of ('penalize', 'raise')")
        check_flag("skip_forced", skip_forced)
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.setup_args = dict(board=board, players=players, version=version, factions=factions, island=island,
                               teams=teams)
        probe = probe_game(**self.setup_args)  # a bad combination of options is refused here, not at reset()
        self.possible_agents = list(probe.state.players)
        self.reward_shaping = check_number("reward_shaping", reward_shaping)
        self.skip_forced = skip_forced
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        obs_box = spaces.Box(-1.0, 10.0, shape=(OBS_SIZE,), dtype=np.float32)
        self._obs_spaces = {a: spaces.Dict({"observation": obs_box,
                                            "action_mask": spaces.Box(0, 1, shape=(L.ACTION_SIZE,), dtype=np.int8)})
                            for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(L.ACTION_SIZE) for a in self.possible_agents}
        # what state() returns: the board block (fixed size for every board), bounded like the observations
        self.state_space = spaces.Box(-1.0, 10.0, shape=(BOARD_SIZE,), dtype=np.float32)
        self.game: Game | None = None
        self.agents: list[str] = []
        self.cache: BoardCache | None = None
        self._rng = random.Random()  # game seeds: from the seed of the last seeded reset() (Gymnasium's rule)
        self._done_mask = np.zeros(L.ACTION_SIZE, dtype=np.int8)
        self._done_mask[L.DONE] = 1
        # one observation buffer per seat: the board block is written in place once per engine step,
        # the choice block per observation, and each observation is a copy of the buffer
        self._bufs = {a: np.zeros(OBS_SIZE, dtype=np.float32) for a in self.possible_agents}

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[agent]

    # -- API -------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None):
        unknown = sorted(set(options or {}) - set(RESET_OPTIONS))
        if unknown:  # a warning, not an error: PettingZoo's parallel_api_test resets with options={"options": 1}
            warnings.warn(f"ProtectorsParallelEnv.reset ignores option(s) {', '.join(map(repr, unknown))}; "
                          f"it reads only: {', '.join(RESET_OPTIONS)}", UserWarning, stacklevel=2)
        if seed is not None:  # a seed restarts the env's stream; reset() without one goes on along it
            self._rng = random.Random(seed)
        game_seed = (options or {}).get("game_seed", self._rng.randrange(2**31))
        self.game = Game(make_setup(seed=game_seed, **self.setup_args))
        self.agents = list(self.possible_agents)
        if self.cache is None or not self.cache.fits(self.game.state):  # kept across games of one board
            self.cache = BoardCache(self.game.state)
        self.planners: dict[str, Planner | None] = {}
        self.steps_left = 0  # env steps until the engine resolves the current step (the same for every seat)
        self._wasted: set[str] = set()  # seats that passed an env step of their decision without a legal action
        # VPs at the start (read only when shaping): shaping pays the change from here, so over a game it
        # sums to (final - starting VPs) / 10, as in the seat env
        self._vp = {a: victory_points(self.game.state, a) for a in self.agents} if self.reward_shaping else {}
        self._run()
        return self._observations(), {a: self._info(a) for a in self.agents}

    def step(self, actions: dict[str, Any]):
        if self.game is None or not self.agents:
            raise ValidationError("env", "call reset() first (or after the game ended)")
        rewards = {a: 0.0 for a in self.agents}
        for a in self.agents:
            p = self.open_planner(a)
            if p is None:
                continue  # nothing to decide now, or decided: a padded step, the action is ignored
            if a not in actions:
                self._wasted.add(a)
                continue
            act = int(actions[a])
            if not (0 <= act < L.ACTION_SIZE and p.mask()[act]):
                if self.illegal_action == "raise":
                    p.apply(act)
                rewards[a] += ILLEGAL_PENALTY
                self._wasted.add(a)
                continue
            p.apply(act)
            if self.skip_forced:
                p.skip_forced()
        self.steps_left -= 1
        if self.steps_left <= 0:
            self._resolve()
        over = self.game.over
        if self.reward_shaping:
            for a in self.agents:
                vp = victory_points(self.game.state, a)
                rewards[a] += self.reward_shaping * (vp - self._vp[a]) / 10
                self._vp[a] = vp
        if over:
            st = self.game.state
            for a in self.agents:
                rewards[a] += terminal_reward(self.game.result, a, st.team_of(a))
        obs = self._observations()
        terms = {a: over for a in self.agents}
        truncs = {a: False for a in self.agents}
        infos = {a: self._info(a) for a in self.agents}
        if over:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self):
        return self.game.report() if self.game else ""

    def close(self):
        pass

    def state(self) -> np.ndarray:
        """A global vector for centralised critics: the board block as the first seat sees it (it holds
        that seat's own $Realm, so it is for training-time critics, never for a seat's policy); in
        ``state_space``."""
        if self.game is None:
            raise ValidationError("env", "call reset() first")
        return encode_board(self.game.state, self.possible_agents[0], self.cache)

    # -- internals -------------------------------------------------------------------------------
    def open_planner(self, a: str) -> Planner | None:
        """``a``'s planner while its decision is open, else None (it sees a DONE-only mask)."""
        p = self.planners.get(a)
        return p if p is not None and not p.finished else None

    def _submit(self) -> None:
        """Submit the finished decisions together, in the engine's order of deciding seats. A decision still
        open after the step's env steps (only after unmasked or missing actions: ``step_turns`` bounds the
        choices) is left to the rulebook default, as for an inactive player (assumption PARALLEL_STEP_TURNS)."""
        for s, p in self.planners.items():
            if p is None:
                continue
            if p.finished:
                self.game.submit(s, p.decision())
            elif s not in self._wasted:
                raise RuntimeError(f"{s}'s {p.kind} decision is still open after {p.choices} choices, more than "
                                   f"envs.pacing.choice_bound allows: the bound is wrong")
        self.planners, self._wasted = {}, set()

    def _resolve(self) -> None:
        self._submit()
        self.game.advance(force=True)
        self._run()

    def _run(self) -> None:
        """Make the deciding seats' planners and set the env steps the engine step lasts (``step_turns``,
        public facts only); a step in which no seat can have a choice is submitted and resolved at once."""
        g = self.game
        while not g.over:
            self.planners = {}
            for s in g.deciding_seats():
                if s in g.state.submissions:
                    continue
                p = make_planner(g.state, s)
                if self.skip_forced:
                    p.skip_forced()
                self.planners[s] = p  # finished already (forced) or not: it waits out the step either way
            self.steps_left = step_turns(g.state, list(self.planners))
            if self.steps_left > 0:
                break
            self._submit()
            g.advance(force=True)
        if g.over:
            self.planners, self.steps_left = {}, 0
        for a in self.possible_agents:
            encode_board_into(g.state, a, self._bufs[a][:BOARD_SIZE], self.cache)

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        out = {}
        for a in self.possible_agents if self.game.over else self.agents:
            buf = self._bufs[a]
            p = self.open_planner(a)
            encode_choice(p, buf[BOARD_SIZE:])
            vec = buf.copy()
            mask = p.mask().astype(np.int8) if p is not None else self._done_mask.copy()
            out[a] = {"observation": vec, "action_mask": mask}
        return out

    def _info(self, a: str) -> dict[str, Any]:
        p = self.open_planner(a)
        return {"stage": p.stage if p else None, "engine_step": self.game.step, "steps_left": self.steps_left}
