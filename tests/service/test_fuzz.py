"""Issue 8 evidence 3: random and mutated frames against a live server. It stays up, answers the
next valid request, and no game changes. 2,000 frames by default; 10,000 with ``-m slow``."""

from __future__ import annotations

import socket

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.service.helpers import ServerProcess, gm_state

DEFAULT_FRAMES = 2_000
SLOW_FRAMES = 10_000
METHODS = ["ping", "version", "methods", "game.create", "game.view", "game.pending", "game.submit", "game.assign",
           "game.advance", "game.log", "game.export", "game.import", "game.render", "npr.invasions", "npr.defend",
           "npn.plan", "nope"]


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    proc = ServerProcess(tmp_path_factory.mktemp("fuzz"), args=("--max-message", "65536")).start()
    probe = proc.client()
    game = probe.call("game.create", setup={"board": "ring-5", "seed": 4, "players": 5, "auto_advance": False})
    gid, gm, p1 = game["game_id"], game["gm_token"], game["seat_tokens"]["Player#1"]
    probe.call("game.submit", game_id=gid, token=p1, text="Bid 3")
    before = gm_state(probe, gid, gm)
    # Valid frames to mutate. Real tokens appear only with read-only methods (a mutation of three
    # bytes at most cannot turn them into a method that writes); writes carry a wrong token.
    bases = [msgpack.packb(m, use_bin_type=True) for m in (
        [0, 1, "ping", []],
        [0, 2, "game.view", [{"game_id": gid, "token": gm}]],
        [0, 3, "game.log", [{"game_id": gid, "token": p1, "since": 0}]],
        [0, 4, "game.pending", [{"game_id": gid, "token": gm}]],
        [0, 5, "game.submit", [{"game_id": gid, "token": "x" * 32, "seat": "Player#2", "text": "Bid 5"}]],
        [0, 6, "game.advance", [{"game_id": gid, "token": p1, "force": True}]],
        [0, 7, "game.create", [{"setup": {"board": "ring-5", "seed": 1}}]],
        [2, "game.view", [{"game_id": gid, "token": gm}]],
        [0, 8, "npr.invasions", [{"world": {"areas": {}}, "seed": 1}]],
    )]
    yield {"proc": proc, "probe": probe, "game": game, "before": before, "bases": bases}
    probe.close()
    proc.stop()


scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats() | st.text(max_size=20) \
    | st.binary(max_size=20)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(max_size=8) | st.integers(-(2**63), 2**63 - 1), inner, max_size=4), max_leaves=12)
rpc_like = st.tuples(st.integers(-1, 3), st.integers(-1, 2**33) | values, st.sampled_from(METHODS) | values,
                     st.lists(values, max_size=2) | values).map(lambda t: msgpack.packb(list(t), use_bin_type=True))


@st.composite
def mutated(draw, bases):
    frame = bytearray(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(("flip", "truncate", "insert", "delete")))
        i = draw(st.integers(0, max(0, len(frame) - 1)))
        if kind == "flip" and frame:
            frame[i] = draw(st.integers(0, 255))
        elif kind == "truncate":
            frame = frame[:i]
        elif kind == "insert":
            frame[i:i] = draw(st.binary(min_size=1, max_size=4))
        elif frame:
            del frame[i]
    return bytes(frame)


def send_frame(proc: ServerProcess, frame: bytes) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(proc.unix)
        s.sendall(frame)


def fuzz(live, frames: int) -> None:
    strategy = st.binary(max_size=300) | rpc_like | mutated(live["bases"]) | st.lists(
        mutated(live["bases"]) | rpc_like, min_size=2, max_size=5).map(b"".join)

    @settings(max_examples=frames, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(frame=strategy)
    def one(frame: bytes) -> None:
        send_frame(live["proc"], frame)
        assert live["probe"].call("ping") == "pong"  # the server is up and answers the next request

    one()
    assert live["proc"].alive()
    game = live["game"]
    assert gm_state(live["probe"], game["game_id"], game["gm_token"]) == live["before"]
    # Nothing escaped the handlers: every log line is structured and none is an error.
    lines = live["proc"].log_path.read_text().splitlines()
    assert all(line.startswith("{") for line in lines), [ln for ln in lines if not ln.startswith("{")][:5]
    assert not [r for r in live["proc"].logs() if r["level"] in ("error", "critical")]


def test_fuzz_frames(live):
    fuzz(live, DEFAULT_FRAMES)


@pytest.mark.slow
def test_fuzz_frames_long(live):
    fuzz(live, SLOW_FRAMES)
