"""A structured ``decision`` map for ``game.submit``, turned into the GM's DM text (protocol.md).

Structured and text submissions are the same thing: the map is written out as DM lines and parsed
by the engine, so the stored action log (and its replay) is identical either way. Keys::

    bid: int, faction: str                                  (bid, rebid, bank_bid; bid also consolidation)
    orders: [{"order": "march"|"support"|"fortify"|"work", "from"|"province": P, "to": P,
              "count": int, "player": seat, "golden": bool, "delayed": bool}]
    send: [{"to": seat, "amount": int}], snitch: seat, ferry: [P]           (orders)
    commit: [{"from": P, "count": int, "sac": int}], burn: [P]               (dragon)
    buy: {P: int}, upgrade: [P], capitol: P                                  (consolidation)
    lines: [str]                                                             (any further DM lines)
"""

from __future__ import annotations

from typing import Any

from service.errors import invalid

KEYS = ("bid", "faction", "orders", "send", "snitch", "ferry", "commit", "burn", "buy", "upgrade", "capitol",
        "lines")
ORDER_KEYS = {"order", "from", "province", "to", "count", "player", "golden", "delayed"}


def _int(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise invalid(field, "must be an integer >= 0")
    return value


def _str(value: Any, field: str) -> str:
    # one line as the DM reader splits lines (str.splitlines: \r, \x0b, \x85, \u2028 too), or a field smuggles
    # in another order (a from of 'P1\rSend 7 to Player#2')
    if not isinstance(value, str) or not value or value.splitlines() != [value]:
        raise invalid(field, "must be a non-empty one-line string")
    return value


def _flag(value: Any, field: str) -> bool:
    if value is not None and not isinstance(value, bool):  # "golden": "no" is not a Golden order
        raise invalid(field, "must be true or false")
    return bool(value)


def _list(value: Any, field: str) -> list:
    if not isinstance(value, list):
        raise invalid(field, "must be a list")
    return value


def _order(o: Any, field: str) -> str:
    if not isinstance(o, dict):
        raise invalid(field, "must be a map")
    unknown = sorted(str(k) for k in o if k not in ORDER_KEYS)
    if unknown:
        raise invalid(f"{field}.{unknown[0]}", f"unknown key; expected {', '.join(sorted(ORDER_KEYS))}")
    kind = o.get("order")
    prefix = ("Delayed " if _flag(o.get("delayed"), f"{field}.delayed") else "") + (
        "Golden " if _flag(o.get("golden"), f"{field}.golden") else "")
    src = _str(o.get("from", o.get("province")), f"{field}.from")
    if kind == "march":
        count = _int(o.get("count"), f"{field}.count")
        return f"{prefix}March! {count} from {src} to {_str(o.get('to'), f'{field}.to')}"
    if kind == "support":
        target = _str(o.get("to"), f"{field}.to")
        return f"{prefix}Support! {_str(o.get('player'), f'{field}.player')} in {target} from {src}"
    if kind == "fortify":
        return f"{prefix}Fortify! {src}"
    if kind == "work":
        return f"{prefix}Work, work! {src}"
    raise invalid(f"{field}.order", "must be one of march, support, fortify, work")


def to_text(decision: Any) -> str:
    """The DM text for a structured decision; ``invalid_params`` names the first bad field."""
    if not isinstance(decision, dict):
        raise invalid("decision", "must be a map")
    unknown = sorted(str(k) for k in decision if k not in KEYS)
    if unknown:
        raise invalid(f"decision.{unknown[0]}", f"unknown key; expected {', '.join(KEYS)}")
    d = decision
    lines: list[str] = []
    for i, o in enumerate(_list(d.get("orders", []), "decision.orders")):
        lines.append(_order(o, f"decision.orders[{i}]"))
    for i, s in enumerate(_list(d.get("send", []), "decision.send")):
        if not isinstance(s, dict):
            raise invalid(f"decision.send[{i}]", "must be a map {to, amount}")
        lines.append(f"Send {_int(s.get('amount'), f'decision.send[{i}].amount')} to "
                     f"{_str(s.get('to'), f'decision.send[{i}].to')}")
    if "snitch" in d:
        lines.append(f"Snitch {_str(d['snitch'], 'decision.snitch')}")
    for i, p in enumerate(_list(d.get("ferry", []), "decision.ferry")):
        lines.append(f"Ferry {_str(p, f'decision.ferry[{i}]')}")
    for i, c in enumerate(_list(d.get("commit", []), "decision.commit")):
        if not isinstance(c, dict):
            raise invalid(f"decision.commit[{i}]", "must be a map {from, count, sac?}")
        count = _int(c.get("count"), f"decision.commit[{i}].count")
        text = f"{count} from {_str(c.get('from'), f'decision.commit[{i}].from')}"
        if c.get("sac") is not None and _int(c["sac"], f"decision.commit[{i}].sac"):
            text += f" (sac {c['sac']})"
        lines.append(text)
    for i, p in enumerate(_list(d.get("burn", []), "decision.burn")):
        lines.append(f"Burn {_str(p, f'decision.burn[{i}]')}")
    if "buy" in d:
        if not isinstance(d["buy"], dict) or not d["buy"]:
            raise invalid("decision.buy", "must be a non-empty map Province -> count")
        lines.append("Buy " + " ".join(f"{_int(n, f'decision.buy.{p}')} in {_str(p, 'decision.buy')}."
                                       for p, n in d["buy"].items()))
    for i, p in enumerate(_list(d.get("upgrade", []), "decision.upgrade")):
        lines.append(f"Upgrade {_str(p, f'decision.upgrade[{i}]')}")
    if "capitol" in d:
        lines.append(f"Capitol {_str(d['capitol'], 'decision.capitol')}")
    if "bid" in d:
        lines.append(f"Bid {_int(d['bid'], 'decision.bid')}")
    if "faction" in d:
        lines.append(f"Faction {_str(d['faction'], 'decision.faction')}")
    for i, line in enumerate(_list(d.get("lines", []), "decision.lines")):
        lines.append(_str(line, f"decision.lines[{i}]"))
    return "\n".join(lines)
