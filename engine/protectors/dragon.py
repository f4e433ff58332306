"""Dragon Attacks: when they start, and how a battle against the Dragon resolves.

# rules: 003 Dragon Attack (both triggers, After Burner, Hoarding table, Power Threshold),
# Resolving a Dragon Attack (outcomes table, Other events), The Mythical Worldeater, The Dragon's
# Wrath, No Quarter!.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from engine.protectors.abilities import HIGHMAGISTER_COST, HIGHMAGISTER_MAX, hide_cost
from engine.protectors.cards import BLOODLUST, DEEP_SNOW
from engine.protectors.decisions import DragonDecision
from engine.protectors.events import emit, money
from engine.protectors.state import Attack, GameState
from engine.protectors.tables import GRAND_PROTECTOR_VP, dragon_reward, min_us
from engine.protectors.victory import destroy_realm, eliminate, power_threshold

# Guard against a pathological chain of threshold attacks in one step (never reached in play:
# every Dragon victory burns or eliminates, every Protector victory resets the DPL).
MAX_CHAINED_ATTACKS = 64
FULL_COUNCIL_US = 13  # rules: 003 Cenarion — "The complete High Council will provide +13"


def active_cards(state: GameState) -> set[str]:
    """The cards in play: this turn's and those kept by The End is Nigh!."""
    cards = {c for _, c in state.cards_this_turn}
    if state.locked_cards:
        cards.update(c for _, c in state.locked_cards)
    return cards


def threshold_now(state: GameState) -> int:
    """The Power Threshold in force: lowered by Bloodlust! while it is in play (rules: 003 Bloodlust!)."""
    return power_threshold(state, BLOODLUST in active_cards(state))


def threshold_reached(state: GameState) -> bool:
    """rules: 003 — "If the DPL at any time equals or exceeds the Power Threshold the Dragon will
    immediately launch a powerful attack"."""
    return state.dpl >= threshold_now(state)


def start_attack(state: GameState, source: str) -> None:
    """rules: 003 Dragon Attack — "The Dragon will always attack with a minimum DPL of 1";
    The Mythical Worldeater: DPL >= 3 x #Provinces."""
    dpl = max(1, state.dpl)
    worldeater = dpl >= 3 * state.board.count
    active = state.active()
    state.attack = Attack(dpl, source, worldeater, active, active[0] if active else None, list(active))
    name = "The Worldeater" if worldeater else "The Dragon"
    emit(state, "dragon_attack", "003 Dragon Attack",
         f"{name} attacks the Realm with DPL {dpl} ({source.replace('_', ' ')}).",
         dpl=dpl, source=source, worldeater=worldeater)
    # rules: 003 "With great power comes great responsibility" — min.US = green Provinces (doubled by
    # the Worldeater); public: every Protector can count the green Provinces on the board.
    greens = state.green_counts()
    need = {s: min_us(greens[s], worldeater) for s in active}
    emit(state, "min_us", "003 Resolving a Dragon Attack, min.US",
         "min.US" + (" (doubled: the Worldeater)" if worldeater else "") + ": "
         + ", ".join([f"{s} {n}" for s, n in need.items()]) + ".", min_us=need)


@dataclass
class _Side:
    us: int = 0
    units: int = 0
    min_us: int = 0
    green: int = 0
    hidden: bool = False

    def __init__(self, us: int = 0, units: int = 0, min_us: int = 0, green: int = 0, hidden: bool = False) -> None:
        self.us = us
        self.units = units
        self.min_us = min_us
        self.green = green
        self.hidden = hidden

    @property
    def met(self) -> bool:
        return self.us >= self.min_us


def working_sources(state: GameState, seat: str, d: DragonDecision) -> list[str]:
    """The Provinces ``d`` commits units from that are busy with ``seat``'s own Work, work! (rules: 003 Work,
    work!: -1 to the US they provide)."""
    return [c.src for c in d.commits if c.count and state.work_orders.get(c.src, (None,))[0] == seat]


