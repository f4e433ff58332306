"""Elimination, Victory Points and the three ways a game ends.

# rules: 003 "There are 3 ways for the game to end" (Last man standing!, Time's Up!, Fire and
# blood!) and Team Games (team victory and its tie-breakers).
"""

from __future__ import annotations

from engine.protectors.events import emit, money
from engine.protectors.state import OVER, GameState
from engine.protectors.tables import (
    ISLAND_VP,
    LEVEL_VP,
    dragon_victory_burnt,
    dragon_victory_eliminated,
)


def eliminate(state: GameState, seat: str, by: str, rule: str) -> None:
    """Remove a seat from the game: its units leave the board, it owns nothing, its rank is gone.

    # rules: 003 "When a player is eliminated from the game any remaining units they may have on
    # the game board are removed from play." / "Should the Grand Protector be eliminated ... the
    # title immediately goes to the remaining player with the highest score".
    """
    p = state.players[seat]
    if p.eliminated:
        return
    p.eliminated = True
    p.eliminated_turn = state.turn
    p.eliminated_by = by
    for prov in state.board.all_provinces:
        pr = state.provinces[prov]
        if pr.owner == seat:
            pr.owner, pr.units = None, 0
    if seat in state.ranking:
        state.ranking.remove(seat)
    state.eliminated_this_turn.append(seat)
    if by == "dragon":
        state.dragon_eliminations += 1
    emit(state, "eliminated", rule, f"{seat} is eliminated ({by}).", seat=seat, by=by)


def destroy_realm(state: GameState, seat: str, rule: str) -> None:
    money(state, seat, -state.players[seat].realm, rule)


def power_threshold(state: GameState, bloodlust: bool = False) -> int:
    """rules: 003 Dragon's Power Level and the Power Threshold — 2 x (#Provinces - #Eliminated),
    with the Normal version's floor of #Provinces; Bloodlust! lowers it by the number of starting
    players (instead of 2) per player eliminated this turn, never below 1."""
    n = state.board.count
    eliminated = sum(1 for p in state.players.values() if p.eliminated)
    threshold = 2 * (n - eliminated)
    if state.options.version == "normal":
        threshold = max(threshold, n)
    if bloodlust:
        this_turn = len(state.eliminated_this_turn)
        threshold -= this_turn * (state.starting_players - 2)
        # rules: 003 Bloodlust! note — "can not be reduced below 1": by default Bloodlust! may go below
        # the Normal floor; Options.bloodlust_below_floor False keeps the floor
        if state.options.version == "normal" and not state.options.bloodlust_below_floor:
            threshold = max(threshold, n)
    return max(1, threshold)


def province_vp(state: GameState, prov: str) -> int:
    """rules: 003 Time's Up! — a Province's VPs by level (burnt ones count as lvl 0); the Island 3."""
    if prov == state.board.island:
        return ISLAND_VP
    pr = state.provinces[prov]
    return LEVEL_VP[0 if pr.burnt else pr.level]


def victory_points(state: GameState, seat: str) -> int:
    """rules: 003 Time's Up! — the seat's Provinces' VPs plus VPs earned against the Dragon."""
    return state.players[seat].vp + sum(province_vp(state, p) for p in state.owned(seat))


def standings(state: GameState) -> tuple[dict[str, int], dict[str, int]]:
    """(Provinces held, victory points) of every seat, in one pass over the board."""
    count = dict.fromkeys(state.players, 0)
    vps = {s: p.vp for s, p in state.players.items()}
    for prov, pr in state.provinces.items():
        if pr.owner is not None:
            count[pr.owner] += 1
            vps[pr.owner] += province_vp(state, prov)
    return count, vps


def dragon_has_won(state: GameState) -> bool:
    """rules: 003 Fire and blood! — half the starting players (rounded up) eliminated by the Dragon,
    or 66% (rounded up) of the Provinces burnt."""
    burnt = sum(1 for p in state.board.provinces if state.provinces[p].burnt)
    return (state.dragon_eliminations >= dragon_victory_eliminated(state.starting_players)
            or burnt >= dragon_victory_burnt(state.board.count))


def _sides(state: GameState) -> dict[str, list[str]]:
    """Teams in a team game, else each seat alone. Keys are team names or seats."""
    out: dict[str, list[str]] = {}
    for seat in state.players:
        team = state.team_of(seat)
        out.setdefault(seat if team is None else team, []).append(seat)
    return out


