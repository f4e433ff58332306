"""Every reading of the realm rules Regent had to choose, as named constants and one options object.

The rule texts (``../shared/rules/000``, ``001``, ``004``) refer to pages that are not there;
``../shared/design/rules-gaps.md`` restates the missing facts. Where neither settles a point, the
smallest reasonable reading is chosen here, named, and listed in ``docs/assumptions.md``.
A GM can change any of them by passing a different :class:`RealmRules` to a decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# rules: rules-gaps.md "Rounding" -- whenever a number is halved, round up.
HALVES_ROUND_UP = True

# rules: 001 §7.1 -- at most 10 of each type of Monarch Power.
MONARCH_POWER_CAP = 10
# rules: 001 §7.4 Loans -- a loan gives 5 ducats; 5+ loans forbid another; repaying costs 6.
LOAN_DUCATS = 5
LOAN_LIMIT = 5
LOAN_REPAY_COST = 6
# rules: 001 §7.5 -- the +20 Income tile once all 20 Small towns of the mat are placed.
INCOME_TILE_DUCATS = 20
INCOME_TILE_SMALL_TOWNS = 20
# rules: 004 §11.3 Active Allies -- at most 5 Allied Units.
ACTIVE_ALLY_MAX_UNITS = 5
# rules: 004 §11.1 -- no Area holds more than 5 Influence.
INFLUENCE_AREA_LIMIT = 5
# rules: 004 §11.2 / §11.3 -- 3 Marriages and 3 Alliances, one more each with the "Cabinet" Idea.
MARRIAGE_LIMIT = 3
ALLIANCE_LIMIT = 3
CABINET_IDEA = "Cabinet"


@dataclass(frozen=True, slots=True)
class BattleDie:
    """The die rolled in battles: which faces show the side's hit icon.

    **Assumption** (rules-gaps.md "Battles"): the faces are not known; default a d6 hitting on 5-6.
    """

    sides: int = 6
    hit_faces: tuple[int, ...] = (5, 6)

    def hits(self, faces: tuple[int, ...]) -> int:
        return sum(1 for f in faces if f in self.hit_faces)


@dataclass(frozen=True, slots=True)
class RealmRules:
    """The chosen readings, each named; defaults are the documented assumptions."""

    # Rebels are hostile to every PR (rules-gaps.md); are they hostile to NPRs? Assumed not, since
    # invading NPR units become Rebels and NPRs fight "alongside Rebel Units" (000 §13.4).
    rebels_hostile_to_nprs: bool = False
    # rules-gaps.md MC "Ports facing the same non-Hostile Sea Zone": an Inactive (greyed) Port is not
    # in use, so it links its Province to the Sea Zone for MC only if this is set.
    inactive_ports_link_mc: bool = False
    # 000 §13.4 halves only MC for Active Allies; NC is not halved unless this is set.
    active_ally_halves_nc: bool = False
    # 000 §13.5: the NPR's own Areas (where it owns Provinces) count as "adjacent to the NPR".
    own_areas_are_adjacent: bool = True
    # 000 §13.5 step 1: the four priorities are successive tie-breakers (a tie at one level is
    # broken by the next level among the tied Areas only).
    priorities_break_ties: bool = True
    # 000 §13.5 step 2: Provinces that already carry Unrest are skipped (Unrest is one token).
    unrest_skips_existing: bool = True
    # 000 §13.5 step 3: the invasion size uses printed Tax Value only (+1 Manpower tokens are not
    # listed among the uses of the extra Tax Value, Distant doubling is for defence only).
    invasion_counts_manpower_tokens: bool = False
    # 000 §13.4 retreat: a combined force of several NPRs fights on if the exception (Capital Area,
    # last Area) holds for any one of them.
    combined_fight_on_if_any: bool = True
    # rules-gaps.md "Battles": the die; see BattleDie.
    die: BattleDie = field(default_factory=BattleDie)
    # rules-gaps.md "Battles": each side rolls 3 base dice regardless of size.
    base_dice: int = 3
    # Battle resolver: the PR side (attacker or invaded) fights to the last unless this is "outnumbered",
    # in which case it retreats after a round in which it has fewer units.
    enemy_policy: str = "fight"
    # Battle resolver: stop after this many rounds and report the battle undecided.
    max_rounds: int = 100
    # 004 §11.3 Refusing a CtA step 3 "you lose 2" (symbol missing): read as 2 Stability, as in
    # "Cut Ties" ("Lose 2s").
    refuse_cta_stability_loss: int = 2
    refuse_cta_influence_loss: int = 5
    # 001 §7.4 Bankruptcy "loses 5" (symbol missing): read as 5 Prestige.
    bankruptcy_prestige_loss: int = 5
    # Caretaker choices (npr_controller.realms.caretaker).
    caretaker_activates_allies: bool = False
    caretaker_min_stability: int = 0
    caretaker_loans_for_upkeep: bool = False
    caretaker_upkeep_order: tuple[str, ...] = ("regular", "mercenary", "ships", "advisors")


DEFAULT_RULES = RealmRules()


def half_up(n: int) -> int:
    """Half of ``n``, rounded up (rules-gaps.md "Rounding")."""
    # rules: rules-gaps.md Rounding -- halves round up unless a rule says otherwise
    return -(-n // 2) if HALVES_ROUND_UP else n // 2
