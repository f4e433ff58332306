"""Training configs: every checked-in TOML loads, bad keys and values are named, TOML round-trips."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import ValidationError
from training.config import LeagueConfig, TrainConfig, load_config, to_toml

CONFIGS = sorted((Path(__file__).parents[2] / "training" / "configs").glob("*.toml"))


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_checked_in_configs_load(path):
    cfg = load_config(path)
    assert isinstance(cfg, TrainConfig)
    assert isinstance(cfg.league, LeagueConfig)
    assert cfg.curriculum[0].start == 0.0


def test_there_is_a_smoke_config_and_a_shipped_one():
    names = {p.stem for p in CONFIGS}
    assert {"smoke", "protectors-ppo-v1"} <= names


def test_overrides_win_and_none_keeps_the_file(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('total_timesteps = 10\nseed = 4\n')
    cfg = load_config(p, total_timesteps=99, seed=None)
    assert cfg.total_timesteps == 99 and cfg.seed == 4


def test_unknown_key_is_named(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('total_timestep = 10\n')
    with pytest.raises(ValidationError, match="total_timestep"):
        load_config(p)


def test_unknown_nested_key_is_named(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text('[league]\ncheck_evry = 5\n')
    with pytest.raises(ValidationError, match=r"league: unknown key\(s\) check_evry"):
        load_config(p)


@pytest.mark.parametrize(("text", "what"), [
    ("n_envs = 0", "n_envs"),
    ('vec_env = "ray"', "vec_env"),
    ("[[curriculum]]\nstart = 0.5\n", "first stage"),
    ("[[curriculum]]\nstart = 0.0\n[[curriculum.scenarios]]\nplayers = 17\n", "players must be 2..16"),
    ("[league]\ncaretaker_weight = -1.0\n", "league weights"),
    ("[takeover]\nprob = 0.5\nturns = [1, 4]\n", "takeover: midgame.turns"),
    ("[takeover]\nprob = 1.5\n", "takeover: midgame.prob"),
    ("[takeover]\nprob = 0.5\nrecorders = { nobody = 1.0 }\n", "takeover: .*unknown agent 'nobody'"),
    ("[takeover]\nprobability = 0.5\n", r"takeover: unknown key\(s\) probability"),
    # checked when the config loads, not in each env worker (a traceback per worker, then a broken pipe)
    ("[env_options]\nstrong_openin = true\n", r"env_options: unknown option\(s\) strong_openin; known: .*strong_op"),
    ('[env_options]\nstrong_opening = "yes"\n', "env_options: strong_opening: true or false, not 'yes'"),
    ("[env_options]\nplayers = 7\n", r"env_options: unknown option\(s\) players"),  # the curriculum's
    ('[env_options]\nillegal_action = "ignore"\n', "env_options: illegal_action"),
])
def test_bad_values_are_rejected_with_their_name(tmp_path, text, what):
    p = tmp_path / "c.toml"
    p.write_text(text + "\n")
    with pytest.raises(ValidationError, match=what):
        load_config(p)


@pytest.mark.parametrize(("text", "what"), [
    ('n_steps = "64"', "c.toml: n_steps must be an integer, not '64'"),
    ("learning_rate = true", "c.toml: learning_rate must be a number, not True"),
    ("progress = 1", "c.toml: progress must be true or false, not 1"),
    ('net_arch = [64, "64"]', r"c.toml: net_arch must be a list of integers, not \[64, '64'\]"),
    ('eval_opponents = "heuristic"', "c.toml: eval_opponents must be a list of strings"),
    ("curriculum = 3", "c.toml: curriculum must be a list of tables, not 3"),
    ("[league]\ncheck_games = 2.5\n", "c.toml.league: check_games must be an integer, not 2.5"),
    ('[[curriculum]]\nstart = 0.0\n[[curriculum.scenarios]]\nfactions = "no"\n',
     r"c.toml.curriculum\[0\].scenarios\[0\]: factions must be true or false, not 'no'"),
    ('[imitation]\nopponents = { heuristic = "much" }\n', "c.toml.imitation: opponents must be a table of numbers"),
])
def test_a_value_of_the_wrong_type_is_named(tmp_path, text, what):
    """Before, a wrong type reached SB3 or an env worker: 'internal error (TypeError ...)' or a traceback."""
    p = tmp_path / "c.toml"
    p.write_text(text + "\n")
    with pytest.raises(ValidationError, match=what):
        load_config(p)


def test_an_integer_is_a_number():
    cfg = load_config(CONFIGS[0])
    assert load_config(CONFIGS[0], learning_rate=1).learning_rate == 1
    assert cfg.learning_rate != 1


TWO_STAGES = "[[curriculum]]\nstart = 0.0\n[[curriculum.scenarios]]\nplayers = 5\n[[curriculum]]\nstart = 0.5\n"


@pytest.mark.parametrize(("text", "what"), [
    (TWO_STAGES + "[[curriculum.scenarios]]\nplayers = 4\nteams = 3\n",
     r"c.toml: curriculum\[1\].scenarios\[0\]: teams: team size 3 must split 4 players"),
    (TWO_STAGES + '[[curriculum.scenarios]]\nplayers = 4\n[[curriculum.scenarios]]\nversion = "grnad"\n',
     r"c.toml: curriculum\[1\].scenarios\[1\]: version: one of"),
    ('[eval_scenario]\nboard = "ring-5"\nplayers = 4\n', "c.toml: eval_scenario: board: 'ring-5' has 5 Provinces"),
    ("n_envs = 0", "c.toml: n_envs must be >= 1"),
])
def test_every_scenario_is_checked_when_the_config_loads(tmp_path, text, what):
    """Before, only the first scenario was made when the config loaded: a bad later one killed the env
    workers when the curriculum reached it, and the learner waited on them for ever."""
    p = tmp_path / "c.toml"
    p.write_text(text + "\n")
    with pytest.raises(ValidationError, match=what):
        load_config(p)


@pytest.mark.parametrize("spec", ["heuristc", "ppo:extreme"])
def test_eval_opponents_are_checked_when_the_config_loads(tmp_path, spec):
    # a typo there was refused only at the first evaluation, with the run under way
    p = tmp_path / "c.toml"
    p.write_text(f'eval_opponents = ["heuristic", "{spec}"]\n')
    with pytest.raises(ValidationError, match=f"c.toml: eval_opponents: unknown agent '{spec}'"):
        load_config(p)
    p.write_text('eval_opponents = ["heuristic", "policy:some/model.zip"]\n')  # a checkpoint loads when it plays
    assert load_config(p).eval_opponents == ["heuristic", "policy:some/model.zip"]


def test_env_options_are_checked_with_every_scenario(tmp_path):
    """A fixed seat that the first scenario has and a later one lacks killed the env workers when the
    curriculum reached it; only the first scenario was made when the config loaded."""
    p = tmp_path / "c.toml"
    p.write_text(TWO_STAGES + '[[curriculum.scenarios]]\nplayers = 3\n[env_options]\nseat = "Player#5"\n')
    with pytest.raises(ValidationError, match=r"c.toml: env_options \(with curriculum\[1\].scenarios\[0\]\): seat: "
                                              r"unknown seat 'Player#5'"):
        load_config(p)
    p.write_text(TWO_STAGES + '[[curriculum.scenarios]]\nplayers = 6\n[env_options]\nseat = "Player#5"\n')
    assert load_config(p).env_options == {"seat": "Player#5"}


@pytest.mark.parametrize("seed", [-1, 2**32])
def test_a_seed_numpy_cannot_take_is_refused_when_the_config_loads(seed):
    """Before, regent train made the run folder and then ended on numpy's 'Seed must be between 0 and 2**32 - 1'."""
    with pytest.raises(ValidationError, match=rf"smoke.toml: seed must be 0..4294967295, got {seed}"):
        load_config(Path(CONFIGS[0]).with_name("smoke.toml"), seed=seed)
    assert load_config(Path(CONFIGS[0]).with_name("smoke.toml"), seed=2**32 - 1).seed == 2**32 - 1


