"""A shipped MLP policy run with numpy alone: no torch at load or at inference.

An SB3 checkpoint (``model.zip``) holds its weights in ``policy.pth``, a torch state dict: a zip
whose ``data.pkl`` pickles an ``OrderedDict`` of tensors that point at raw little-endian storages
under ``data/``. :func:`read_state_dict` reads that format with a restricted unpickler (it can build
the dict and tensors and nothing else, so a hostile checkpoint cannot run code), and
:class:`NumpyPolicy` runs the actor half of the network: the flattened observation through
``mlp_extractor.policy_net`` (Linear, activation, ... ) and ``action_net``, then a log-softmax, as
torch's ``Categorical(logits=...)`` normalises them. The value head is never needed to act.

A cold CLI start that seats a policy pays for numpy and the weights (~30 ms) instead of
``import torch`` (~2.3 s), and a server holding a policy stays small (docs/benchmarks.md,
``benchmarks/policy_bench.py``). ``tests/agents/test_numpy_policy.py`` checks the actions equal
torch's on 10,000 recorded observations.
"""

from __future__ import annotations

import io
import json
import pickle
import zipfile
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np

from engine.errors import ValidationError

# torch storage class name -> numpy dtype (little-endian, as torch writes them)
STORAGE_DTYPES = {
    "FloatStorage": "<f4", "DoubleStorage": "<f8", "HalfStorage": "<f2", "LongStorage": "<i8",
    "IntStorage": "<i4", "ShortStorage": "<i2", "CharStorage": "i1", "ByteStorage": "u1", "BoolStorage": "?",
}
# SB3's default activation for an ActorCriticPolicy is Tanh; these are the ones we can run.
ACTIVATIONS = {"Tanh": np.tanh, "ReLU": lambda x: np.maximum(x, 0)}
DEFAULT_ACTIVATION = "Tanh"


class _Storage:
    """A storage's dtype and key until the tensor that uses it is rebuilt."""

    def __init__(self, dtype: str, key: str):
        self.dtype, self.key = dtype, key


def _rebuild_tensor(storage: Any, offset: int, size: tuple, stride: tuple, *_: Any) -> tuple:
    return ("tensor", storage, offset, tuple(size), tuple(stride))


class _StateDictUnpickler(pickle.Unpickler):
    """Unpickles a torch state dict and refuses every other global (no code runs)."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("collections", "OrderedDict"):
            return OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild_tensor
        if module == "torch" and name in STORAGE_DTYPES:
            return name
        raise pickle.UnpicklingError(f"a policy file may not reference {module}.{name}")

    def persistent_load(self, pid: Any) -> _Storage:
        if not (isinstance(pid, tuple) and len(pid) >= 3 and pid[0] == "storage" and pid[1] in STORAGE_DTYPES):
            raise pickle.UnpicklingError(f"unknown persistent id {pid!r:.60}")
        return _Storage(STORAGE_DTYPES[pid[1]], str(pid[2]))


def read_state_dict(blob: bytes, where: str = "policy.pth") -> dict[str, np.ndarray]:
    """The tensors of a torch state-dict file (``torch.save`` zip format) as numpy arrays."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(blob))
        names = archive.namelist()
        pkl = next(n for n in names if n.endswith("/data.pkl") or n == "data.pkl")
        root = pkl[: -len("data.pkl")]
        raw = _StateDictUnpickler(io.BytesIO(archive.read(pkl))).load()
        out: dict[str, np.ndarray] = {}
        for name, value in raw.items():
            if not (isinstance(value, tuple) and value and value[0] == "tensor"):
                continue
            _, storage, offset, size, stride = value
            data = np.frombuffer(archive.read(f"{root}data/{storage.key}"), dtype=storage.dtype)
            item = data.itemsize
            out[name] = np.lib.stride_tricks.as_strided(
                data[offset:], shape=size, strides=tuple(s * item for s in stride)).copy()
        return out
    except (zipfile.BadZipFile, StopIteration, KeyError, pickle.UnpicklingError, ValueError, EOFError,
            TypeError, AttributeError) as err:
        raise ValidationError("checkpoint", f"{where} is not a readable policy state dict ({err})") from None


class NumpyPolicy:
    """The actor of an SB3 ``MlpPolicy`` / ``MaskableActorCriticPolicy`` in numpy."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], head: tuple[np.ndarray, np.ndarray],
                 activation: str = DEFAULT_ACTIVATION, source: str = ""):
        if activation not in ACTIVATIONS:
            raise ValidationError("checkpoint", f"{source}: activation {activation} is not supported "
                                                f"without torch (known: {', '.join(ACTIVATIONS)})")
        self.layers = [(w.T.copy(), b) for w, b in layers]  # x @ W.T + b, stored transposed once
        self.head = (head[0].T.copy(), head[1])
        self.activation = ACTIVATIONS[activation]
        self.source = source

    @property
    def obs_size(self) -> int:
        return (self.layers[0][0] if self.layers else self.head[0]).shape[0]

    def log_probs(self, obs: np.ndarray) -> np.ndarray:
        """Normalised logits (log-softmax) for one observation or a batch, in float32 as torch does."""
        x = np.asarray(obs, dtype=np.float32)
        for w, b in self.layers:
            x = self.activation(x @ w + b)
        z = x @ self.head[0] + self.head[1]
        m = z.max(axis=-1, keepdims=True)
        return z - (m + np.log(np.exp(z - m).sum(axis=-1, keepdims=True)))

    @classmethod
    def from_state_dict(cls, state: dict[str, np.ndarray], activation: str = DEFAULT_ACTIVATION,
                        source: str = "") -> NumpyPolicy:
        layers, i = [], 0
        while f"mlp_extractor.policy_net.{i}.weight" in state:
            layers.append((state[f"mlp_extractor.policy_net.{i}.weight"], state[f"mlp_extractor.policy_net.{i}.bias"]))
            i += 2  # policy_net is Linear, activation, Linear, activation, ...
        if "action_net.weight" not in state:
            raise ValidationError("checkpoint", f"{source}: no action_net in the policy (not an SB3 MLP policy)")
        return cls(layers, (state["action_net.weight"], state["action_net.bias"]), activation, source)


def _activation_name(data: dict[str, Any]) -> str:
    """The activation a checkpoint's ``policy_kwargs`` names (SB3's default when it names none)."""
    kwargs = data.get("policy_kwargs") or {}
    fn = kwargs.get("activation_fn") if isinstance(kwargs, dict) else None
    if fn is None:
        return DEFAULT_ACTIVATION
    text = json.dumps(fn)
    return next((name for name in ACTIVATIONS if f"nn.modules.activation.{name}" in text
                 or f"'{name}'" in text), "unsupported")


def load_numpy_policy(path: str | Path) -> NumpyPolicy:
    """The actor of an SB3 checkpoint zip, read without torch."""
    p = Path(path)
    try:
        with zipfile.ZipFile(p) as z:
            data = json.loads(z.read("data"))
            blob = z.read("policy.pth")
    except FileNotFoundError:
        raise ValidationError("checkpoint", f"no checkpoint at {path}") from None
    except (zipfile.BadZipFile, KeyError, json.JSONDecodeError, IsADirectoryError, PermissionError) as err:
        raise ValidationError("checkpoint", f"{path} is not an SB3 checkpoint zip ({err})") from None
    return NumpyPolicy.from_state_dict(read_state_dict(blob, f"{p.name}:policy.pth"),
                                       _activation_name(data), source=str(path))
