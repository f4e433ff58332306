"""The shipped policies run with numpy alone: the same actions as torch, and no torch import."""

from __future__ import annotations

import io
import pickle
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from agents.checkpoints import LEVELS, make_ppo_agent
from agents.numpy_policy import NumpyPolicy, load_numpy_policy, read_state_dict
from agents.policy import PolicyAgent
from agents.registry import make_agent
from agents.runner import play_game
from engine.errors import ValidationError

RECORDED = 10_000


class _Recorder(PolicyAgent):
    """The numpy policy, keeping every (observation, mask) it decided on."""

    def __init__(self, base: PolicyAgent, sink: list):
        super().__init__(base.models, seed=1, temperature=1.0)
        self.sink = sink

    def choose(self, obs, mask):
        self.sink.append((obs.copy(), np.asarray(mask, dtype=bool).copy()))
        return super().choose(obs, mask)


@pytest.fixture(scope="module")
def recorded():
    """10,000 observations from real games: the policy in two seats of mixed boards, sampling."""
    base = make_ppo_agent("hard", 0)
    sink: list = []
    setups = [{"board": "ring-5", "players": 5}, {"board": "ring-7", "players": 7},
              {"board": "ring-10", "players": 5}]
    seed = 0
    while len(sink) < RECORDED:
        setup = {**setups[seed % len(setups)], "seed": 500 + seed}
        agents = {"Player#1": _Recorder(base, sink), "Player#2": _Recorder(base, sink),
                  "Player#3": make_agent("heuristic", seed)}
        play_game(setup, agents)
        seed += 1
    return sink[:RECORDED]


def _torch_agent(temperature: float, seed: int) -> PolicyAgent:
    pytest.importorskip("sb3_contrib")
    return PolicyAgent.load(LEVELS["hard"].path, seed, temperature, backend="torch")


@pytest.fixture(scope="module")
def torch_logits(recorded):
    """The torch backend's logits for each recorded observation, one observation a call as a seat asks for them.
    They do not depend on the temperature, so the three temperatures below share them (one torch pass, not three)."""
    slow = _torch_agent(0.0, 3)
    assert not isinstance(slow.model, NumpyPolicy)
    return [slow.logits(obs) for obs, _ in recorded]


class _TorchReplay(PolicyAgent):
    """A torch-backed agent at ``temperature`` whose ``logits`` are the torch pass's, in order: its choices are
    those the torch agent makes (``choose`` is the one both backends share), seeded as ``PolicyAgent.load``."""

    def __init__(self, temperature: float, seed: int, logits: list[np.ndarray]):
        super().__init__(_torch_agent(temperature, seed).models, seed, temperature)
        self._logits = iter(logits)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        return next(self._logits)


@pytest.mark.parametrize("temperature", [0.0, 1.0, 2.0])
def test_numpy_actions_equal_torch_on_ten_thousand_recorded_observations(recorded, torch_logits, temperature):
    assert len(recorded) == RECORDED
    fast = PolicyAgent.load(LEVELS["hard"].path, 3, temperature)
    slow = _TorchReplay(temperature, 3, torch_logits)
    assert isinstance(fast.model, NumpyPolicy) and not isinstance(slow.model, NumpyPolicy)
    chosen = [(fast.choose(obs, mask), slow.choose(obs, mask)) for obs, mask in recorded]
    assert [i for i, (a, b) in enumerate(chosen) if a != b] == []
    # the sampled levels really sample (so this is not a greedy check three times)
    greedy = PolicyAgent.load(LEVELS["hard"].path, 3, 0.0)
    off_greedy = sum(a != greedy.choose(obs, mask) for (a, _), (obs, mask) in zip(chosen, recorded, strict=True))
    assert (off_greedy > 0) == (temperature > 0)