@pytest.mark.parametrize(("text", "what"), [
    ("n_steps = 0", r"n_steps must be >= 1 with n_steps x n_envs >= 2, got 0 x 2"),
    ("n_steps = 1\nn_envs = 1", r"n_steps must be >= 1 with n_steps x n_envs >= 2, got 1 x 1"),
    ("batch_size = 1", "batch_size must be >= 2"),
    ("n_epochs = 0", "n_epochs must be >= 1"),
    ("torch_threads = 0", "torch_threads must be >= 1"),
    ("learning_rate = 0", "learning_rate must be > 0"),
    ("gamma = 1.5", r"gamma must be in \(0, 1\]"),
    ("gae_lambda = -0.1", r"gae_lambda must be in \[0, 1\]"),
    ("clip_range = 0", "clip_range must be > 0"),
    ("net_arch = [64, 0]", r"net_arch layers must be >= 1 unit, got \[64, 0\]"),
    ("eval_episodes = 0", "eval_episodes must be >= 1 while eval_freq > 0"),
    ("[league]\ncheck_games = 0", "league.check_games must be >= 1 while the league checks"),
])
def test_ppo_values_that_fail_mid_run_are_refused_when_the_config_loads(tmp_path, text, what):
    """Before, n_steps = 0 and n_epochs = 0 ended on 'internal error (UnboundLocalError)', batch_size = 1 on NaN
    logits, check_games = 0 at the first league check and eval_episodes = 0 logged NaN, all after the run began."""
    p = tmp_path / "c.toml"
    p.write_text(text + "\n")
    with pytest.raises(ValidationError, match="c.toml: " + what):
        load_config(p)


