"""Chapter 7 economy of a Player Realm: what a caretaker needs to run Income & Upkeep correctly.

Monarch Power income and the cap of 10 (001 §7.1), Interregnum (§7.2), Stability effects and costs
including beyond +/-3 (§7.3), Tax Income, upkeep, unpaid upkeep, Loans, Bankruptcy (§7.4), Towns,
Vassal tax and the +20 Income tile (§7.5). Phase steps per rules-gaps.md "Turn structure".
Functions are pure: they take a :class:`RealmState` and return a new one, writing each rule they
apply into the given :class:`engine.trace.Trace`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from engine.realms.model import MP_TYPES, Advisor, Realm, World
from engine.realms.options import (
    INCOME_TILE_DUCATS,
    INCOME_TILE_SMALL_TOWNS,
    LOAN_DUCATS,
    LOAN_LIMIT,
    MONARCH_POWER_CAP,
    RealmRules,
    half_up,
)
from engine.trace import Trace

STABILITY_MIN, STABILITY_MAX = -3, 3
STABILITY_BASE_COST = 5  # rules: 001 §7.3 -- Increase Stability costs 5 + current Stability adm


@dataclass(frozen=True, slots=True)
class RealmState:
    """The parts of a PR's mat the economy changes."""

    ducats: int
    loans: int
    stability: int
    mp: tuple[int, int, int]
    prestige: int = 0
    advisors: tuple[Advisor, ...] = ()
    mercenaries: int = 0
    bankrupt: bool = False

    @classmethod
    def of(cls, realm: Realm) -> RealmState:
        return cls(realm.ducats, realm.loans, realm.stability, realm.monarch_power, realm.prestige,
                   realm.advisors, realm.mercenaries)

    def to_dict(self) -> dict[str, Any]:
        return {"ducats": self.ducats, "loans": self.loans, "stability": self.stability,
                "monarch_power": dict(zip(MP_TYPES, self.mp, strict=True)), "prestige": self.prestige,
                "advisors": [a.name for a in self.advisors], "mercenaries": self.mercenaries,
                "bankrupt": self.bankrupt}


def base_tax_income(world: World, pr: str) -> tuple[int, str]:
    """Base Tax Income: the Town Track's income (rules-gaps.md Definitions), and where it came from."""
    realm = world.realms[pr]
    if realm.base_tax is not None:
        return realm.base_tax, "Town Track (base_tax)"
    # rules: 001 §7.5 -- each Small t gives 1 Ducat, each Large t 2
    towns = [p for p in world.owned_by(pr) if p.token == "t"]
    return sum(p.tax_value for p in towns), f"{len(towns)} Towns on the map (Small 1, Large 2)"


def has_income_tile(world: World, pr: str) -> bool:
    """001 §7.5: the +20 Income tile once all 20 Small Towns of the mat are on the map."""
    realm = world.realms[pr]
    if realm.income_tile is not None:
        return realm.income_tile
    small = sum(1 for p in world.owned_by(pr) if p.token == "t" and p.size == "small")
    return realm.base_tax is not None and small >= INCOME_TILE_SMALL_TOWNS


def vassal_tokens(world: World, pr: str) -> int:
    """``v`` tokens of a PR: one per Small Vassal Province, two per Large (004 §11.4)."""
    return sum(p.tax_value for p in world.provinces.values() if p.token == "v" and world.pr_of_token(p) == pr)


@dataclass(frozen=True, slots=True)
class Line:
    label: str
    amount: int
    rule: str
    optional: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"label": self.label, "amount": self.amount, "rule": self.rule, "optional": self.optional}


