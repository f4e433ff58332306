"""ProtectorsSeatEnv: the Gymnasium/SB3 checkers, masks, rewards, options, registration."""

from __future__ import annotations

import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import envs  # noqa: F401  (registers regent/Protectors-v0)
from agents.spaces import layout as L
from agents.spaces.encoding import OBS_SIZE
from engine.errors import ValidationError
from engine.protectors.game import Game
from envs.seat_env import ILLEGAL_PENALTY, ProtectorsSeatEnv


def play_random(env, seed, rng=None):
    rng = rng or np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.any() and (mask == info["action_mask"]).all()
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += r
        steps += 1
        assert env.observation_space.contains(obs)
        if term or trunc:
            return total, steps, info


def test_gymnasium_check_env():
    check_env(ProtectorsSeatEnv(opponents=("random",)), skip_render_check=True)


def test_sb3_check_env():
    sb3_check_env(ProtectorsSeatEnv(opponents=("random", "caretaker")), warn=True)


def test_registered_with_gymnasium_make():
    env = gym.make("regent/Protectors-v0", players=4, opponents=("random",))
    obs, info = env.reset(seed=3)
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
    assert env.action_space.n == L.ACTION_SIZE
    assert info["action_mask"].any()


@pytest.mark.parametrize("kw", [
    {},
    {"players": 7, "version": "grand", "island": True, "factions": True, "opponents": ("random", "caretaker")},
    {"players": 6, "teams": 2, "opponents": ("random",)},
    {"players": 3, "opponents": ("random",), "silent_turn_prob": 0.5, "silent_forever_prob": 0.3},
])
def test_random_masked_games_end_with_a_terminal_reward(kw):
    env = ProtectorsSeatEnv(illegal_action="raise", **kw)
    for seed in range(4):
        total, steps, info = play_random(env, seed)
        assert info["result"] is not None and env.game.over
        assert info["action_mask"].tolist() == [i == L.DONE for i in range(L.ACTION_SIZE)]
        assert -1.0 <= total <= 1.0 and steps >= 1


def test_terminal_reward_matches_the_result():
    env = ProtectorsSeatEnv(opponents=("random",), seat="Player#2", illegal_action="raise")
    seen = set()
    for seed in range(40):
        total, _, info = play_random(env, seed)
        res = info["result"]
        if res["winner"] is None:
            assert total == -1.0
            seen.add("dragon")
        elif res["winner"] == "Player#2":
            assert total == 1.0
            seen.add("win")
        else:
            assert 0.0 <= total < 0.5
            seen.add("loss")
    assert "dragon" in seen and len(seen) >= 2


def test_illegal_action_penalised_without_any_change_or_raised():
    env = ProtectorsSeatEnv(opponents=("random",))
    obs, info = env.reset(seed=1)
    bad = int(np.flatnonzero(~info["action_mask"])[0])
    blob = env.game.to_blob()
    obs2, r, term, _trunc, info2 = env.step(bad)
    assert r == ILLEGAL_PENALTY and info2["illegal_action"] and not term
    assert env.game.to_blob() == blob and (obs2 == obs).all()
    strict = ProtectorsSeatEnv(opponents=("random",), illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValidationError, match="not legal"):
        strict.step(bad)


def test_every_learner_decision_is_submitted_by_the_learner():
    """No decision of the learning seat falls back to the engine defaults: replaying the game's record,
    every step the learner decides in has its own submission before the step is advanced. (Read from
    the record rather than by patching ``Game.advance``, which a compiled engine does not allow.)"""
    env = ProtectorsSeatEnv(opponents=("random",), seat="Player#3", illegal_action="raise")
    checked = []
    for seed in range(6):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.game.over:
            env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        replay = Game(env.game.setup)
        for action in env.game.actions:
            if action[0] == "submit":
                replay.submit(action[1], "\n".join(action[2]))
                continue
            if "Player#3" in replay.deciding_seats():
                checked.append(replay.step)
                assert "Player#3" in replay.state.submissions, f"no learner submission in {replay.step}"
            replay.advance(force=bool(action[1]))
        assert replay.to_blob() == env.game.to_blob()
    assert {"bid", "orders", "consolidation"} <= set(checked)


