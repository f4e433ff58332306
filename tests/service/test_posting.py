"""service.posting.split_messages: chat-sized messages that lose and reorder nothing a reader could see."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.posting import DISCORD_LIMIT, split_messages

_TEXT = st.text(alphabet=st.sampled_from(list("ab \n\r$#é😀")), max_size=400)


@settings(max_examples=300, deadline=None)
@given(text=_TEXT, limit=st.integers(min_value=1, max_value=60))
def test_split_keeps_every_character_in_order_and_respects_the_limit(text, limit):
    parts = split_messages(text, limit)
    joined = "".join(parts)
    assert re.sub(r"\s", "", joined) == re.sub(r"\s", "", text)
    assert _is_subsequence(joined, text)
    assert all(1 <= len(part) <= limit and part.strip() for part in parts)


def _is_subsequence(short: str, long: str) -> bool:
    rest = iter(long)
    return all(char in rest for char in short)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("ab$#é😀 ")), min_size=1, max_size=400).map(lambda t: "x" + t),
       limit=st.integers(min_value=1, max_value=60))
def test_a_text_without_blank_lines_or_long_space_runs_is_kept_whole(text, limit):
    """Only whitespace no message could hold is ever left out: with a visible character in every cut, none is."""
    parts = split_messages(text, limit)
    if all(part.strip() for part in _raw_cuts(text, limit)):
        assert "".join(parts) == text


def _raw_cuts(text: str, limit: int) -> list[str]:
    """The pieces before blank ones are joined: what split_messages cuts, checked by the test above."""
    pieces, line = [], text
    while len(line) > limit:
        space = line.rfind(" ", 0, limit)
        cut = space + 1 if space > 0 else limit
        pieces.append(line[:cut])
        line = line[cut:]
    return [*pieces, line]


def test_a_blank_line_between_a_full_message_and_a_long_line_is_never_a_message_of_its_own():
    """Discord refuses a message of only whitespace as empty (it did get one: a full part, a blank line, a line
    over the limit)."""
    text = "a" * 1999 + "\n" + "\n" + "b " * 1500
    parts = split_messages(text)
    assert all(part.strip() for part in parts)
    assert all(len(part) <= DISCORD_LIMIT for part in parts)
    assert "".join(parts) == text.replace("\n\n", "\n", 1)  # the blank line fits in neither neighbour
    assert split_messages("a" * 1998 + "\n" + "\n" + "b " * 1500)[0] == "a" * 1998 + "\n\n"


def test_a_text_of_only_whitespace_gives_no_messages():
    assert split_messages("\n\n  \n") == []


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.text(alphabet="abc $", max_size=30), min_size=1, max_size=40),
       limit=st.integers(min_value=31, max_value=200))
def test_lines_that_fit_are_never_cut(lines, limit):
    """Every line no longer than the limit (with its newline) lands whole in one message; lines of only
    whitespace may be left out where no message holds them."""
    text = "\n".join(lines) + "\n"
    parts = split_messages(text, limit)
    for part in parts[:-1]:
        assert part.endswith("\n")
    pieces = [line for part in parts for line in part.split("\n")[:-1]]
    assert [line for line in pieces if line.strip()] == [line for line in lines if line.strip()]


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


def test_a_step_that_left_nothing_public_has_its_lines_under_its_own_turn():
    # 16 seats: a Consolidation nobody bought in, then the next turn's bids: adjudicate printed its Played by AI and
    # Rulebook defaults lines first, above turn 6's header, read as nobody knew which turn's
    from service.posting import under_turn

    done = ["Played by AI: Ann (heuristic)", "Rulebook defaults for: Cat in the consolidation step"]
    report = "== Turn 6 ==\n- Bids: Ann 12, Cat 0"
    assert under_turn(report, 5, done).split("\n") == ["== Turn 5 ==", *done, "== Turn 6 ==", "- Bids: Ann 12, Cat 0"]
    assert under_turn("", 5, done).split("\n") == ["== Turn 5 ==", *done]  # nothing public at all
    busy = "== Turn 5 ==\n- Ann buys 1 in P1.\n== Turn 6 ==\n- Bids: Ann 12, Cat 0"  # its own header: said once
    assert under_turn(busy, 5, done).split("\n") == ["== Turn 5 ==", "- Ann buys 1 in P1.", *done, "== Turn 6 ==",
                                                     "- Bids: Ann 12, Cat 0"]
    assert under_turn(busy, 5, []) == busy