def income_and_costs(world: World, pr: str) -> list[Line]:
    """Phase 4 step B: every income source and cost (rules-gaps.md Turn structure; 001 §7.4)."""
    realm = world.realms[pr]
    base, source = base_tax_income(world, pr)
    lines = [Line(f"Base Tax Income ({source})", base, "001 §7.5")]
    if has_income_tile(world, pr):
        lines.append(Line("+20 Income tile", INCOME_TILE_DUCATS, "001 §7.5"))
    v = vassal_tokens(world, pr)
    if v:
        # rules: 001 §7.5 -- every v provides 1/2 Ducat (halves round up, rules-gaps.md)
        lines.append(Line(f"Vassal tax ({v} v x 1/2)", half_up(v), "001 §7.5"))
    # rules: 001 §7.3 -- +2 Ducats at +1 Stability or higher, -2 at -1 or lower
    if realm.stability >= 1:
        lines.append(Line("Stability +1 or higher", 2, "001 §7.3 Positive Stability"))
    elif realm.stability <= -1:
        lines.append(Line("Stability -1 or lower", -2, "001 §7.3 Negative Stability"))
    for a in realm.advisors:
        lines.append(Line(f"Advisor {a.name} ({a.kind})", -a.cost, "001 §7.2 Advisors", optional=True))
    regular = sum(u.count for u in world.units if u.realm == pr and u.kind == "army")
    if regular:
        lines.append(Line(f"{regular} Regular Units x1", -regular, "rules-gaps.md Turn structure", True))
    if realm.mercenaries:
        lines.append(Line(f"{realm.mercenaries} Mercenaries x2", -2 * realm.mercenaries,
                          "rules-gaps.md Turn structure", True))
    ships = sum(s.count for s in world.ships if s.realm == pr)
    if ships:
        lines.append(Line(f"{ships} Ships at Sea x1/2", -half_up(ships), "rules-gaps.md Turn structure", True))
    if realm.loans:
        # rules: 001 §7.4 Loans -- Interest is a mandatory Cost, 1 per Loan
        lines.append(Line(f"Interest on {realm.loans} Loans", -realm.loans, "001 §7.4 Loans and Interest"))
    return lines


def gain_mp(state: RealmState, gains: dict[str, int], trace: Trace, why: str) -> RealmState:
    """Add Monarch Power, discarding any surplus above 10 of a type (001 §7.1)."""
    mp = list(state.mp)
    for i, kind in enumerate(MP_TYPES):
        total = mp[i] + gains.get(kind, 0)
        if total > MONARCH_POWER_CAP:
            # rules: 001 §7.1 -- store at most 10 of each type; discard any surplus
            trace.add("001 §7.1", f"{kind} {total} exceeds {MONARCH_POWER_CAP}: "
                                  f"discard {total - MONARCH_POWER_CAP}")
        mp[i] = max(0, min(MONARCH_POWER_CAP, total))
    trace.add("001 §7.1", f"{why}: " + ", ".join(f"{k} {g:+d}" for k, g in gains.items() if g)
              + f" -> {dict(zip(MP_TYPES, mp, strict=True))}")
    return replace(state, mp=tuple(mp))


def change_stability(state: RealmState, delta: int, trace: Trace, why: str) -> RealmState:
    """Gain or lose Stability, with the beyond +3 / -3 conversions (001 §7.3)."""
    s, mp = state.stability, list(state.mp)
    step = 1 if delta > 0 else -1
    for _ in range(abs(delta)):
        if STABILITY_MIN <= s + step <= STABILITY_MAX:
            s += step
        elif step > 0:
            # rules: 001 §7.3 Beyond +3 -- gain 2 adm per step instead
            mp[0] = min(MONARCH_POWER_CAP, mp[0] + 2)
            trace.add("001 §7.3 Stability Beyond +3 or -3", "at +3: gain 2 adm instead")
        else:
            # rules: 001 §7.3 Beyond -3 -- lose 2 adm per step; each missing adm costs 1 of another type
            missing = max(0, 2 - mp[0])
            mp[0] = max(0, mp[0] - 2)
            for _ in range(missing):
                others = [i for i in (1, 2) if mp[i] > 0]
                if others:
                    i = max(others, key=lambda j: (mp[j], -j))
                    mp[i] -= 1
            trace.add("001 §7.3 Stability Beyond +3 or -3", f"at -3: lose 2 adm instead ({missing} missing "
                      "taken from the largest other type; ignored if none)")
    trace.add("001 §7.3", f"{why}: Stability {state.stability:+d} -> {s:+d}")
    return replace(state, stability=s, mp=tuple(mp))