def test_off_switches_still_load(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("eval_freq = 0\neval_episodes = 0\n[league]\nenabled = false\ncheck_games = 0\n")
    cfg = load_config(p)
    assert cfg.eval_episodes == 0 and cfg.league.check_games == 0


def test_missing_file_and_bad_toml(tmp_path):
    with pytest.raises(ValidationError, match="no config file"):
        load_config(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("x = = 1\n")
    with pytest.raises(ValidationError, match="not valid TOML"):
        load_config(bad)


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_to_toml_round_trips(tmp_path, path):
    cfg = load_config(path)
    out = tmp_path / "again.toml"
    out.write_text(to_toml(cfg))
    assert load_config(out) == cfg


def test_imitation_expert_knobs_are_checked(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text("[imitation]\ngames = 3\nexpert = { margin = 2, bid_share = 0.9 }\n")
    assert load_config(p).imitation.expert == {"margin": 2, "bid_share": 0.9}
    p.write_text("[imitation]\ngames = 3\nexpert = { margni = 2 }\n")
    with pytest.raises(ValidationError, match=r"unknown heuristic knob.*margni"):
        load_config(p)
    p.write_text("[imitation]\nrecord_share = 0.0\n")
    with pytest.raises(ValidationError, match="record_share"):
        load_config(p)
    p.write_text("target_kl = -1.0\n")
    with pytest.raises(ValidationError, match="target_kl"):
        load_config(p)


def test_the_takeover_table_reaches_the_seat_env(tmp_path):
    """[takeover] prob > 0 gives every training env its mid-game starts; prob 0 (the default) none."""
    from training.envs import LeagueSeatEnv

    p = tmp_path / "c.toml"
    p.write_text("[takeover]\nprob = 0.25\nturns = [3, 5]\nrecorders = { heuristic = 1.0 }\n")
    cfg = load_config(p)
    env = LeagueSeatEnv(cfg.curriculum, {"caretaker": 1.0}, cfg.env_options, midgame=cfg.takeover.env_kwargs())
    mid = env.current.midgame
    assert mid.prob == 0.25 and mid.turns == (3, 5) and mid.recorders == {"heuristic": 1.0}
    assert load_config(tmp_path / "c.toml", takeover=None).takeover.env_kwargs() is not None
    p.write_text("seed = 2\n")
    assert load_config(p).takeover.env_kwargs() is None