def test_reward_shaping_off_by_default_and_documented_when_on():
    env = ProtectorsSeatEnv(opponents=("random",))
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    rewards = []
    while not env.game.over:
        _, r, term, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        rewards.append((r, term))
    assert all(r == 0.0 for r, term in rewards if not term)
    from agents.reward import terminal_reward
    from engine.protectors.victory import victory_points

    shaped = ProtectorsSeatEnv(opponents=("random",), reward_shaping=1.0, seat="Player#1")
    seen = []
    for seed in range(10):
        shaped.reset(seed=seed)
        vp0 = victory_points(shaped.game.state, "Player#1")
        rng = np.random.default_rng(seed)
        total = 0.0
        while not shaped.game.over:
            _, r, term, _, _ = shaped.step(int(rng.choice(np.flatnonzero(shaped.action_masks()))))
            total += r
            if not term:
                seen.append(r)
        shaping = total - terminal_reward(shaped.game.result, "Player#1")
        assert shaping == pytest.approx((victory_points(shaped.game.state, "Player#1") - vp0) / 10, abs=1e-6)
    assert any(r != 0.0 for r in seen)  # shaping on: VP changes are paid as they happen


def test_bad_options_are_clear_errors():
    with pytest.raises(ValidationError, match="players"):
        ProtectorsSeatEnv(players=17)
    with pytest.raises(ValidationError, match="unknown agent"):
        ProtectorsSeatEnv(opponents=("nobody",))
    with pytest.raises(ValidationError, match="probability"):
        ProtectorsSeatEnv(silent_turn_prob=1.5)
    with pytest.raises(ValidationError, match="team size"):
        ProtectorsSeatEnv(players=5, teams=2)
    with pytest.raises(ValidationError, match="illegal_action"):
        ProtectorsSeatEnv(illegal_action="ignore")
    from envs.parallel_env import ProtectorsParallelEnv

    for flag in ("factions", "island", "strong_opening"):  # a config's "false" is a string, and truthy
        with pytest.raises(ValidationError, match=f"{flag}: true or false, not 'false'"):
            ProtectorsSeatEnv(**{flag: "false"})
        if flag != "strong_opening":  # the parallel env has no opening rule
            with pytest.raises(ValidationError, match=f"{flag}: true or false, not 'false'"):
                ProtectorsParallelEnv(**{flag: "false"})


@pytest.mark.parametrize("kw", [{"players": "5"}, {"players": 5.0}, {"players": True}, {"players": 6, "teams": 2.0},
                                {"players": 4, "teams": True}])
def test_a_player_count_or_team_size_that_is_no_whole_number_is_refused_naming_the_option(kw):
    """Before, players="5" was a TypeError ("'<=' not supported"), players=5.0 "unknown built-in board
    'ring-5.0'" and teams=2.0 played on; the parallel env takes them the same way."""
    from envs.parallel_env import ProtectorsParallelEnv

    name = "teams" if "teams" in kw else "players"
    for make in (ProtectorsSeatEnv, ProtectorsParallelEnv):
        with pytest.raises(ValidationError, match=f"{name}: a whole number, not {kw[name]!r}"):
            make(**kw)
    assert ProtectorsSeatEnv(players=np.int64(6), teams=np.int64(2)).reset(seed=0)[0].shape == (OBS_SIZE,)


@pytest.mark.parametrize("name", ["reward_shaping", "silent_turn_prob", "silent_forever_prob"])
@pytest.mark.parametrize("value", ["0.5", None, True])
def test_a_numeric_option_that_is_no_number_is_refused_naming_the_option(name, value):
    """Before, reward_shaping="x" was a bare ValueError ("could not convert string to float: 'x'"), None a
    TypeError, True taken as 1.0, and silent_turn_prob="0.3" a TypeError ("'<=' not supported")."""
    from envs.parallel_env import ProtectorsParallelEnv

    makers = (ProtectorsSeatEnv, ProtectorsParallelEnv) if name == "reward_shaping" else (ProtectorsSeatEnv,)
    for make in makers:
        with pytest.raises(ValidationError, match=f"{name}: a number, not {value!r}"):
            make(**{name: value})
    assert ProtectorsSeatEnv(**{name: np.float32(0.5)}).reset(seed=0)[0].shape == (OBS_SIZE,)