def check_end(state: GameState) -> bool:
    """Check Fire and blood! and Last man standing! now. Returns True if the game ended.

    # rules: 003 — "The Dragon is victorious if victory conditions 1 and 3 are fulfilled at the same
    # time."
    """
    if state.step == OVER:
        return True
    # Nothing that ends a game changed since the last check: skip the work (the engine asks often).
    dead = burnt = 0  # plain loops: faster than sum(map(attrgetter)) interpreted and compiled alike
    for p in state.players.values():
        if p.eliminated:
            dead += 1
    for pr in state.provinces.values():
        if pr.burnt:
            burnt += 1
    key = (dead, state.dragon_eliminations, burnt, len(state.ranking))
    if key == state.end_key:
        return False
    state.end_key = key
    if dragon_has_won(state) or not state.active():
        _finish(state, "dragon", None, "003 Fire and blood!")
        return True
    if state.options.teams:
        alive = [k for k, seats in _sides(state).items()
                 if any(not state.players[s].eliminated for s in seats)]
    else:  # each seat its own side
        alive = [s for s, p in state.players.items() if not p.eliminated]
    if len(alive) == 1:
        _finish(state, "last_man_standing", alive[0], "003 Last man standing!")
        return True
    return False


def times_up(state: GameState) -> None:
    """rules: 003 Time's Up! — most VPs; ties: most Army Units, most $Realm, highest ranked.
    Team games add the members' VPs, units and $Realm (rules: 003 Team Games)."""
    if check_end(state):
        return
    rank = {s: i for i, s in enumerate(state.ranking)}
    table = []
    for key, seats in _sides(state).items():
        live = [s for s in seats if not state.players[s].eliminated]
        if not live:
            continue
        # rules: 003 Team Games, Time's Up! — "calculate the VPs for each team member individually":
        # eliminated members' VPs count only under Options.team_vp_eliminated (team games only)
        counted = seats if state.options.teams and state.options.team_vp_eliminated else live
        vp = sum(victory_points(state, s) for s in counted)
        units = sum(state.units_of(s) for s in live)
        realm = sum(state.players[s].realm for s in live)
        best = min(rank.get(s, 99) for s in live)
        table.append((key, vp, units, realm, best))
    table.sort(key=lambda r: (-r[1], -r[2], -r[3], r[4]))
    _finish(state, "times_up", table[0][0], "003 Time's Up!",
            table=[{"side": k, "vp": v, "units": u, "realm": r} for k, v, u, r, _ in table],
            told=_standings_told(state, table))


def team_told(team: str) -> str:
    """A team as players read it: ``team North``, or the name alone when it says so itself (``Team North``, not
    ``team Team North``)."""
    return team if team.casefold().split(" ", 1)[0] == "team" else f"team {team}"


def _standings_told(state: GameState, table: list[tuple[str, int, int, int, int]]) -> str:
    """The Time's Up! table in words: every side's VPs, and what broke a tie at the top (rules: 003 Time's
    Up!, "Most Army Units, Most $Realm, ... the highest ranked player"). A side's $Realm is named only when
    it decided the game (the rules make it public then)."""
    def side(k: str) -> str:
        return team_told(k) if state.options.teams else k

    out = "VPs: " + ", ".join(f"{side(k)} {v}" for k, v, *_ in table)
    if len(table) > 1 and table[0][1] == table[1][1]:
        (k, _, u, r, _), (_, _, u2, r2, _) = table[0], table[1]
        if u != u2:
            out += f"; tied on VPs, {side(k)} has more Army Units ({u} to {u2})"
        elif r != r2:
            out += f"; tied on VPs and Army Units, {side(k)} has more $Realm ({r} to {r2})"
        else:
            out += f"; tied on VPs, Army Units and $Realm, {side(k)} holds the highest place in the Protector Ranking"
    return out


HOW_WORDS = {"dragon": "Fire and blood!", "last_man_standing": "Last man standing!", "times_up": "Time's Up!"}
"""rules: 003 "There are 3 ways for the game to end": each end as the rulebook names it"""


def how_told(how: str | None) -> str:
    """A game's end as players read it (reports, the Discord channel, pictures): its rulebook name, and
    who won when it is the Dragon."""
    name = HOW_WORDS.get(how or "", how or "ended")
    return f"{name} The Dragon wins" if how == "dragon" else name


def _finish(state: GameState, how: str, winner: str | None, rule: str, told: str = "", **extra) -> None:
    state.step = OVER
    vps = {s: victory_points(state, s) for s in state.players if not state.players[s].eliminated}
    state.result = {"how": how, "winner": winner, "turn": state.turn, "vp": vps, **extra}
    # in words players read (the report names seats by display name; a team game's winner is a team)
    who = "The Dragon wins" if winner is None else f"{team_told(winner)} wins" if state.options.teams else \
        f"{winner} wins"
    emit(state, "game_over", rule, f"Game over ({HOW_WORDS.get(how, how)}): {who}." + (f" {told}." if told else ""),
         how=how, winner=winner)