def contribution(state: GameState, seat: str, d: DragonDecision) -> tuple[int, int]:
    """(US, units committed) for one seat's commitment.

    # rules: 003 Work, work! — committed units from a Province busy with Work, work! suffer -1 to
    # the total US they provide; Cenarion, Fight fire with fire! (+1 each, the full council +13);
    # Island Rules, Enchanted weapons (+1 with at least 1 unit committed).
    """
    us = units = 0
    busy = working_sources(state, seat, d)
    for c in d.commits:
        units += c.count
        us += max(0, c.count - (1 if c.src in busy else 0))
    for a in d.abilities:
        if a.name == "fight_fire_with_fire" and a.value:
            us += FULL_COUNCIL_US if a.value >= HIGHMAGISTER_MAX else a.value
    island = state.board.island
    if island and units >= 1 and state.provinces[island].owner == seat:
        us += 1
    return us, units


def resolve_attack(state: GameState, decisions: dict[str, DragonDecision]) -> None:
    """Resolve the waiting attack with every seat's (validated, default-filled) decision."""
    att = state.attack
    if att is None:
        raise RuntimeError("no Dragon Attack to resolve")
    sides: dict[str, _Side] = {}
    greens = state.green_counts()  # nothing below changes who holds what before the battle
    for seat in att.participants:
        if state.players[seat].eliminated:
            continue
        d = decisions[seat]
        if any(a.name == "nothing_to_see_here" for a in d.abilities):
            _hide(state, seat)
            sides[seat] = _Side(hidden=True)
            continue
        for a in d.abilities:
            if a.name == "fight_fire_with_fire" and a.value:
                # rules: 003 Cenarion, Fight fire with fire! — "a maximum of 9 Highmagisters"
                n = min(a.value, HIGHMAGISTER_MAX, state.players[seat].realm // HIGHMAGISTER_COST)
                d = _summoned(d, n)
                decisions = {**decisions, seat: d}
                money(state, seat, -HIGHMAGISTER_COST * n, "003 Cenarion, Fight fire with fire!")
                state.players[seat].used.add("fight_fire_with_fire")
        us, units = contribution(state, seat, d)
        green = greens[seat]
        sides[seat] = _Side(us, units, min_us(green, att.worldeater), green)
    fighting = {s: v for s, v in sides.items() if not v.hidden}
    for seat, v in fighting.items():
        # rules: 003 Each Turn — "All orders/choices ... will be revealed to all players at the same time
        # as they are executed": each commitment is public once the attack resolves.
        lines = list(decisions[seat].texts)  # each line's text, formatted once per decision
        busy = working_sources(state, seat, decisions[seat])  # why 1 unit from P5 may give US 0
        why = f" (Work, work! in {', '.join(busy)}: -1 each)" if busy else ""
        sent = [line for line in lines if not line.startswith("Burn ")]
        burns = [line[len("Burn "):] for line in lines if line.startswith("Burn ")]
        said = "; ".join(sent) if sent else "nothing (turns off the lights)"
        if burns:  # the Provinces the seat named for the Wrath, should the Dragon win
            said += f"; names {', '.join(burns)} to burn"
        emit(state, "commitment", "003 Determine Protector US step",
             f"{seat} commits {said}: US {v.us}{why} of min.US {v.min_us}.", seat=seat, lines=lines, us=v.us,
             units=v.units, min_us=v.min_us)
    protector_us = sum(v.us for v in fighting.values())
    dpl = fought_dpl(state, att)
    won = protector_us > dpl  # rules: 003 — "Protector US needs to be higher than the current DPL"
    emit(state, "dragon_battle", "003 Resolving a Dragon Attack",
         f"Protector US {protector_us} vs DPL {dpl}" + (" (Deep Snow: -1)" if dpl != att.dpl else "") + ": "
         + ("the Protectors win!" if won else "the Dragon wins."),
         protector_us=protector_us, dpl=dpl, won=won,
         contributions={s: {"us": v.us, "units": v.units, "min_us": v.min_us} for s, v in fighting.items()})
    gp = None
    if won:
        gp = _protectors_win(state, att, fighting, decisions)
    else:
        _dragon_wins(state, att, fighting, decisions)
    # restore hidden Kalu'Ak players to their old place (rules: 003 Kalu'Ak, Nothing to see here! — "(if
    # possible) ... the same Protector Ranking"): a new Grand Protector keeps first place.
    for seat, v in sides.items():
        if v.hidden and not state.players[seat].eliminated and seat not in state.ranking:
            pos = att.ranking_before.index(seat)
            if gp is not None and pos == 0:
                pos = 1
            state.ranking.insert(min(pos, len(state.ranking)), seat)
    state.attack = None


def fought_dpl(state: GameState, att: Attack) -> int:
    """The DPL the Protector US must beat. rules: 003 Deep Snow — "All Attackers suffer -1 to their total
    Unit Strength (US)": the Dragon is the "Attacker" only under Options.deep_snow_dragon (off by default:
    the DPL is not a US); then -1, never below 1 ("The Dragon will always attack with a minimum DPL of 1")."""
    if state.options.deep_snow_dragon and DEEP_SNOW in active_cards(state):
        return max(1, att.dpl - 1)
    return att.dpl


def attack_grand_protector(state: GameState, att: Attack, fighting: dict[str, _Side]) -> str | None:
    """Who is Grand Protector in this attack (spared the Wrath; loses all $Realm instead).

    rules: 003 Kalu'Ak, Nothing to see here! — the hidden player is "regarded for all purposes as not
    being in the game ... removed temporarily from the Protector Ranking". If the Grand Protector hid,
    Options.hidden_grand_protector decides: "next" (default) = the highest-ranked seat still fighting, as
    when a Grand Protector is eliminated ("the title immediately goes to the remaining player with the
    highest score"); "none" = nobody is Grand Protector in this attack."""
    gp = att.grand_protector
    if gp is None or gp in fighting or state.players[gp].eliminated:
        return gp
    if state.options.hidden_grand_protector == "none":
        return None
    return next((s for s in att.ranking_before if s in fighting), None)


def _hide(state: GameState, seat: str) -> None:
    """rules: 003 Kalu'Ak, Nothing to see here! — "regarded for all purposes as not being in the game"
    for this battle; 25 $Realm per Province (Ashes of Power: 45, and no longer once per game)."""
    upgraded = "ashes_of_power" in _flags(state, seat)
    money(state, seat, -min(hide_cost(state, seat), state.players[seat].realm), "003 Kalu'Ak, Nothing to see here!")
    if not upgraded:
        state.players[seat].used.add("nothing_to_see_here")
    state.ranking.remove(seat)
    emit(state, "hidden", "003 Kalu'Ak, Nothing to see here!", f"{seat} disappears into the tunnels.", seat=seat)


def _summoned(d: DragonDecision, n: int) -> DragonDecision:
    """The decision with the Highmagisters actually paid for (all asked, unless $Realm ran short)."""
    from dataclasses import replace

    from engine.protectors.orders import Ability

    return replace(d, abilities=tuple(Ability(a.name, n) if a.name == "fight_fire_with_fire" else a
                                      for a in d.abilities))


def _flags(state: GameState, seat: str) -> set[str]:
    from engine.protectors.factions import ability_flags

    return ability_flags(state, seat)


def _vaporise(state: GameState, seat: str, d: DragonDecision, n: int) -> dict[str, int]:
    """Remove ``n`` committed units (:func:`losses`). Returns the units removed per Province."""
    lost = losses(state, d, n)
    for prov, k in lost.items():
        state.provinces[prov].units -= k
    return lost


def losses(state: GameState, d: DragonDecision, n: int) -> dict[str, int]:
    """The ``n`` committed units a Protector loses (rules: 003 Resolving a Dragon Attack: "Army Units contributing
    US equal to the min.US will be killed by the Dragon"; "By specifying sac 2 on Province#6 the player will lose two
    Army Units (as given by their min.US contribution) from this Province"): ``n`` is the min.US, and a ``sac`` says
    where they come from, not how many: from the ``sac`` Provinces first (up to each sac), then lowest-numbered
    (assumption SAC_ORDER), never more from a Province than was committed from it or is there. Per Province, in
    that order; nothing is changed."""
    # plain loops rather than sorted(key=lambda), min() of three and zip(strict=True): mypyc compiles
    # these to direct code where the others go through generic calls (benchmarks: Dragon resolution)
    board = state.board
    keyed = [(c.sac is None, board.number(c.src), i) for i, c in enumerate(d.commits)]
    keyed.sort()
    commits = [d.commits[k[2]] for k in keyed]
    left = n
    taken = [0] * len(commits)
    there = [state.provinces[c.src].units for c in commits]
    for i, c in enumerate(commits):
        take = c.count if c.sac is None or c.sac > c.count else c.sac
        if there[i] < take:
            take = there[i]
        if left < take:
            take = left
        there[i] -= take
        taken[i] = take
        left -= take
    for i, c in enumerate(commits):  # sac counts smaller than the losses: the rest in the same order,
        # never more than was committed from a Province (its other units stayed home)
        take = c.count - taken[i]
        if there[i] < take:
            take = there[i]
        if left < take:
            take = left
        there[i] -= take
        taken[i] += take
        left -= take
    lost: dict[str, int] = {}
    for i, c in enumerate(commits):
        k = taken[i]
        if k:
            lost[c.src] = lost.get(c.src, 0) + k
    return lost


def _outcome(state: GameState, seat: str, rule: str, lost: dict[str, int], realm: int = 0, vp: int = 0,
             bonus: int = 0) -> None:
    """One public line per Protector in the battle: units lost, $Realm rewards and bonus VP.

    # rules: 003 Resolving a Dragon Attack, outcomes table and Other events 2 — the rewards follow
    # from public facts (green Provinces, the revealed commitments), so they are public too.
    """
    n = 0
    for k in lost.values():
        n += k
    if not (n or realm or vp):
        return  # nothing happened to this seat (it committed nothing): its commitment line says so
    parts = [f"loses {n} unit{'s' if n != 1 else ''} to the Dragon ("
             + ", ".join([f"{p} {k}" for p, k in lost.items()]) + ")" if n else "loses no units"]
    if realm:
        parts.append(f"earns {realm} $Realm")
    if vp:
        parts.append(f"bonus: {vp} VP and {bonus} $Realm")
    emit(state, "dragon_outcome", rule, f"{seat} " + "; ".join(parts) + ".", seat=seat, lost=lost,
         units_lost=n, realm=realm, vp=vp, bonus_realm=bonus)


def _protectors_win(state: GameState, att: Attack, sides: dict[str, _Side],
                    decisions: dict[str, DragonDecision]) -> str | None:
    """Returns the new Grand Protector, if any."""
    rule = "003 Resolving a Dragon Attack, Protectors win"
    for seat, v in sides.items():
        d = decisions[seat]
        if v.met:
            lost = _vaporise(state, seat, d, min(v.min_us, v.units))
            reward = dragon_reward(v.green)
            money(state, seat, reward, rule)
            # rules: 003 The Mythical Worldeater — which min.US the bonus uses (Options.worldeater_bonus_min)
            base = v.green if state.options.worldeater_bonus_min == "normal" else v.min_us
            surplus = v.us - base
            vp = bonus = 0
            # rules: 003 Other events 2 — bonus rewards (b supersedes a)
            if v.us >= max(3, 3 * base):
                vp, bonus = 2, 30 * surplus
                state.players[seat].vp += vp
                money(state, seat, bonus, "003 Other events 2b, Dragon bonus for 3x min.US")
            elif v.us >= max(2, 2 * base):
                vp, bonus = 1, 15 * surplus
                state.players[seat].vp += vp
                money(state, seat, bonus, "003 Other events 2a, Dragon bonus for 2x min.US")
            _outcome(state, seat, rule, lost, reward, vp, bonus)
        else:
            _outcome(state, seat, rule, _vaporise(state, seat, d, v.units))
    # rules: 003 Other events 1 — the most US above min.US becomes Grand Protector (+3 VP); ties by
    # the ranking as it was before the attack.
    best = [(v.us - v.min_us, -att.ranking_before.index(s), s) for s, v in sides.items()
            if v.met and v.us - v.min_us > 0]
    gp = None
    if best:
        gp = max(best)[2]
        state.players[gp].vp += GRAND_PROTECTOR_VP
        state.ranking.remove(gp)
        state.ranking.insert(0, gp)
        emit(state, "grand_protector", "003 Other events 1", f"{gp} becomes Grand Protector (+3 VP).", seat=gp)
    state.dpl = 0  # rules: 003 — "If the Dragon is defeated in a battle, its DPL is reset back to 0."
    emit(state, "dpl", "003 Resolving a Dragon Attack, Other events 3", "The DPL is reset to 0.", dpl=0)
    return gp


def _dragon_wins(state: GameState, att: Attack, sides: dict[str, _Side],
                 decisions: dict[str, DragonDecision]) -> None:
    """The Dragon won: vaporise, drop, No Quarter!, Wrath, halve the DPL (no new Grand Protector)."""
    rule = "003 Resolving a Dragon Attack, Dragon wins"
    for seat, v in sides.items():
        _outcome(state, seat, rule, _vaporise(state, seat, decisions[seat], v.units))
    failed = [s for s in att.ranking_before if s in sides and not sides[s].met]
    # rules: 003 Dragon victory 1 and No Quarter!
    no_quarter: dict[str, list[str]] = {}  # seat -> its green Provinces when No Quarter! eliminated it
    if failed:
        bottom = state.ranking[-1] if state.ranking else None
        for s in failed:
            state.ranking.remove(s)
        for s in failed:
            if s == bottom:
                no_quarter[s] = state.green(s)
                emit(state, "no_quarter", "003 No Quarter!", f"No Quarter!: {s}, already at the bottom of the "
                     "Protector Ranking, is eliminated by the Dragon instead of dropping.", seat=s)
                eliminate(state, s, "dragon", "003 No Quarter!")
                destroy_realm(state, s, "003 No Quarter!")
            else:
                state.ranking.append(s)
        dropped = [s for s in failed if s not in no_quarter]
        if dropped:
            emit(state, "rank_drop", rule, f"Dropped to the bottom of the Protector Ranking: {', '.join(dropped)}.",
                 seats=dropped)
    grand_protector = attack_grand_protector(state, att, sides)
    for seat in failed:
        v = sides[seat]
        if state.players[seat].eliminated:
            if seat in no_quarter and state.options.no_quarter_wrath:
                # rules: 003 outcomes table ("Drop to the lowest rank" and "You face The Dragon's Wrath!") and
                # No Quarter! ("they will instead be eliminated"): "instead" replaces the drop; the Wrath
                # still burns the Provinces the seat held (Options.no_quarter_wrath)
                _wrath(state, seat, decisions[seat], v.min_us - v.us, no_quarter[seat])
            continue
        if seat == grand_protector:
            # rules: 003 outcomes table — "If you are the Grand Protector: Lose all $Realm". That it happens
            # is public (the table); how much is the seat's own balance, so the amount goes to it alone.
            lost_realm = state.players[seat].realm
            money(state, seat, -lost_realm, "003 Dragon wins, Grand Protector loses all $Realm")
            emit(state, "grand_protector_ruined", rule,
                 f"{seat}, the Grand Protector, fell short of min.US and loses all $Realm.", seat=seat)
            emit(state, "realm_lost", rule, f"You lose all your $Realm ({lost_realm}).", private={seat},
                 seat=seat, amount=lost_realm)
            continue
        _wrath(state, seat, decisions[seat], v.min_us - v.us)
    state.dpl = ceil(att.dpl / 2)  # rules: 003 — "cut in half (round-up)"
    emit(state, "dpl", "003 Resolving a Dragon Attack, Dragon victory 3",
         f"The DPL is cut in half: {att.dpl} -> {state.dpl}.", dpl=state.dpl)


def _wrath(state: GameState, seat: str, d: DragonDecision, shortfall: int,
           held: list[str] | None = None) -> None:
    """rules: 003 The Dragon's Wrath! — one chosen Province per US short burns, the lowest-numbered
    green Provinces when none are chosen; losing the last green Province eliminates. ``held``: the green
    Provinces of a seat No Quarter! has just eliminated (it owns nothing now; the Dragon burns them)."""
    green = state.green(seat) if held is None else [p for p in held if not state.provinces[p].burnt]
    chosen = [p for p in d.burns if p in green][:shortfall]
    for p in green:
        if len(chosen) >= shortfall:
            break
        if p not in chosen:
            chosen.append(p)
    lost = 0
    for p in chosen:
        lost += state.provinces[p].units  # "annihilated (together with any units on it)"
        state.provinces[p].burn()
    # what is still green: burning touched only the chosen Provinces
    last_burnt = bool(chosen) and all(p in chosen for p in green)
    if last_burnt or held is not None:  # rules: 003 Ashes of Power — "left behind from the Dragon eliminating
        state.ashes.update(chosen)  # a player" (Options.ashes_burnt); No Quarter!'s too
    emit(state, "wrath", "003 The Dragon's Wrath!", f"The Dragon burns {', '.join(chosen)} of {seat}"
         + (f" ({lost} unit{'s' if lost != 1 else ''} lost)." if lost else "."), seat=seat, burnt=chosen,
         units_lost=lost)
    if last_burnt and held is None:
        eliminate(state, seat, "dragon", "003 The Dragon's Wrath!")
        destroy_realm(state, seat, "003 The Dragon's Wrath! (eliminated)")