def test_a_fixed_seat_the_game_does_not_have_is_refused_when_the_env_is_made():
    """Before, it passed until reset(); in training ([env_options] seat) every env worker died with a
    traceback and regent train ended on 'internal error (EOFError)'."""
    with pytest.raises(ValidationError, match=r"seat: unknown seat 'Player#7'; this game's seats are Player#1, "):
        ProtectorsSeatEnv(players=3, seat="Player#7")
    assert ProtectorsSeatEnv(players=3, seat="Player#3").reset(seed=0)[1]["seat"] == "Player#3"


def test_a_reset_seat_the_game_does_not_have_is_refused_with_the_seats_even_with_midgame_starts():
    """Before, with mid-game starts on, reset(options={"seat": ...}) naming no seat of the game ended in a bare
    KeyError from the recording (without them it was refused, as here)."""
    for midgame in (None, {"prob": 1.0}):
        env = ProtectorsSeatEnv(players=3, midgame=midgame)
        with pytest.raises(ValidationError, match=r"options: unknown seat 'Player#7'; this game's seats are Player#1"):
            env.reset(seed=0, options={"seat": "Player#7"})
        assert env.reset(seed=0, options={"seat": "Player#2"})[1]["seat"] == "Player#2"
    old = pickle.loads(pickle.dumps(env))  # an env pickled before it kept its seats (a resume.pkl) still checks
    del old.__dict__["seats"]
    old = pickle.loads(pickle.dumps(old))
    with pytest.raises(ValidationError, match="unknown seat 'Player#7'"):
        old.reset(options={"seat": "Player#7"})


@pytest.mark.parametrize("spec", ["heuristic:foo", "ppo:extreme", "caretaker:"])
def test_an_opponent_spec_no_agent_answers_to_is_refused_when_the_env_is_made(spec):
    """Before, only the part before ':' was looked up, so these passed until reset() drew them."""
    with pytest.raises(ValidationError, match=f"opponents: unknown agent '{spec}'; known: .*policy:<checkpoint>"):
        ProtectorsSeatEnv(opponents=("random", spec))
    ProtectorsSeatEnv(opponents=("ppo:hard", "policy:any.zip@0.5", "search:2,2"))  # real specs still pass


def test_opponents_given_as_one_string_are_refused_naming_the_list_to_write():
    """Before, opponents="heuristic" became the pool ('h', 'e', ...) and was refused as "unknown agent 'h'"."""
    with pytest.raises(ValidationError, match=r"opponents: a list of agent specs, such as \('heuristic',\), not the "
                                              r"string 'heuristic'"):
        ProtectorsSeatEnv(opponents="heuristic")
    assert ProtectorsSeatEnv(opponents=["heuristic"]).pool.specs == ("heuristic",)


def test_a_seed_gives_the_same_game_whether_or_not_a_policy_opponent_is_loaded_yet():
    """Before, the pool drew a seed only when it first loaded a checkpoint: reset(seed=0) on a fresh env
    and on one that had played other games gave two different games."""
    spec = "policy:checkpoints/protectors-ppo-v3/model.zip@1.0"
    used = ProtectorsSeatEnv(players=4, opponents=(spec, "random"), silent_turn_prob=0.3)
    for seed in (1, 2):
        play_random(used, seed)
    traces = []
    for env in (used, ProtectorsSeatEnv(players=4, opponents=(spec, "random"), silent_turn_prob=0.3)):
        obs, info = env.reset(seed=0)
        rng, trace = np.random.default_rng(0), [obs.tobytes(), info["seat"]]
        while info["result"] is None:
            obs, r, _, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            trace.append((obs.tobytes(), r))
        traces.append(trace)
    assert traces[0] == traces[1]


