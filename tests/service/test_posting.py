"""service.posting.split_messages: chat-sized messages that lose and reorder nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.posting import DISCORD_LIMIT, split_messages

_TEXT = st.text(alphabet=st.sampled_from(list("ab \n\r$#é😀")), max_size=400)


@settings(max_examples=300, deadline=None)
@given(text=_TEXT, limit=st.integers(min_value=1, max_value=60))
def test_split_keeps_every_character_in_order_and_respects_the_limit(text, limit):
    parts = split_messages(text, limit)
    assert "".join(parts) == text
    assert all(1 <= len(part) <= limit for part in parts)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.text(alphabet="abc $", max_size=30), min_size=1, max_size=40),
       limit=st.integers(min_value=31, max_value=200))
def test_lines_that_fit_are_never_cut(lines, limit):
    """Every line no longer than the limit (with its newline) lands whole in one message."""
    text = "\n".join(lines) + "\n"
    parts = split_messages(text, limit)
    for part in parts[:-1]:
        assert part.endswith("\n")
    pieces = [line for part in parts for line in part.split("\n")[:-1]]
    assert pieces == lines


def test_default_limit_is_discords_2000():
    line = "x" * 99 + "\n"
    parts = split_messages(line * 50)
    assert DISCORD_LIMIT == 2000
    assert [len(p) for p in parts] == [2000, 2000, 1000]


def test_a_long_line_is_cut_after_a_space():
    assert split_messages("aaa bbb ccc", 5) == ["aaa ", "bbb ", "ccc"]


def test_a_long_line_without_spaces_is_cut_hard():
    assert split_messages("abcdefg\nh", 3) == ["abc", "def", "g\nh"]


def test_empty_text_gives_no_messages():
    assert split_messages("") == []


@pytest.mark.parametrize("limit", [0, -3, 2.5, True, "10"])
def test_bad_limit_is_a_named_error(limit):
    with pytest.raises(ValueError, match="limit"):
        split_messages("abc", limit)


def test_non_string_text_is_a_named_error():
    with pytest.raises(ValueError, match="text must be a string"):
        split_messages(b"abc")  # type: ignore[arg-type]
