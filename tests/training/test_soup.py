"""``training.soup``: the soup's weights are the members' mean, it loads and plays like any checkpoint, and a
member of another shape is refused by name (v5 is the soup of v4 and four checkpoints trained on from it)."""

from __future__ import annotations

import pytest
import torch

from engine.errors import ValidationError
from tests.training.helpers import tiny_model
from training.soup import main, soup


def test_the_soup_is_the_mean_of_its_members(tmp_path):
    from sb3_contrib import MaskablePPO

    members = [tiny_model([16, 16], seed=s) for s in (1, 2, 3)]
    paths = []
    for i, m in enumerate(members):
        paths.append(tmp_path / f"m{i}.zip")
        m.save(paths[-1])
    done = soup(tmp_path / "soup.zip", paths)
    assert done["members"] == [str(p) for p in paths]
    got = MaskablePPO.load(tmp_path / "soup.zip", device="cpu").policy.state_dict()
    for name, value in got.items():
        want = sum(m.policy.state_dict()[name].double() for m in members) / 3
        assert torch.allclose(value.double(), want, atol=1e-6), name
    assert not torch.equal(got["mlp_extractor.policy_net.0.weight"],
                           members[0].policy.state_dict()["mlp_extractor.policy_net.0.weight"])


def test_the_soup_plays_through_the_policy_agent(tmp_path):
    from agents.heuristic import HeuristicAgent
    from agents.policy import PolicyAgent
    from agents.runner import play_game

    for s in (1, 2):
        tiny_model([16, 16], seed=s).save(tmp_path / f"m{s}.zip")
    soup(tmp_path / "soup.zip", [tmp_path / "m1.zip", tmp_path / "m2.zip"])
    agent = PolicyAgent.load(tmp_path / "soup.zip", seed=0)
    game = play_game({"board": "ring-3", "players": 3, "seed": 3},
                     {"Player#1": agent, "Player#2": HeuristicAgent(1), "Player#3": HeuristicAgent(2)})
    assert game.over


def test_a_member_of_another_shape_is_refused(tmp_path):
    tiny_model([16, 16], seed=1).save(tmp_path / "a.zip")
    tiny_model([8], seed=2).save(tmp_path / "b.zip")
    with pytest.raises(ValidationError, match=r"b\.zip does not fit .*a\.zip's network"):
        soup(tmp_path / "soup.zip", [tmp_path / "a.zip", tmp_path / "b.zip"])
    assert not (tmp_path / "soup.zip").exists(), "nothing is written when a member is refused"


def test_the_cli_names_a_missing_member_in_one_line(tmp_path, capsys):
    tiny_model([16, 16], seed=1).save(tmp_path / "a.zip")
    assert main([str(tmp_path / "soup.zip"), str(tmp_path / "a.zip"), str(tmp_path / "gone.zip")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no checkpoint at" in err and "gone.zip" in err
    assert main([str(tmp_path / "soup.zip"), str(tmp_path / "a.zip")]) == 2
    assert "at least two checkpoints" in capsys.readouterr().err
    (tmp_path / "notes.zip").write_text("not a zip")
    assert main([str(tmp_path / "soup.zip"), str(tmp_path / "a.zip"), str(tmp_path / "notes.zip")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "notes.zip is not a MaskablePPO checkpoint SB3 can read" in err


def test_an_output_it_cannot_write_is_one_line(tmp_path, capsys):
    for s in (1, 2):
        tiny_model([16], seed=s).save(tmp_path / f"m{s}.zip")
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder")
    assert main([str(blocker / "soup.zip"), str(tmp_path / "m1.zip"), str(tmp_path / "m2.zip")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"training.soup: soup: {blocker / 'soup.zip'}: cannot write")
