"""The phrases a DM line may say a choice with, read before any order: ``none`` and its kin, Turn off the lights,
``no bid``, ``no purchases``, ``no snitch``, an amount alone or ``I'll go 10`` or ``All in`` where only a bid is asked
(``as_bid``), and the steps each belongs to (``BID_ONLY_STEPS``, ``BID_STEPS``, ``SNITCH_STEPS``, ``STEP_NAMES``)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.protectors.notation import NUMBER_WORDS
from engine.protectors.state import CONSOLIDATION, ORDERS

NONE_PHRASES = {("none",), ("nothing",), ("no", "orders"), ("no", "order"), ("pass",), ("none", "this", "turn"),
                ("nothing", "this", "turn"), ("no", "orders", "this", "turn"),
                # "I pass" as "pass" (was refused: "unknown order 'I'"; NO_BID)
                ("i", "pass"), ("ill", "pass"), ("i", "will", "pass"), ("pass", "this", "turn"),
                ("i", "pass", "this", "turn"),
                # "nothing from me, sorry" (was refused: "unknown order 'nothing'"; assumption NOTHING_FROM_ME)
                ("nothing", "from", "me"), ("nothing", "for", "me"), ("no", "orders", "from", "me"),
                ("nothing", "from", "me", "this", "turn")}
# rules: 003 1. Protector Ranking ("Player#5 bids nothing"): "no bid" bids 0, as "Bid nothing" does, where the step
# takes a bid (the bid steps and the Consolidation; beside a purchase it is the bid, not "none"). Was refused: "unknown
# order 'no'" (assumption NO_BID)
NO_BID_PHRASES = frozenset({("no", "bid"), ("no", "bids"), ("no", "rebid"), ("no", "bid", "this", "turn"),
                            ("no", "bid", "from", "me"), ("no", "bid", "for", "me")})
# ... and in the Bank of Lannuvár's late bid only (rules: 003 Factions, Lannuvár): was "unknown order 'No'"
NO_BANK_BID_PHRASES = frozenset({("no", "bank", "bid"), ("no", "bank", "bid", "this", "turn")})
LIGHTS_PHRASES = {("turn", "off", "the", "lights"), ("turn", "the", "lights", "off"), ("lights", "off"),
                  ("turn", "off", "lights"), ("turn", "lights", "off"), ("i", "turn", "off", "the", "lights"),
                  ("commit", "nothing"), ("commit", "none"), ("commit", "0"), ("commit", "0", "units"),
                  ("commit", "no", "units"), ("no", "commitment"), ("commit", "0", "army", "units"),
                  ("lights", "out"), ("turning", "off", "the", "lights"), ("im", "turning", "off", "the", "lights"),
                  # "I commit nothing" (session 27: refused, expected the unit count)
                  *(("i", *said) for said in (("commit", "nothing"), ("commit", "none"), ("commit", "no", "units"),
                                              ("commit", "0"), ("commit", "0", "units")))}
STEP_NAMES = {"bid": "bid", "rebid": "re-bid", "bank_bid": "Bank of Lannuvár bid", "orders": "orders",
              "dragon": "Dragon", "consolidation": "Consolidation"}


# "no purchases, bid 0": in the Consolidation, saying the DM buys nothing. Left out (and said) beside a bid, or on a
# line of its own; beside a Buy it contradicts it and both are refused (assumption DM_NEVER_GUESSED)
NO_BUY_PHRASES = {("no", "purchases"), ("no", "purchase"), ("no", "buys"), ("buy", "nothing"), ("buying", "nothing"),
                  ("nothing", "to", "buy"), ("no", "units"), ("no", "new", "units"),
                  ("no", "purchases", "this", "turn"), ("no", "buys", "this", "turn"),
                  ("no", "purchase", "this", "turn"),
                  ("no", "buy"), ("no", "buy", "this", "turn")}  # as "no purchase": was "unknown order 'No'"
NO_BUYS = "no purchases (the DM buys nothing)"
# rules: 003 Pirates! -- "If you wish to snitch on another Protector, simply submit their name": snitching is optional,
# and a DM without a Snitch line snitches on no one. "no snitch", "snitch nobody", "snitch: none" say so: left out (and
# said), in the orders step (were refused: "'nobody' is not a player"); beside a Snitch line, both are refused as a
# contradiction, as "no purchases" beside a Buy is (assumption NO_SNITCH)
NO_SNITCH = "no snitch (the DM snitches on no one)"
SNITCH_STEPS = frozenset({None, ORDERS})
_NO_ONE = (("nobody",), ("no", "one"), ("noone",), ("none",), ("nothing",))  # whom a "no snitch" phrase names
NO_SNITCH_PHRASES = frozenset({
    ("no", "snitch"), ("no", "snitching"), ("no", "snitches"), ("no", "snitch", "this", "turn"), ("not", "snitching"),
    ("im", "not", "snitching"), ("i", "dont", "snitch"), ("i", "wont", "snitch"),
    *((*verb, *on, *who) for verb in (("snitch",), ("snitching",), ("i", "snitch"), ("snitch", "on"))
      for on in ((), ("on",)) for who in _NO_ONE)
    })


def no_snitch_names_player(phrase: tuple[str, ...], seats: Mapping[str, str],
                           written: Mapping[str, str] | None = None) -> str | None:
    """Why a "no snitch" phrase (``words`` of its text) is refused when its "nobody" is also a player's name ("Snitch on
    Nobody" in a game with a player called Nobody: no Snitch, or a Snitch on that player?), else ``None``. ``seats``:
    the players' names as ``notation.seat_map`` keys them; ``written``: those names as the game writes them. Rules: 003
    Pirates!, "simply submit their name": the name may be the player's; never guessed either way (it was read as no
    Snitch). Assumption NO_SNITCH."""
    if phrase not in NO_SNITCH_PHRASES:
        return None
    who = next((" ".join(tail) for tail in _NO_ONE if phrase[-len(tail):] == tail and " ".join(tail) in seats), None)
    if who is None:
        return None
    seat, name = seats[who], (written or {}).get(who, who)
    return (f"'{' '.join(phrase)}' could say no Snitch, or a Snitch on {name} ({seat}): write 'Snitch {seat}' to "
            f"snitch on {name}, or leave the line out for no Snitch")


# the steps that take a bid and nothing else (turn 1 with factions also takes one): an amount alone is the bid
BID_ONLY_STEPS = frozenset({"bid", "rebid", "bank_bid"})
# "20", "$20", "20 realm", and a number in words ("five": docs/dm-syntax.md, up to twelve)
AMOUNT_ALONE = re.compile(r"(?:\$?[0-9][0-9,]*\$?|(?:" + "|".join(NUMBER_WORDS) + r")\b)(?:\s*(?:\$?realms?|gold))?"
                          r"[.!]?", re.IGNORECASE)  # "10 gold": $Realm (notation_words.REALM_WORDS)
# a number opening a piece of a line ("5", "$5 realm", "12 again"): in a bid step the bid with more after it, in the
# Consolidation a bid or a count; dm_pieces.number_first says what to write instead
LEADING_AMOUNT = re.compile(r"\$?(?P<amount>[0-9][0-9,]*)\$?(?=\s|$)")
# "All in" alone where only a bid is asked: bid all (the most the seat may bid: notation_grammar._ALL_BIDS, assumption
# DM_ALL)
ALL_IN = re.compile(r"(?:i'?m\s+|i\s+am\s+)?(all[\s-]+in[.!,;]*)", re.IGNORECASE)  # also "I'm all in"


_BANK_BID = re.compile(r"^((?:my\s+)?)bank\s+(?=bid\b)", re.IGNORECASE)  # "Bank bid: 12", "my bank bid is 12"


# rules: 003 1. Protector Ranking (the bid is "the amount of $Realm they wish to spend"): "I'll go 10" (also "I will go
# 10", "I'm going to go 10", "go with 10", "let's go 10", "... this turn") where only a bid is asked names one amount,
# the bid: read as Bid 10 (was refused: "starts like a greeting but says more"). In the Consolidation, where a number
# may be a count, refused saying to write 'Bid 10' (assumption GO_BID)
GO_BID = True
GO_AMOUNT = re.compile(r"(?:\b(?:ok|okay|so),?\s+)*(?:\b(?:i'?ll|i\s+will|i'?m\s+going\s+to|let'?s)\s+)?"
                       r"\bgo\s+(?:with\s+|for\s+)?"
                       r"(?P<amount>\$?[0-9][0-9,]*\$?|(?:" + "|".join(NUMBER_WORDS) + r")\b)"
                       r"(?:\s*(?:\$?realms?|gold))?(?P<turn>\s+this\s+turn)?", re.IGNORECASE)


def as_bid(text: str, step: str | None) -> str:
    """``Bid <text>`` for an amount alone (``20``, ``$20``, ``20 realm``) in a step that takes a bid and nothing
    else; in the Bank of Lannuvár's bid step (rules: 003 Lannuvár, The Bank of Lannuvár) ``bank bid`` is its bid;
    else ``text`` as it is."""
    if step == "bank_bid":
        text = _BANK_BID.sub(r"\1", text)
    if step not in BID_ONLY_STEPS:
        return text
    if AMOUNT_ALONE.fullmatch(text):
        return f"Bid {text}"
    go = GO_AMOUNT.fullmatch(text.rstrip(".!")) if GO_BID else None
    if go is not None:  # "I'll go 10 this turn"
        return f"Bid {go.group('amount')}{go.group('turn') or ''}"
    all_in = ALL_IN.fullmatch(text)
    return f"Bid {all_in.group(1)}" if all_in else text


# the steps whose DM holds a bid: there such a number could be one ("Bid 20" then "30. Thanks!")
BID_STEPS = BID_ONLY_STEPS | {CONSOLIDATION}
