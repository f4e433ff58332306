"""hB item 4: a served game's ``policy:<path>`` agents load only checkpoint files under the server's
checkpoint directories (the shipped ``checkpoints/`` and ``regent serve --checkpoint-dir``), of
bounded size, and every refusal is the same sentence whatever the file was (no probing the server's
files); ``game.create``, ``players[i].agent``, ``expiry.fill`` and ``game.import`` refuse a bad agent
the same way ``game.assign`` does."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from service import ai, gamefile
from service.client import ServiceError
from tests.service.helpers import ROOT, ServerProcess

SETUP = {"board": "ring-5", "players": 5, "seed": 3, "auto_advance": False}
SHIPPED = ROOT / "checkpoints" / "protectors-ppo-v4" / "model.zip"
OUTSIDE = ["/dev/zero", "/nonexistent/x.zip", "/etc/passwd", "/tmp", "../../../../etc/hostname",
           "policy-dir-that-is-not-there/model.zip"]


def refusal(client, method, **fields) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        client.call(method, **fields)
    assert err.value.code == "invalid_params"
    return err.value


def generic(message: str, name: str) -> str:
    """The message with the name the client gave taken out (what is left must not vary)."""
    return message.replace(repr(name), "NAME")


def test_assign_refuses_every_file_outside_the_checkpoint_dirs_with_one_sentence(client, tmp_path):
    g = client.call("game.create", setup=SETUP)
    outside = tmp_path / "model.zip"
    shutil.copy(SHIPPED, outside)  # a real checkpoint, but not under a checkpoint directory
    texts = set()
    for path in [*OUTSIDE, str(outside)]:
        name = f"policy:{path}"
        err = refusal(client, "game.assign", game_id=g["game_id"], token=g["gm_token"], seat="Player#1", agent=name)
        assert err.details["field"] == "agent" and "checkpoint" in err.message
        texts.add(generic(err.message, name))
    assert len(texts) == 1, texts
    view = client.call("game.view", game_id=g["game_id"], token=g["gm_token"])
    assert view["controllers"]["Player#1"] is None


def test_create_and_import_refuse_a_bad_agent_like_assign(client):
    name = "policy:/nonexistent.zip"
    g = client.call("game.create", setup=SETUP)
    assign = refusal(client, "game.assign", game_id=g["game_id"], token=g["gm_token"], seat="Player#2", agent=name)
    for setup, field in (({**SETUP, "agents": {"Player#2": name}}, "setup.agents.Player#2"),
                         ({**SETUP, "players": [{"name": "a"}, {"name": "b", "agent": name}, {}, {}, {}]},
                          "setup.agents.Player#2"),
                         ({**SETUP, "expiry": {"auto": True, "fill": name}}, "setup.expiry.fill")):
        err = refusal(client, "game.create", setup=setup)
        assert err.details["field"] == field
        assert err.message.split(": ", 1)[1] == assign.message.split(": ", 1)[1]
    blob = client.call("game.export", game_id=g["game_id"], token=g["gm_token"])["blob"]
    gf = gamefile.loads(blob)
    gf.agents["Player#2"] = name
    err = refusal(client, "game.import", blob=gamefile.dumps(gf))
    assert err.details["field"] == "blob.agents.Player#2"
    assert err.message.split(": ", 1)[1] == assign.message.split(": ", 1)[1]


def test_shipped_checkpoints_are_served_by_relative_path(client):
    g = client.call("game.create", setup={**SETUP, "agents": {"Player#3": "policy:protectors-ppo-v4/model.zip"}})
    for name in ("policy:checkpoints/protectors-ppo-v4/model.zip@1.5", f"policy:{SHIPPED}",
                 "policy:protectors-ppo-v4/model"):
        out = client.call("game.assign", game_id=g["game_id"], token=g["gm_token"], seat="Player#1", agent=name)
        assert out["controller"] == name
    err = refusal(client, "game.assign", game_id=g["game_id"], token=g["gm_token"], seat="Player#1",
                  agent="policy:protectors-ppo-v4/model.zip@nan")
    assert "temperature" in err.message


def test_checkpoint_dir_flag_adds_a_directory(tmp_path):
    extra = tmp_path / "mine"
    extra.mkdir()
    shutil.copy(SHIPPED, extra / "good.zip")
    (extra / "text.zip").write_text("not a zip")
    with open(extra / "huge.zip", "wb") as f:  # sparse: over the size limit without using the disk
        f.truncate(ai.MAX_CHECKPOINT_BYTES + 1)
    os.symlink("/dev/zero", extra / "zero.zip")
    (extra / "sub").mkdir()
    proc = ServerProcess(tmp_path, args=("--checkpoint-dir", str(extra))).start()
    try:
        with proc.client() as c:
            g = c.call("game.create", setup=SETUP)
            out = c.call("game.assign", game_id=g["game_id"], token=g["gm_token"], seat="Player#1",
                         agent=f"policy:{extra / 'good.zip'}")
            assert out["controller"] == f"policy:{extra / 'good.zip'}"
            c.call("game.assign", game_id=g["game_id"], token=g["gm_token"], seat="Player#2", agent="policy:good.zip")
            texts = set()
            for bad in ("text.zip", "huge.zip", "zero.zip", "sub", "missing.zip"):
                name = f"policy:{extra / bad}"
                err = refusal(c, "game.assign", game_id=g["game_id"], token=g["gm_token"], seat="Player#3", agent=name)
                texts.add(generic(err.message, name))
            assert len(texts) == 1, texts
            assert c.call("ping") == "pong"
    finally:
        proc.stop()
    reasons = " ".join(str(e.get("msg")) for e in proc.logs())
    assert "not a regular file" in reasons or "outside" in reasons  # the log says why; the reply did not


def test_a_served_file_must_stay_inside_the_checkpoint_dirs(tmp_path):
    inside = tmp_path / "dir"
    inside.mkdir()
    (tmp_path / "secret.zip").write_bytes(b"PK")
    os.symlink(tmp_path / "secret.zip", inside / "link.zip")
    (inside / "ok.zip").write_bytes(b"PK")
    dirs = (Path(os.path.realpath(inside)),)
    assert ai._served_file("ok.zip", dirs)[0] == dirs[0] / "ok.zip"
    assert ai._served_file("link.zip", dirs)[0] is None
    assert ai._served_file("../secret.zip", dirs)[0] is None
    assert ai._served_file(str(tmp_path / "secret.zip"), dirs)[0] is None
    assert ai._served_file("ok.zip\x00", dirs)[0] is None
