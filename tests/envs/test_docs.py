"""docs/envs.md against the code: the tables users read must add up to what the envs really do."""

from __future__ import annotations

import re
from pathlib import Path

from agents.spaces import encoding as E
from agents.spaces import layout as L

DOC = (Path(__file__).parents[2] / "docs" / "envs.md").read_text(encoding="utf-8")


def table(header: str) -> list[list[str]]:
    """The rows of the markdown table whose header line starts with ``header`` (cells stripped)."""
    lines = DOC[DOC.index(header):].splitlines()
    rows = []
    for line in lines[2:]:  # skip the header and the --- line
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split("|")])
    return rows


def features(cell: str) -> int:
    """Floats a feature list stands for: ``(N)`` or ``(N: ...)`` is N, any other feature 1."""
    total = 0
    for item in cell.split(";"):
        m = re.search(r"\((\d+)(?:\)|:)", item)
        total += int(m.group(1)) if m else 1
    return total


def test_the_observation_table_adds_up_to_the_encoder():
    real = {"global": (1, E.G_SIZE), "players": (L.MAX_PLAYERS, E.P_F), "provinces": (L.N_PROV, E.V_F),
            "choice": (1, E.C_SIZE)}
    rows = table("| block | size | features |")
    assert [r[0] for r in rows] == list(real)
    for name, size, feats in rows:
        count, per = (int(x) for x in size.split(" x ")) if " x " in size else (1, int(size))
        assert (count, per) == real[name], f"{name}: the doc says {size}"
        assert features(feats) == per, f"{name}: the features listed add up to {features(feats)}, not {per}"
    assert f"## Observation: `Box(float32, {E.OBS_SIZE})`" in DOC
    assert sum(c * p for c, p in real.values()) == E.OBS_SIZE


def test_the_ability_and_card_one_hots_are_the_real_lengths():
    choice = dict((r[0], r[2]) for r in table("| block | size | features |"))
    assert f"ability offered one-hot ({len(E.ABILITY_NAMES)}:" in choice["choice"]
    assert f"cards in play one-hot ({len(E.CARD_NAMES)}:" in choice["global"]


def test_the_action_table_is_the_layout():
    rows = table("| section | size | meaning |")
    assert {r[0]: int(r[1]) for r in rows} == {k: n for k, (_, n) in L.SECTIONS.items()}
    assert f"## Actions: one `Discrete({L.ACTION_SIZE})` space" in DOC


def params(cls) -> list[str]:
    import inspect

    return [p for p in inspect.signature(cls.__init__).parameters if p != "self"]


def test_the_seat_env_options_table_is_its_signature():
    from envs.seat_env import ProtectorsSeatEnv

    documented = [r[0].strip("`") for r in table("| option | default | meaning |")]
    assert sorted(documented) == sorted(params(ProtectorsSeatEnv))


def test_the_parallel_env_signature_is_written_out_and_the_rest_named_absent():
    from envs.parallel_env import ProtectorsParallelEnv
    from envs.seat_env import ProtectorsSeatEnv

    sig = DOC[DOC.index("`ProtectorsParallelEnv("):].split(")`", 1)[0]
    assert re.findall(r"(\w+)=", sig) == params(ProtectorsParallelEnv)
    section = DOC[DOC.index("## ProtectorsParallelEnv"):]
    for missing in set(params(ProtectorsSeatEnv)) - set(params(ProtectorsParallelEnv)):
        assert f"`{missing}`" in section.split("do not exist here")[0], missing


def test_the_documented_reset_options_are_the_ones_read():
    from envs import parallel_env, seat_env

    for key in seat_env.RESET_OPTIONS:
        assert f"`{key}`" in DOC[DOC.index("`reset(options=...)` reads"):DOC.index("**Info.**")]
    assert parallel_env.RESET_OPTIONS == ("game_seed",) and "reads only\n`game_seed`" in DOC
