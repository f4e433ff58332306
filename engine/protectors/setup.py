"""Building a game state from a ``setup`` map (``../shared/design/protocol.md``).

# rules: 003 Setup — each player starts with 1 Province, 1 Army Unit and 50 $Realm; Normal (as
# many Provinces as players) or Grand (2x or more); Team Games — team-mates start as neighbours,
# the teams' placement is random.
"""

from __future__ import annotations

import json
import random
import re
import secrets
import unicodedata
from typing import Any

from engine.errors import ValidationError
from engine.protectors import cards as C
from engine.protectors.board import MAX_PLAYERS, MIN_PLAYERS, Board
from engine.protectors.close_names import unknown_keys
from engine.protectors.colours import check_colour, colour_names, default_colour, fold, seat_colours
from engine.protectors.factions import check_faction
from engine.protectors.notation import seat_map
from engine.protectors.position_import import POSITION_KEYS, import_position
from engine.protectors.state import BID, GameState, Options, Player, Province
from engine.protectors.tables import START_REALM, START_UNITS

SETUP_KEYS = {"rules", "seed", "board", "players", "options", "position"}
PLAYER_KEYS = {"seat", "name", "faction", "team", "start", "colour"}
# A setup without a seed gets one from ``secrets`` (issue 23: seedless games used to share seed 0, so
# anyone could replay one offline). 63 bits: too many to guess, and still a plain msgpack/JSON integer.
SEED_BITS = 63


def fresh_seed() -> int:
    """An unpredictable seed for a game whose setup gives none."""
    return secrets.randbits(SEED_BITS)


# Before seeds were drawn, a setup without one played seed 0: a record written then (a game file, a
# stored game) replays with it, never with a fresh seed.
LEGACY_SEED = 0


# Reading options that changed play after games were stored (docs/assumptions.md, "Reading options"): a new
# game writes each into its setup; a stored record whose setup does not name one was played before it
# existed and replays under the reading it was played with, so a running game brought to a newer Regent
# plays on exactly as its players were told.
LEGACY_READINGS: dict[str, Any] = {"no_quarter_wrath": False}  # session 17


def replay_setup(setup: Any) -> Any:
    """The setup a stored record replays with: its own seed, or the old default if it has none; the readings
    of ``LEGACY_READINGS`` it does not name, as they were before they existed."""
    if not isinstance(setup, dict):
        return setup
    out = setup if setup.get("seed") is not None else {**setup, "seed": LEGACY_SEED}
    opts = setup.get("options")
    if opts is None or isinstance(opts, dict):
        missing = {k: v for k, v in LEGACY_READINGS.items() if k not in (opts or {})}
        if missing:
            out = {**out, "options": {**(opts or {}), **missing}}
    return out


__all__ = ["POSITION_KEYS", "SETUP_KEYS", "build_state"]  # POSITION_KEYS: the position's keys (position_import.py)


def _players(spec: Any) -> list[dict[str, Any]]:
    if isinstance(spec, int) and not isinstance(spec, bool):
        spec = [{"seat": f"Player#{i}"} for i in range(1, spec + 1)]
    if not isinstance(spec, list):
        raise ValidationError("players", "must be a list of players or a player count")
    if not MIN_PLAYERS <= len(spec) <= MAX_PLAYERS:
        raise ValidationError("players", f"{len(spec)} players; the game is for 2 to 16")
    out = []
    for i, p in enumerate(spec):
        if not isinstance(p, dict):
            example = f"{{\"name\": {json.dumps(p)}}}" if isinstance(p, str) and len(p) <= MAX_NAME_CHARS else \
                "{\"name\": \"Alice\"}"
            raise ValidationError(f"players[{i}]", f"must be a map, like {example} (keys: seat, name, faction, team, "
                                                   "start, colour)")
        unknown = set(p) - PLAYER_KEYS
        if unknown:
            raise ValidationError(f"players[{i}]", unknown_keys(unknown, PLAYER_KEYS))
        seat = p.get("seat", f"Player#{i + 1}")
        if seat != f"Player#{i + 1}":
            raise ValidationError(f"players[{i}].seat", f"seats are Player#1..Player#N in order; expected "
                                                        f"'Player#{i + 1}', got {seat!r}")
        fac = p.get("faction")
        if fac is not None:
            fac = check_faction(fac, f"players[{i}].faction")
        colour = check_colour(p["colour"], f"players[{i}].colour") if p.get("colour") is not None else None
        out.append({"seat": seat, "name": str(p.get("name") or seat), "faction": fac,
                    "team": _check_team(p.get("team"), i), "start": p.get("start"), "colour": colour})
    seat_colours(out)  # two seats never share a colour (rules: 003 Orders, "a unique colour")
    return out


