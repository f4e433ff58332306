"""Reminders, as a property: whatever the times the bot happens to look, each threshold is covered
by at most one message, nothing is posted after the deadline, and a message is posted only when a
threshold not yet covered has been crossed. And every report says who an AI played."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from service.discord.bridge import due_reminders, with_ai_line

thresholds = st.lists(st.floats(1, 10**6, allow_nan=False), min_size=1, max_size=5, unique=True)


@given(thresholds, st.lists(st.floats(-10**4, 2 * 10**6, allow_nan=False), min_size=1, max_size=30))
def test_each_threshold_is_reminded_at_most_once(ts, lefts):
    ts = sorted(ts, reverse=True)
    reminded: list[float] = []
    posts = 0
    for left in sorted(lefts, reverse=True):  # time goes on: less and less left
        crossed = due_reminders(ts, left, reminded)
        if crossed:
            posts += 1
            assert left > 0 and all(left <= t for t in crossed)
            assert not set(crossed) & set(reminded)
            reminded += crossed
        else:
            assert left <= 0 or all(left > t or t in reminded for t in ts)
    assert posts <= len(ts) and len(reminded) == len(set(reminded))


@given(thresholds, st.floats(1, 2 * 10**6, allow_nan=False), st.floats(1, 2 * 10**6, allow_nan=False))
def test_no_threshold_the_step_began_inside_of_is_reminded(ts, window, left):
    left = min(left, window)
    assert all(t < window for t in due_reminders(ts, left, [], window))


@given(st.text(max_size=200))
def test_every_report_carries_the_ai_line(report):
    out = with_ai_line(report)
    assert "Played by AI:" in out and out.startswith(report.rstrip("\n"))
    assert out.count("Played by AI:") == max(1, report.count("Played by AI:"))
