"""The AI levels decide as they did when tests/agents/data/decisions.json was recorded (session 31, before ``expert``'s
play-outs were made faster): ``expert``'s orders with every candidate's mean play-out score at 5 and 7 seats, the
heuristic's at 5, 7, 16 seats and in a team game, and the final state digests of two full games with several levels
seated. A speed change must leave all of it equal. A rule change that means to change play rewrites the fixture:
``python -m benchmarks.decision_record --fixture`` (benchmarks/decision_record.py; its full run covers more)."""

from __future__ import annotations

import json

from benchmarks.decision_record import FIXTURE, differences, fixture


def test_the_levels_decide_as_recorded():
    expected = json.loads(FIXTURE.read_text())
    assert any("expert" in row for row in expected["decisions"]) and expected["games"]
    assert differences(expected, fixture()) == []
