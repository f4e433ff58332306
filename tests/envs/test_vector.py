"""Gymnasium's own vector envs over the seat env (envs/vector.py): ``gym.make_vec`` batches every info key, and the
seat env's ``result`` (``None`` until the game ends, then a map) made it fail as soon as one env's game ended while
another's went on (``'numpy.ndarray' object has no attribute 'get'``)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401  (registers regent/Protectors-v0)
from engine.errors import ValidationError
from envs.vector import VectorInfo, make_vector


def _play(vec, ends_wanted: int, seed: int = 1) -> list[tuple[int, list[bool], list[str | None]]]:
    """Random masked actions until ``ends_wanted`` games have ended: (step, terminated, the ended games' 'how')."""
    rng = np.random.default_rng(seed)
    obs, info = vec.reset(seed=seed)
    ends, seen = 0, []
    for t in range(5000):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, _, term, _trunc, info = vec.step(acts)
        assert vec.single_observation_space.contains(obs[0])
        if term.any():
            assert (info["_result"] == term).all()  # the result is there for exactly the envs whose game ended
            seen.append(
                (t, term.tolist(), [h if e else None for h, e in zip(info["result"]["how"], term, strict=True)])
            )
            ends += int(term.sum())
        else:
            assert not info.get("_result", np.zeros(1, bool)).any()
        if ends >= ends_wanted:
            return seen
    raise AssertionError(f"only {ends} games ended")


def test_make_vec_plays_games_to_their_end_in_every_env():
    vec = gym.make_vec("regent/Protectors-v0", num_envs=2, players=3)
    assert isinstance(vec, gym.vector.SyncVectorEnv)
    seen = _play(vec, ends_wanted=6)
    assert all(
        how for _, term, hows in seen for how, e in zip(hows, term, strict=True) if e
    )  # each ended game says how
    assert any(not all(term) for _, term, _ in seen)  # one game ended while the other went on
    again = _play(gym.make_vec("regent/Protectors-v0", num_envs=2, players=3), ends_wanted=6)
    assert again == seen  # a seed gives the same games


def test_the_wrapper_makes_gymnasiums_own_sync_vector_env_work_too():
    vec = gym.make_vec("regent/Protectors-v0", num_envs=2, vectorization_mode="sync", wrappers=[VectorInfo], players=3)
    assert len(_play(vec, ends_wanted=3)) >= 2


def test_the_single_env_keeps_its_info_and_the_wrapper_its_mask():
    single = gym.make("regent/Protectors-v0", players=3)
    _, info = single.reset(seed=0)
    assert info["result"] is None  # the documented contract (docs/envs.md, Info) is unchanged
    wrapped = VectorInfo(single.unwrapped)
    _, info = wrapped.reset(seed=0)
    assert "result" not in info and (wrapped.action_masks() == info["action_mask"]).all()


@pytest.mark.parametrize("n", [0, -1, 1.5, True, "2"])
def test_a_bad_number_of_envs_is_refused_naming_it(n):
    with pytest.raises(ValidationError, match="num_envs"):
        make_vector(n, players=3)