def _check_team(team: Any, i: int) -> str | None:
    """A seat's ``team``: a name or a number (as the service's setup check takes it), or None. rules: 003 Team
    Games, "Players form up before the game starts to create teams": a team is told apart from another by its name,
    so a list or a map (which crashed the setup) is refused naming the field, and so is an empty name in a team game
    (``build_state``: "every player needs a team"). A number is kept as its text, so ``1`` and ``"1"`` are one
    team and a team numbered 0 is told apart from "no team" (``victory._sides``)."""
    if team is not None and (isinstance(team, bool) or not isinstance(team, (str, int))):
        raise ValidationError(f"players[{i}].team", f"a team is a name or a number, not {type(team).__name__}")
    return None if team is None else str(team)


# A display name's length: Discord's own limit for one, and the colours' (colours.MAX_COLOUR_CHARS); a report's
# lines and a DM's names stay readable (assumption DISPLAY_NAMES)
MAX_NAME_CHARS = 32
# a name written as a seat id, as the DM reader and the service's seat labels read one: "Player#2", "player 2",
# "@Player #2", "**Player2**", and the short "P2", "p#2" (service/seat_names.py reads labels with seat_number)
_SEAT_LIKE = re.compile(r"(?:player|p)#?0*([0-9]+)", re.IGNORECASE)


def seat_number(text: str) -> int | None:
    """The seat number ``text`` names as a seat id (``Player#2``, ``player 2``, ``**P2**``, ``p#02``: 2), spaces and
    chat markup aside; ``None`` when it is no seat id. A new game's display name may not be one (:func:`_check_name`),
    and the service reads a GM's seat label with it."""
    m = _SEAT_LIKE.fullmatch(re.sub(r"[\s*`~_@]", "", text))
    return int(m.group(1)) if m is not None else None
# bidirectional embeddings, overrides and isolates: they reorder the text after them on the reader's screen
_BIDI = frozenset(map(chr, range(0x202A, 0x202F))) | frozenset(map(chr, range(0x2066, 0x206A)))
# invisible format characters a name may hold: the joiners (emoji sequences, Persian and Indic names) and the tag
# characters of subdivision flag emoji; any other (a zero-width space, a word joiner, a soft hyphen) would make
# "Bob" and "B\u200bob" two names that look the same in Discord and in the reports
_VISIBLE_FORMAT: frozenset[str] = frozenset("\u200c\u200d") | frozenset(map(chr, range(0xE0020, 0xE0080)))