@pytest.mark.parametrize("kw", [{"skip_forced": "no"}, {"render_mode": "human"}, {"render_mode": "rgb_array"}],
                         ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()))
def test_a_bad_skip_forced_or_render_mode_is_refused_by_both_envs(kw):
    """Before, both were taken: skip_forced = "no" is truthy, so forced choices were still skipped, and a render
    mode neither env has (only "ansi") was kept as if it worked."""
    from envs.parallel_env import ProtectorsParallelEnv

    (name, value), = kw.items()
    for cls in (ProtectorsSeatEnv, ProtectorsParallelEnv):
        with pytest.raises(ValidationError, match=rf"{name}: .*not '{value}'"):
            cls(**kw)
        cls(skip_forced=False, render_mode="ansi")


@pytest.mark.filterwarnings("ignore:.*render_mode='rgb_array'")  # gymnasium's, before SB3 makes the env again
def test_sb3_make_vec_env_makes_the_registered_env():
    """Before, make_vec_env("regent/Protectors-v0") died in every worker: SB3 asks for render_mode="rgb_array"
    unless env_kwargs names one and retries without it only on a TypeError, and the refusal was a ValueError."""
    from stable_baselines3.common.env_util import make_vec_env

    from envs.parallel_env import ProtectorsParallelEnv

    venv = make_vec_env("regent/Protectors-v0", n_envs=2, env_kwargs={"players": 3}, seed=0)
    assert venv.observation_space.shape == (OBS_SIZE,) and venv.get_attr("render_mode") == [None, None]
    assert [m.shape for m in venv.env_method("action_masks")] == [(L.ACTION_SIZE,)] * 2
    venv.close()
    for cls in (ProtectorsSeatEnv, ProtectorsParallelEnv):  # still refused, naming the modes there are
        with pytest.raises(TypeError, match=r"render_mode: None or one of 'ansi', not 'rgb_array'"):
            cls(render_mode="rgb_array")


def test_silent_forever_opponents_only_get_defaults():
    env = ProtectorsSeatEnv(opponents=("random",), silent_forever_prob=1.0, seat="Player#1")
    env.reset(seed=5)
    assert env.silent == {f"Player#{i}" for i in range(2, 6)}
    rng = np.random.default_rng(5)
    while not env.game.over:
        env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    submitted = {a[1] for a in env.game.actions if a[0] == "submit"}
    assert submitted == {"Player#1"}


def test_reset_from_a_position_continues_that_game():
    env = ProtectorsSeatEnv(opponents=("caretaker",))
    env.reset(seed=2)
    position = env.game.clone()
    env2 = ProtectorsSeatEnv(opponents=("random",))
    env2.reset_from(position, "Player#4", seed=0)
    assert env2.seat == "Player#4" and env2.game.state.turn == position.state.turn
    assert env2.game is not position


def _opening_bids(env, seed: int) -> list[str]:
    """The learner's turn-1 bid lines in a game where it always picks the last legal choice (bidding high)."""
    env.reset(seed=seed)
    first_submit = None
    while not env.game.over and first_submit is None:
        env.step(int(np.flatnonzero(env.action_masks())[-1]))
        first_submit = next((a for a in env.game.actions if a[0] == "submit" and a[1] == env.seat), None)
    return [line for line in first_submit[2] if line.startswith("Bid ")]


@pytest.mark.parametrize(("board", "players", "replaced"), [("ring-7", 7, True), ("ring-5", 5, False)])
def test_strong_opening_bids_as_the_strong_level_does_at_a_big_table(board, players, replaced):
    from agents.strong import BIG_TABLE_OPENING_BID

    kw = dict(board=board, players=players, opponents=("heuristic",), seat="Player#2")
    trained = _opening_bids(ProtectorsSeatEnv(**kw, strong_opening=True), 3)
    plain = _opening_bids(ProtectorsSeatEnv(**kw), 3)
    assert plain and plain != [f"Bid {BIG_TABLE_OPENING_BID}"], "the policy's own choice here is a real bid"
    assert trained == ([f"Bid {BIG_TABLE_OPENING_BID}"] if replaced else plain)
