"""``game.submit``'s structured ``decision`` map is written out as the rulebook's DM lines."""

from __future__ import annotations

import pytest

from engine.protectors.notation import parse_text
from service.errors import RpcError
from service.structured import to_text

EVERY_KEY = {
    "orders": [{"order": "march", "from": "P7", "to": "P6", "count": 4, "golden": True, "delayed": True},
               {"order": "support", "player": "Player#2", "to": "P2", "from": "P1"},
               {"order": "work", "province": "P4"}, {"order": "fortify", "from": "P5"}],
    "send": [{"to": "Player#2", "amount": 4}], "snitch": "Player#5", "ferry": ["P3"],
    "commit": [{"from": "P6", "count": 2, "sac": 2}], "burn": ["P3"], "buy": {"P6": 2, "P5": 1},
    "upgrade": ["P2"], "capitol": "P3", "bid": 3, "faction": "Hodir", "lines": ["Nothing to see here!"],
}
EXPECTED = [
    "Delayed Golden March! 4 from P7 to P6", "Support! Player#2 in P2 from P1", "Work, work! P4", "Fortify! P5",
    "Send 4 to Player#2", "Snitch Player#5", "Ferry P3", "2 from P6 (sac 2)", "Burn P3", "Buy 2 in P6. 1 in P5.",
    "Upgrade P2", "Capitol P3", "Bid 3", "Faction Hodir", "Nothing to see here!",
]


def test_every_key_becomes_the_dm_line_the_engine_parses_back():
    text = to_text(EVERY_KEY)
    assert text.splitlines() == EXPECTED
    assert [line.text() for line in parse_text(text)] == EXPECTED  # the notation's own normal form


@pytest.mark.parametrize("decision, field", [
    ([], "decision"),
    ({"bid": "ten"}, "decision.bid"),
    ({"bid": True}, "decision.bid"),
    ({"orders": [{"order": "charge", "from": "P1"}]}, "decision.orders[0].order"),
    ({"orders": [{"order": "march", "from": "P1", "to": "P2"}]}, "decision.orders[0].count"),
    ({"orders": [{"order": "fortify", "from": "P1\nBid 99"}]}, "decision.orders[0].from"),
    # any line break the DM reader splits on (str.splitlines) would smuggle another order in
    ({"orders": [{"order": "fortify", "from": "P1\rSend 7 to Player#2"}]}, "decision.orders[0].from"),
    ({"send": [{"to": "Player#2\u2028Bid 9", "amount": 1}]}, "decision.send[0].to"),
    ({"lines": ["Fortify! P1\x85Bid 9"]}, "decision.lines[0]"),
    ({"snitch": "Player#2\x0bBid 9"}, "decision.snitch"),
    ({"orders": [{"order": "fortify", "from": "P1", "colour": "red"}]}, "decision.orders[0].colour"),
    ({"buy": {}}, "decision.buy"),
    ({"orders": [{"order": "fortify", "from": "P1", "golden": "no"}]}, "decision.orders[0].golden"),  # was Golden
    ({"orders": [{"order": "fortify", "from": "P1", "delayed": 1}]}, "decision.orders[0].delayed"),
    ({"commit": [{"from": "P1", "count": 1, "sac": ""}]}, "decision.commit[0].sac"),  # was left out
    ({"commit": [{"from": "P1", "count": -1}]}, "decision.commit[0].count"),
    ({"tea": 1}, "decision.tea"),
])
def test_bad_fields_are_named(decision, field):
    with pytest.raises(RpcError) as err:
        to_text(decision)
    assert err.value.code == "invalid_params" and err.value.details["field"] == field