def _check_text(text: str, where: str, what: str) -> None:
    """A name a new game's reports and pictures show (a display name, a team's): one line (no control character: a
    newline would write lines of its own into the public report and split a picture's table cell), and nothing
    invisible (two names would look the same). Only new games are checked (``check_new_names``)."""
    bad = next((c for c in text if unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") or c in _BIDI), None)
    if bad is not None:
        raise ValidationError(where, f"{what} is one line of text, without control characters (it has "
                                     f"U+{ord(bad):04X})")
    hidden = next((c for c in text if unicodedata.category(c) == "Cf" and c not in _VISIBLE_FORMAT), None)
    if hidden is not None:
        raise ValidationError(where, f"{what} may not hold an invisible character (it has U+{ord(hidden):04X}): "
                                     "two names would look the same")


def _check_name(name: Any, i: int) -> str:
    """A new game's ``players[i].name``: text of 1 to MAX_NAME_CHARS characters, on one line (no control
    character: a name with a newline would write lines of its own into the public report), that is not another
    seat's id (``Player#3`` as Player#1's name would send Player#1 the orders meant for Player#3)."""
    where = f"players[{i}].name"
    if isinstance(name, str):
        _check_text(name, where, "a display name")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_CHARS:
        shown = f"{len(name)} characters" if isinstance(name, str) else type(name).__name__
        raise ValidationError(where, f"a display name is text of 1 to {MAX_NAME_CHARS} characters (here: {shown}); "
                                     "leave it out for none")
    # rules: 003 Orders: "this colour or/and a player's Discord name can be used to specify players", and the rules'
    # examples name players player#1, player#2: a name that reads as another seat's id would name two players
    number = seat_number(name)
    if number is not None and number != i + 1:
        raise ValidationError(where, f"{name!r} reads as the seat Player#{number}, not this seat "
                                     f"(Player#{i + 1}): give another name")
    return name


def check_new_options(setup: Any) -> None:
    """A new game's players may name a faction or a team only with that option on (rules: 003 Factions and Team
    Games are options the players agree on): without it the setup's ``faction`` or ``team`` was dropped without a
    word, and a GM who forgot ``"options": {"teams": true}`` got a game with no teams (a 24h window where a team
    game has 48h). Only new games are checked; a stored game replays its setup as it was."""
    players = setup.get("players") if isinstance(setup, dict) else None
    if not isinstance(players, list):
        return
    try:
        options = Options.from_dict(setup.get("options"))
    except (ValidationError, TypeError, ValueError):
        return  # build_state refuses it, naming the field
    for key, on in (("faction", options.factions), ("team", options.teams)):
        i = next((i for i, p in enumerate(players) if isinstance(p, dict) and p.get(key) is not None), None)
        if i is not None and not on:
            raise ValidationError(f"players[{i}].{key}", f"this game has no {key}s; add \"options\": "
                                                         f"{{\"{key}s\": true}} to the setup, or leave the {key} out")


def check_new_names(spec: Any) -> None:
    """A new game's display names and colours must tell its seats apart as the DM reader reads them (case, accents
    and punctuation aside): orders name players by display name or colour (docs/dm-syntax.md), and a name two seats
    share would send a Support! or a Snitch to whichever the reader met last. Each name is checked too
    (:func:`_check_name`). Only new games are checked (a stored game replays its setup as it was)."""
    if not isinstance(spec, list):
        return
    seen: dict[str, str] = {}
    for i, p in enumerate(spec):
        name = p.get("name") if isinstance(p, dict) else None
        if name is None:
            continue
        name = _check_name(name, i)
        key = next(iter(seat_map({name: f"Player#{i + 1}"})), "")
        if key and key in seen:
            raise ValidationError(f"players[{i}].name", f"{name!r} is the name of {seen[key]} already (as orders "
                                                        "read names: case and accents aside); give each seat its own")
        seen[key] = f"Player#{i + 1} ({name})"
    try:
        read = _players(spec)
    except ValidationError:
        read = None  # build_state refuses it, naming the field
    if read is not None:
        _check_new_colours(read)
        _check_names_against_colours(spec, read)
    for i, p in enumerate(spec):
        team = p.get("team") if isinstance(p, dict) else None
        if isinstance(team, str):  # a number is its text: short, one line
            _check_text(team, f"players[{i}].team", "a team's name")
            if len(team) > MAX_NAME_CHARS:  # the pictures' legend and table cut longer ones
                raise ValidationError(f"players[{i}].team", f"a team's name is at most {MAX_NAME_CHARS} characters "
                                                            f"(here: {len(team)})")


def _check_new_colours(read: list[dict[str, Any]]) -> None:
    """A colour a new game's setup gives a seat may not be the colour another seat has without one of its own, the
    board's for it (seat 2's ``sky blue``: the GM guide, the board pictures and the table all call that seat so):
    ``Support! sky blue in P2`` would mean the one seat while the other is sky blue too (rules: 003 Orders, "a
    unique colour"). A stored game replays as it was: ``colours.seat_colours`` moves the other seat's default on."""
    own = {p["seat"] for p in read if p["colour"]}
    for i, p in enumerate(read):
        if not p["colour"]:
            continue
        for j, other in enumerate(read):
            if j != i and other["seat"] not in own and fold(default_colour(j)) == fold(p["colour"]):
                raise ValidationError(f"players[{i}].colour", f"{p['colour']!r} is {other['seat']}'s colour (the "
                                                              "board's for it, as it gives none of its own); give "
                                                              "another, or give that seat a colour too")


def _check_names_against_colours(spec: list[Any], read: list[dict[str, Any]]) -> None:
    """A new game's display name may not be another seat's colour (Player#2's ``sky blue``, the board's or its own):
    a DM's ``Support! sky blue in P2`` would mean the named seat, while the board pictures and the table call the
    other seat sky blue (rules: 003 Orders, "a unique colour"). A seat's colour equal to another's name is refused
    by ``colours.seat_colours``; a stored game replays as it was."""
    by_colour = {fold(c): s for s, c in seat_colours(read).items()}
    for i, p in enumerate(spec):
        name = p.get("name") if isinstance(p, dict) else None
        other = by_colour.get(fold(name)) if isinstance(name, str) else None
        if other is not None and other != read[i]["seat"]:
            raise ValidationError(f"players[{i}].name", f"{name!r} is {other}'s colour (the board's name for it); "
                                                        "give another name, or give that seat a colour of its own")


def setup_colours(players: Any) -> dict[str, str]:
    """Every seat's colour name (``engine/protectors/colours.py``) from a setup's ``players`` (a list or
    a count) already checked."""
    return seat_colours(_players(players))


def setup_colour_names(players: Any) -> dict[str, str]:
    """Colour -> seat, as DMs may name seats (a colour equal to another seat's display name left out)."""
    read = _players(players)
    return colour_names(read, seat_colours(read))


def _starts(board: Board, players: list[dict[str, Any]], teams: bool, rng: random.Random) -> None:
    n, k = len(board.provinces), len(players)
    slots = [board.provinces[i * n // k] for i in range(k)]
    order = list(range(k))
    if teams:
        names = sorted({str(p["team"]) for p in players})
        rng.shuffle(names)  # rules: 003 Team Games — "The placement of different teams ... random"
        _team_starts(board, players, names)
    taken = {p["start"] for p in players if p["start"]}
    free = [s for s in slots if s not in taken] + [p for p in board.provinces if p not in taken and p not in slots]
    for i in order:
        p = players[i]
        if p["start"] is None:
            p["start"] = free.pop(0)
        elif p["start"] not in board.provinces:
            raise ValidationError(f"players[{i}].start", f"{p['start']!r} is not a Province of this board"
                                                          f"{board.grand_hint(p['start'])}")
    starts = [p["start"] for p in players]
    if len(set(starts)) != len(starts):
        raise ValidationError("players", "two players start in the same Province")


def _team_starts(board: Board, players: list[dict[str, Any]], names: list[str]) -> None:
    """rules: 003 Team Games — "The players within a given team will begin the game as neighbours on the
    Game Board" (team-mates' chosen starts are kept; the rest are placed next to them). Each team grows
    a connected group of Provinces from its anchor, the teams' anchors spread evenly round the board."""
    n = len(board.provinces)
    taken = {p["start"] for p in players if p["start"]}
    for t, name in enumerate(names):
        members = [p for p in players if str(p["team"]) == name]
        group = [p["start"] for p in members if p["start"] in board.neighbours]
        for p in members:
            if p["start"]:
                continue
            free = [q for g in group for q in sorted(board.neighbours[g], key=board.number) if q not in taken]
            if not free:  # the first of the team (or a closed-in group): the next free Province
                anchor = t * n // len(names)
                free = [board.provinces[(anchor + j) % n] for j in range(n)
                        if board.provinces[(anchor + j) % n] not in taken]
            p["start"] = free[0]
            taken.add(free[0])
            group.append(free[0])


def default_players(board: Board) -> int:
    """Seats when the setup gives no ``players``: one per Province, half as many on a ``ring-N-grand`` board
    (its name says N players: rules 003 Setup, Grand "2x or more the number of starting players")."""
    n = len(board.provinces)
    return n // 2 if re.fullmatch(r"ring-\d+-grand(\+island)?", board.name or "") else n


def build_state(setup: dict[str, Any]) -> GameState:
    if not isinstance(setup, dict):
        raise ValidationError("setup", "must be a map")
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise ValidationError("setup", unknown_keys(unknown, SETUP_KEYS))
    if setup.get("rules", "protectors") != "protectors":
        raise ValidationError("rules", f"unknown rules {setup.get('rules')!r}; this engine plays 'protectors'")
    if setup.get("seed") is None:  # drawn once and written into the setup: export, import, replay stay exact
        setup["seed"] = fresh_seed()
    seed = setup["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValidationError("seed", "must be an integer")
    board = Board.from_setup(setup.get("board", "ring-7"))
    players = _players(setup.get("players", default_players(board)))
    options = Options.from_dict(setup.get("options"))
    opts = setup.get("options") or {}
    # the readings a stored record must name to replay as played (LEGACY_READINGS): written into the setup
    setup["options"] = {**opts, **{k: getattr(options, k) for k in LEGACY_READINGS if k not in opts}}
    k, n = len(players), len(board.provinces)
    # rules: 003 Setup — Grand: "2x or more the number of starting players" (setup), or "more Provinces
    # than there are players" (introduction) under Options.grand_boards "more"
    grand_min = 2 * k if options.grand_boards == "double" else k + 1
    if "version" not in opts:
        options.version = "grand" if n >= grand_min else "normal"
    if options.version == "normal" and n != k:
        hint = ""
        if n >= grand_min:
            hint = f"; it is a Grand board for {k} players: set the version to 'grand' (options.version)"
        elif n > k and options.grand_boards != "more":
            hint = "; for a board between that and twice as many, set options.grand_boards to 'more'"
        # a version the setup did not give was read from the board and the players: they disagree, so the mistake
        # is in one of them, most likely a player left out of (or written twice in) the list, not in options
        raise ValidationError("options.version" if "version" in opts else "players",
                              f"a Normal game has as many Provinces as players ({k}), this board has {n}{hint}")
    if options.version == "grand" and n < grand_min:
        what = "at least 2x as many Provinces as players" if options.grand_boards == "double" else \
            "more Provinces than players"
        raise ValidationError("options.version", f"a Grand game has {what} ({grand_min}), this board has {n}")
    if options.teams:
        sizes: dict[str, int] = {}
        for i, p in enumerate(players):
            if p["team"] is None or p["team"] == "":
                raise ValidationError(f"players[{i}].team", "every player needs a team in a team game")
            sizes[str(p["team"])] = sizes.get(str(p["team"]), 0) + 1
        if len(set(sizes.values())) != 1 or len(sizes) < 2:
            # names told apart only by capitals or spaces ('North', 'North '): a slip the count alone hides
            alike: dict[str, list[str]] = {}
            for t in sizes:
                alike.setdefault(t.strip().casefold(), []).append(t)
            slips = [" and ".join(repr(t) for t in ts) for ts in alike.values() if len(ts) > 1]
            raise ValidationError("players", "team games need 2+ teams of the same size (here: "
                                  # quoted: a team named by a number reads as one ("'2' has 1", not "2 has 1")
                                  + ", ".join(f"{t!r} has {n}" for t, n in sizes.items()) + ")"
                                  + "".join(f"; {x} are different teams: they differ only in capitals or spaces"
                                            for x in slips))
    rng = random.Random(seed)
    typed_starts = {p["seat"]: p["start"] for p in players if p["start"] is not None}  # the rest are placed
    _starts(board, players, options.teams, rng)
    provinces = {p: Province() for p in board.all_provinces}
    state_players = {}
    for p in players:
        state_players[p["seat"]] = Player(p["seat"], p["name"], p["start"], START_REALM,
                                          faction=p["faction"], team=p["team"])
        provinces[p["start"]] = Province(owner=p["seat"], units=START_UNITS)
    state = GameState(board=board, options=options, seed=seed, rng=rng, players=state_players,
                      provinces=provinces, starting_players=k, ranking=[p["seat"] for p in players])
    state.decks = {d: C.Deck.new(d, rng) for d in C.DECK_ORDER}
    state.ledger = [(0, s, START_REALM, "003 Setup, 50 $Realm") for s in state_players]
    state.step = BID
    if setup.get("position") is not None:
        import_position(state, setup["position"], typed_starts)
    return state
