"""A one-line reason for an AI seat's decision, worded so a GM can paste it to the players.

An agent may explain itself (``agents.base.reasons_of``: the ``last_reasons`` its last ``act`` kept, as
the steward does); then those are used. Otherwise the line is built here from the decision itself, with
the habit that made the agent choose it:
the rulebook defaults for ``caretaker``, the hand-written rules of ``heuristic`` (agents/heuristic.py)
and "the trained policy's choice" for policies. Nothing here reads what the seat may not see, and no
line names a balance: $Realm held is secret from the other players (rules: 003), and the line is for them.
"""

from __future__ import annotations

from typing import Any

from agents.base import reasons_of
from engine.protectors.decisions import BidDecision, ConsolidationDecision, Decision, DragonDecision, OrdersDecision
from engine.protectors.orders import Fortify, March, Support, Work

POLICY = "the trained policy's choice"


def reason(agent_name: str, agent: Any, decision: Decision, view: dict[str, Any]) -> str:
    """One line: what the seat decided, in words, and why (as far as the agent's habits say)."""
    own = reasons_of(agent)
    if own:
        return "; ".join(" ".join(r.split()) for r in own)
    what = describe(decision, view)
    # an agent made of two (``fair``: the policy, with the heuristic's opening bid and Dragon steps) says
    # which one decided
    decided_by = getattr(agent, "decided_by", None)
    why = _why(decided_by if decided_by in ("heuristic", "policy") else agent_name, decision, view)
    source = getattr(agent, "last_source", "")
    if source and isinstance(source, str):  # a search says which candidate won and where it came from
        why = source
    temperature = getattr(agent, "temperature", None)
    if why == POLICY:
        specialist = getattr(agent, "last_specialist", None)  # agents.checkpoints.SPECIALISTS: the table's own network
        if specialist is not None:
            why = f"{why}, by {specialist.checkpoint}, {specialist.role}"
        if isinstance(temperature, int | float) and not isinstance(temperature, bool):
            why = (f"{why}: its most likely move" if temperature == 0
                   else f"{why}, drawn at temperature {temperature:g}: this level varies its play")
    spared = getattr(agent, "last_spared", "")  # a March! the team-mate rule took out (agents/teams.py)
    if spared and isinstance(spared, str):
        why = f"{why}; {spared}" if why else spared
    return f"{what} ({why})" if why else what


def describe(decision: Decision, view: dict[str, Any]) -> str:
    """The decision in words: ``bids 15``, ``attacks Province 4 from 3 with 5 units``..."""
    if isinstance(decision, BidDecision):
        text = f"bids {decision.bid}"
        return text + (f" and picks the {decision.faction} faction" if decision.faction else "")
    if isinstance(decision, OrdersDecision):
        return _orders(decision) or "gives no orders"
    if isinstance(decision, DragonDecision):
        total = sum(c.count for c in decision.commits)
        text = f"commits {total} unit{'s' if total != 1 else ''} against the Dragon"
        if decision.burns:
            text += f" and lets {_provinces(decision.burns)} burn"
        return text
    if isinstance(decision, ConsolidationDecision):
        parts = []
        bought = sum(n for _, n in decision.buys)
        if bought:
            parts.append(f"buys {bought} unit{'s' if bought != 1 else ''} ({_alloc(decision.buys)})")
        if decision.upgrades:
            parts.append(f"upgrades {_provinces(decision.upgrades)}")
        if decision.capitol:
            parts.append(f"moves its Capitol to {_provinces([decision.capitol])}")
        parts.append(f"bids {decision.bid} for the next ranking")
        return ", ".join(parts)
    return "; ".join(decision.texts)


def _orders(d: OrdersDecision) -> str:
    parts = []
    marches = [o for o in d.orders if isinstance(o, March)]
    for m in marches:
        parts.append(f"marches {m.count} unit{'s' if m.count != 1 else ''} from {m.src} to {m.dst}"
                     + (" (golden)" if m.golden else ""))
    supports = [o for o in d.orders if isinstance(o, Support)]
    if supports:
        parts.append("supports " + ", ".join(sorted({s.target for s in supports})))
    forts = [o.src for o in d.orders if isinstance(o, Fortify)]
    if forts:
        parts.append(f"fortifies {_provinces(forts)}")
    works = [o.src for o in d.orders if isinstance(o, Work) and o.src]
    if works:
        parts.append(f"works {_provinces(works)}")
    if d.sends:
        parts.append(f"sends $Realm to {', '.join(sorted({s.to for s in d.sends}))}")
    return ", ".join(parts)


def _why(agent_name: str, decision: Decision, view: dict[str, Any]) -> str:
    base = agent_name.split(":", 1)[0]
    if base == "caretaker" or agent_name == "default":
        return "the rulebook's default for an inactive player"
    if base == "heuristic":
        return _heuristic_why(decision, view)
    if base == "random":
        return "a random legal choice"
    if base in ("ppo", "policy"):
        return POLICY
    if base == "search":  # the agent's own line (``SearchAgent.last_source``) replaces this in ``reason``
        return "the best of its candidates in simulated play-outs"
    return ""


def _heuristic_why(decision: Decision, view: dict[str, Any]) -> str:
    # the habits documented in agents/heuristic.py
    if isinstance(decision, BidDecision):
        return "aims for a high rank: the Grand Protector is spared the Dragon's Wrath"
    if isinstance(decision, OrdersDecision):
        why = []
        if any(isinstance(o, March) for o in decision.orders):
            why.append("attacks where its strength beats the defender's best case")
        else:
            why.append("no attack beats a defender's best case")
        if any(isinstance(o, Fortify) for o in decision.orders):
            why.append("fortifies where an enemy stack could strike")
        if any(isinstance(o, Work) for o in decision.orders):
            why.append("works where safe")
        return ", ".join(why)
    if isinstance(decision, DragonDecision):
        attack = view.get("attack") or {}
        dpl = attack.get("dpl", view.get("dpl"))
        total = sum(c.count for c in decision.commits)
        if not decision.commits and not decision.burns:
            return "as Grand Protector it is spared the Wrath, so it keeps its units"
        if decision.burns:
            return f"too few units to meet its min.US against DPL {dpl}"
        verbs = "unit meets its min.US or helps" if total == 1 else "units meet its min.US or help"
        return f"DPL {dpl}: {total} {verbs} beat the Dragon"
    if isinstance(decision, ConsolidationDecision):
        return "buys where threatened first and keeps $Realm under the hoarding band"
    return ""


def _provinces(names: Any) -> str:
    names = list(names)
    return ", ".join(names)


def _alloc(buys: Any) -> str:
    return ", ".join(f"{n} in {p}" for p, n in buys)
