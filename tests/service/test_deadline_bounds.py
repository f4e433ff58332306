"""hB item 6: a game's decision windows (``setup.deadlines``) are finite numbers of seconds from 0 to
a year (``deadlines.MAX_WINDOW``, the ``game.deadline extend`` bound): NaN, inf, 1e300 and 2**64 are
refused naming the step, by the service and by ``regent new --setup``."""

from __future__ import annotations

import json
import math

import pytest

from service import clock, deadlines
from service.cli import main
from service.client import ServiceError
from service.errors import RpcError

BAD = [math.nan, math.inf, -math.inf, 1e300, 2**64, -1, deadlines.MAX_WINDOW + 1, "60", True, None, [60]]


@pytest.mark.parametrize("value", BAD)
def test_windows_refuse_what_is_not_a_number_of_seconds_within_a_year(value):
    with pytest.raises(RpcError) as err:
        deadlines.windows({}, {"bid": value})
    assert err.value.code == "invalid_params" and err.value.details["field"] == "deadlines.bid"
    assert str(deadlines.MAX_WINDOW) in err.value.message


def test_the_bounds_themselves_are_windows():
    out = deadlines.windows({}, {"bid": 0, "orders": deadlines.MAX_WINDOW, "dragon": 0.5})
    assert (out["bid"], out["orders"], out["dragon"]) == (0.0, float(deadlines.MAX_WINDOW), 0.5)
    assert deadlines.MAX_WINDOW == clock.MAX_EXTEND


@pytest.mark.parametrize("value", [math.nan, math.inf, 1e300, 2**64 - 1])
def test_game_create_refuses_the_window(client, value):
    with pytest.raises(ServiceError) as err:
        client.call("game.create", setup={"board": "ring-5", "deadlines": {"bid": value}})
    assert err.value.code == "invalid_params" and err.value.details["field"] == "deadlines.bid"


def test_regent_new_refuses_the_window(tmp_path, capsys):
    setup = tmp_path / "setup.json"
    setup.write_text('{"board": "ring-3", "deadlines": {"bid": NaN}}')
    assert main(["new", str(tmp_path / "g.bin"), "--setup", str(setup)]) == 2
    err = capsys.readouterr().err
    assert "deadlines.bid" in err and "Traceback" not in err and not (tmp_path / "g.bin").exists()
    setup.write_text(json.dumps({"board": "ring-3", "deadlines": {"bid": 1e300}}))
    assert main(["new", str(tmp_path / "g.bin"), "--setup", str(setup)]) == 2
    assert "deadlines.bid" in capsys.readouterr().err