def test_numpy_log_probs_match_torch_for_every_shipped_checkpoint(recorded):
    pytest.importorskip("sb3_contrib")
    import torch

    from agents.policy import load_model

    obs = np.stack([o for o, _ in recorded[:2000]])
    for path in sorted(LEVELS["hard"].path.parents[1].glob("*/*.zip")):
        model = load_model(path)
        with torch.no_grad():
            t, _ = model.policy.obs_to_tensor(obs)
            want = model.policy.get_distribution(t).distribution.logits.numpy()
        got = load_numpy_policy(path).log_probs(obs)
        assert got.shape == want.shape, path
        assert np.abs(got - want).max() < 1e-3, path
        assert (got.argmax(axis=1) == want.argmax(axis=1)).all(), path


def test_an_ensemble_averages_log_probabilities(recorded):
    path = LEVELS["hard"].path
    other = path.parents[1] / "protectors-ppo-v2" / "model.zip"
    one, two = PolicyAgent.load(path), PolicyAgent.load(other)
    both = PolicyAgent.load(f"{path}+{other}")
    obs = recorded[0][0]
    assert np.allclose(both.logits(obs), (one.logits(obs) + two.logits(obs)) / 2, atol=1e-6)
    assert not np.allclose(one.logits(obs), two.logits(obs))


def test_seating_a_policy_never_imports_torch():
    code = ("import sys\n"
            "from agents.registry import make_agent\n"
            "from agents.runner import play_game\n"
            "g = play_game({'board': 'ring-3', 'players': 3, 'seed': 2}, {'Player#1': make_agent('ppo:normal', 1)})\n"
            "assert g.over\n"
            "assert 'torch' not in sys.modules, 'torch was imported'\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"


def _torch_zip(entries: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def test_a_policy_file_that_references_other_code_is_refused():
    class Evil:
        def __reduce__(self):
            return (print, ("pwned",))

    blob = _torch_zip({"archive/data.pkl": pickle.dumps({"x": Evil()}, protocol=2)})
    with pytest.raises(ValidationError, match=r"may not reference (__builtin__|builtins)\.print"):
        read_state_dict(blob)


def test_a_state_dict_is_read_with_its_strides_and_offset():
    # a 2x3 float tensor stored transposed (stride (1, 2)) at offset 1 of its storage
    storage = np.arange(7, dtype="<f4")
    pid = ("storage", "FloatStorage", "0", "cpu", 7)

    class _Pickler(pickle.Pickler):
        def persistent_id(self, obj):
            return pid if obj is storage else None

    class _Rebuild:
        def __reduce__(self):
            import torch._utils as tu
            return (tu._rebuild_tensor_v2, (storage, 1, (2, 3), (1, 2), False, None))

    pytest.importorskip("torch")
    buf = io.BytesIO()
    _Pickler(buf, protocol=2).dump({"w": _Rebuild()})
    got = read_state_dict(_torch_zip({"archive/data.pkl": buf.getvalue(), "archive/data/0": storage.tobytes()}))
    want = np.lib.stride_tricks.as_strided(storage[1:], shape=(2, 3), strides=(4, 8))
    assert np.array_equal(got["w"], want)


@pytest.mark.parametrize("content", [b"", b"not a zip", _torch_zip({"data": b"{}"})])
def test_a_bad_checkpoint_is_a_clear_error(tmp_path, content):
    path = tmp_path / "model.zip"
    path.write_bytes(content)
    with pytest.raises(ValidationError, match=r"model\.zip"):
        load_numpy_policy(path)
    with pytest.raises(ValidationError, match="no checkpoint"):
        load_numpy_policy(tmp_path / "missing.zip")


def test_greedy_numpy_play_is_deterministic():
    blobs = []
    for _ in range(2):
        agents = {"Player#1": make_agent("ppo:hard", 7), "Player#2": make_agent("random", 3)}
        blobs.append(play_game({"board": "ring-4", "players": 4, "seed": 9}, agents).to_blob())
    assert blobs[0] == blobs[1]