def stability_cost(stability: int) -> int:
    """adm cost of the Increase Stability Basic Action: 5 + current Stability (001 §7.3)."""
    return STABILITY_BASE_COST + stability


def take_loan(state: RealmState, trace: Trace, why: str) -> RealmState | None:
    """A Loan: +5 Ducats and one more Interest token; none at 5+ Loans (001 §7.4)."""
    if state.loans >= LOAN_LIMIT:
        trace.add("001 §7.4 Loans and Interest", f"{state.loans} Loans: no further Loan is allowed")
        return None
    trace.add("001 §7.4 Loans and Interest", f"{why}: take a Loan (+{LOAN_DUCATS} Ducats, Loans "
                                             f"{state.loans} -> {state.loans + 1})")
    return replace(state, ducats=state.ducats + LOAN_DUCATS, loans=state.loans + 1)


def go_bankrupt(state: RealmState, rules: RealmRules, trace: Trace) -> RealmState:
    """001 §7.4 Bankruptcy: -3 Stability, -5 (Prestige, assumption), treasury and 3 Loans gone..."""
    trace.add("001 §7.4 Bankruptcy", "5+ Loans and a mandatory Cost unpaid: the Realm goes Bankrupt")
    state = change_stability(state, -3, trace, "Bankruptcy")
    # rules: 001 §7.4 -- lose half of each Monarch Power type (rounded up), max 3 of a type
    mp = tuple(v - min(3, half_up(v)) for v in state.mp)
    trace.add("001 §7.4 Bankruptcy", f"lose {rules.bankruptcy_prestige_loss} Prestige, discard all "
              f"{state.ducats} Ducats and 3 Loans, disband {state.mercenaries} Mercenaries, fire all Advisors, "
              f"lose half of each Monarch Power (max 3): {dict(zip(MP_TYPES, mp, strict=True))}")
    return replace(state, ducats=0, loans=max(0, state.loans - 3), mercenaries=0, advisors=(), mp=mp,
                   prestige=state.prestige - rules.bankruptcy_prestige_loss, bankrupt=True)


def monarch_power_income(realm: Realm, advisors: tuple[Advisor, ...], trace: Trace) -> dict[str, int]:
    """Phase 4 step D: Ruler (or the Interregnum council's 1) + paid Advisor skill (001 §7.1, §7.2)."""
    gains = {}
    for kind in MP_TYPES:
        # rules: 001 §7.2 Interregnum -- a regency council with Skill 1 in each field
        ruler = 1 if realm.ruler is None else realm.ruler.skill(kind)
        adv = sum(a.skill for a in advisors if a.kind == kind)
        gains[kind] = ruler + adv
    who = "Interregnum council (1 each)" if realm.ruler is None else f"Ruler {realm.ruler.name}"
    trace.add("001 §7.1", f"Total Skill Level = {who} + paid Advisors: {gains}")
    return gains


def interregnum_check(state: RealmState, realm: Realm, trace: Trace) -> RealmState:
    """Phase 3 step F: a PR without a Ruler loses 1 Stability; its Marriages flip (001 §7.2)."""
    if realm.ruler is not None:
        trace.add("001 §7.2 Ruler Death – Interregnum", f"{realm.name} has a Ruler: no effect at Phase 3 F")
        return state
    trace.add("001 §7.2 Ruler Death – Interregnum", f"{realm.name} has no Ruler at Phase 3 F: lose 1 "
                                                    "Stability, flip its Marriage tokens to Disputed Succession")
    return change_stability(state, -1, trace, "Interregnum")
