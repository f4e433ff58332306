"""The focused board picture (``render_board(..., focus=seat)``): the right Provinces, legible on a phone, public
information only, refused clearly for a seat with nothing to focus on."""

from __future__ import annotations

from itertools import pairwise

import pytest

from engine.errors import ValidationError
from engine.protectors.game import Game
from service.render import board_scene, focus_picture, render_board
from service.render.examples import CUSTOM_BOARD
from service.render.focus import MAX_RADIUS, MIN_PHONE_FONT_PX, PHONE_PX, phone_px
from service.render.labels import box, overlaps
from tests.render.helpers import played_game

BOARDS = [
    ("ring-2", 2, 1),
    ("ring-7", 7, 3),
    ("ring-16", 16, 2),
    ("ring-16-grand+island", 16, 4),
    ("ring-5-grand+island", 5, 3),
    (CUSTOM_BOARD, 6, 2),
]


def alive(game: Game) -> list[str]:
    scene = board_scene(game, None, view="channel")
    return [r.seat for r in scene.seats if not r.eliminated and r.provinces]


def teams_game() -> Game:
    players = [
        {"name": ch * 32, "team": f"The Team Of Many Words {i % 4}", "faction": "Hodir"}
        for i, ch in enumerate("MWiAbcdefghijklm")
    ]
    game = Game(
        {"board": "ring-16-grand+island", "seed": 1, "options": {"teams": True, "factions": True}, "players": players}
    )
    for seat in game.state.players:
        game.submit(seat, "Bid 0")
    game.advance(force=True)
    return game


def games():
    for board, seats, turns in BOARDS:
        yield played_game(board, seats, seed=7, turns=turns, names=True)
    yield teams_game()


@pytest.fixture(scope="module")
def all_games():
    return list(games())


def test_the_full_16_seat_board_is_not_legible_on_a_phone():
    """The gap the focused picture closes, measured by the same rule (so the rule can fail)."""
    from service.render.draw import draw_board, figure_size

    scene = board_scene(played_game("ring-16-grand+island", 16, seed=7, turns=2), None, view="channel")
    _fig, artists = draw_board(scene)
    width = figure_size(scene)[0]
    smallest = min(phone_px(t.get_fontsize(), width) for t in artists.values())
    assert smallest < MIN_PHONE_FONT_PX


def test_every_text_is_legible_at_a_phone_width(all_games):
    from service.render.draw import draw_focus

    for game in all_games:
        for seat in alive(game)[:6]:
            for radius in (0, 1, 2):
                pic = focus_picture(game, seat, radius=radius)
                assert pic.texts
                assert min(phone_px(t.size, pic.width) for t in pic.texts) >= MIN_PHONE_FONT_PX
                fig, artists = draw_focus(pic)  # drawn as modelled
                assert fig.get_size_inches()[0] * fig.dpi == PHONE_PX
                assert {k: a.get_fontsize() for k, a in artists.items()} == {t.key: t.size for t in pic.texts}


def test_no_two_texts_overlap_and_each_stays_in_the_picture_and_its_tile(all_games):
    for game in all_games:
        for seat in alive(game)[:6]:
            pic = focus_picture(game, seat, radius=2)
            assert overlaps(pic.texts) == []
            tiles = {r.key.removeprefix("tile-"): r for r in pic.rects if r.key.startswith("tile-")}
            for t in pic.texts:
                b = box(t)
                assert (
                    b[:, 0].min() >= 0
                    and b[:, 0].max() <= pic.width
                    and b[:, 1].min() >= 0
                    and b[:, 1].max() <= pic.height
                ), t.key
                if t.kind in ("province", "battle"):
                    r = tiles[t.key.split("-", 1)[1]]
                    assert r.x <= b[:, 0].min() and b[:, 0].max() <= r.x + r.w, t.key
                    assert r.y <= b[:, 1].min() and b[:, 1].max() <= r.y + r.h, t.key


def test_the_area_is_the_seats_provinces_and_those_within_the_radius(all_games):
    for game in all_games:
        scene = board_scene(game, None, view="channel")
        board = scene.board
        for seat in alive(game)[:4]:
            own = {p for p, pv in scene.provinces.items() if seat in (pv.owner, pv.holder)}
            for radius in range(MAX_RADIUS + 1):
                pic = focus_picture(game, seat, radius=radius)
                want = {
                    p
                    for p in board.all_provinces
                    if any((d := board.distance(p, q)) is not None and d <= radius for q in own)
                }
                assert set(pic.provinces) == want and len(pic.provinces) == len(want)
                # the legend: exactly the seats whose Provinces or units (or battles) are shown, the focused one too
                held = {s for p in want for s in (scene.provinces[p].owner, scene.provinces[p].holder) if s}
                fought = {
                    s
                    for b in scene.battles
                    if b.province in want
                    for s in (b.winner, b.loser)
                    if s in scene.seat_number
                }
                assert set(pic.seats) == held | fought and seat in pic.seats


def test_tiles_that_touch_share_a_land_border(all_games):
    touching = 0
    for game in all_games:
        for seat in alive(game)[:4]:
            pic = focus_picture(game, seat, radius=3)
            board = board_scene(game, None, view="channel").board
            tiles = sorted((r for r in pic.rects if r.key.startswith("tile-")), key=lambda r: (r.x, -r.y))
            for a, b in pairwise(tiles):
                if a.x == b.x and abs((b.y + b.h) - a.y) < 1e-9:  # one above the other in a column, no gap
                    assert board.is_neighbour(a.key[5:], b.key[5:]), (a.key, b.key)
                    touching += 1
    assert touching > 50  # (146 pairs touch: a layout that leaves gaps everywhere would check none)


def test_a_ring_stretch_across_p1_stays_whole():
    game = played_game("ring-7", 7, seed=7, turns=1)
    scene = board_scene(game, None, view="channel")
    seat = scene.provinces["P1"].owner
    pic = focus_picture(game, seat, radius=1)
    assert pic.provinces[:3] == ["P7", "P1", "P2"]


def test_a_focused_picture_is_the_same_whatever_another_seat_keeps_secret():
    """Orders sent but not yet carried out, bids, $Realm: another seat's hidden choices change nothing."""
    from agents.random_agent import RandomAgent
    from agents.runner import SeatContext, play_turn_step

    base = Game({"board": "ring-7", "seed": 3, "players": 7})
    agents = {s: RandomAgent(i) for i, s in enumerate(base.state.players)}
    while not (base.step == "orders" and base.state.turn == 2):  # turn 2's orders, none sent yet
        play_turn_step(base, agents)
    focus = alive(base)[0]
    other = max(
        (p.seat for p in base.pending() if p.seat != focus), key=lambda s: base.view(None)["players"][s]["units"]
    )
    orders = {}  # three different hidden orders for the other seat
    for k in range(200):
        decision = RandomAgent(k).act(SeatContext(base, other))
        orders.setdefault(repr(decision), decision)
        if len(orders) == 3:
            break
    pictures, sent, seat_pictures = [], set(), set()
    for k, decision in enumerate(orders.values()):
        game = base.clone()
        game.state.players[other].realm = 1000 + 37 * k
        game.submit(other, decision)
        pictures.append(render_board(game, None, focus=focus, radius=2))
        pictures.append(render_board(game, None, focus=focus, radius=2, fmt="svg"))
        sent.add(repr(game.state.submissions[other]))
        seat_pictures.add(render_board(game, other, fmt="svg"))
    assert len(set(pictures[0::2])) == 1 and len(set(pictures[1::2])) == 1
    # the controls: the games' hidden orders differed, and a picture that may show a secret ($Realm in the other
    # seat's own view) does tell the games apart
    assert len(sent) == 3 and len(seat_pictures) == 3


def test_bids_do_not_change_a_focused_picture():
    base = Game({"board": "ring-5", "seed": 2, "players": 5})
    assert base.step == "bid"
    out = set()
    for bid in (0, 3, 5):
        game = base.clone()
        game.submit("Player#4", f"Bid {bid}")
        out.add(render_board(game, None, focus="Player#1"))
    assert len(out) == 1


def test_an_eliminated_seat_is_refused_saying_so():
    game = played_game("ring-5", 5, seed=1, turns=12)
    out = [s for s, p in game.state.players.items() if p.eliminated]
    assert out
    with pytest.raises(ValidationError, match=r"focus: .* is out \(eliminated\): there is no area to focus on"):
        render_board(game, None, focus=out[0])
    # a turn when it still held Provinces: its area then
    first = min(e.turn for e in game.state.events if e.kind == "eliminated" and e.data.get("seat") == out[0])
    if first > 1:
        assert focus_picture(game, out[0], turn=first - 1).provinces


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"focus": "Player#9"}, "focus"),
        ({"focus": "Alice"}, "focus"),
        ({"focus": "Player#1", "radius": 5}, "radius"),
        ({"focus": "Player#1", "radius": -1}, "radius"),
        ({"focus": "Player#1", "radius": True}, "radius"),
        ({"radius": 1}, "radius"),
        ({"focus": "Player#1", "view": "gm"}, "focus"),
        ({"focus": "Player#1", "seat": "Player#2"}, "focus"),
    ],
)
def test_bad_focus_calls_name_the_field(kwargs, field):
    game = played_game("ring-5", 5, seed=2, turns=1)
    seat = kwargs.pop("seat", None)
    with pytest.raises(ValidationError) as err:
        render_board(game, seat, **kwargs)
    assert err.value.field == field


def test_the_island_stands_apart():
    game = played_game("ring-7+island", 7, seed=7, turns=1, names=True)
    seat = alive(game)[0]
    island = game.state.provinces["P0"]
    island.owner, island.units = seat, 2  # the seat holds the Wizard Sanctum (reached only by sea)
    pic = focus_picture(game, seat, radius=1)
    assert pic.provinces[-1] == "P0" and pic.provinces.count("P0") == 1
    gaps = [t.text for t in pic.texts if t.key.startswith("gap-")]
    assert gaps[-1] == "the Island (Wizard Sanctum): by sea only"
    tiles = {r.key: r for r in pic.rects}
    before = tiles[f"tile-{pic.provinces[-2]}"]
    assert tiles["tile-P0"].y + tiles["tile-P0"].h < before.y  # a gap between it and the mainland
    assert render_board(game, None, focus=seat, radius=1)[:4] == b"\x89PNG"


def holding_half(board: str, seats: int, alternate: bool) -> tuple[Game, str]:
    """A played game where Player#1 holds half the mainland (every other Province, or the first half) and the
    Island: the tallest areas a focused picture gets."""
    game = played_game(board, seats, seed=7, turns=2, names=True)
    ring = sorted((p for p in game.state.provinces if p != "P0"), key=lambda p: int(p[1:]))
    for i, p in enumerate(ring):
        if (i % 2 == 0) if alternate else i < len(ring) // 2:
            game.state.provinces[p].owner = "Player#1"
    if "P0" in game.state.provinces:
        game.state.provinces["P0"].owner = "Player#1"
    return game, "Player#1"


def says_where_a_run_goes_on(pic, scene) -> bool:
    """When the left column ends inside a run of neighbours (its last tile borders the right column's first, with
    nothing left out between), both ends say so: ``continued at the top right ->`` under the left column's last
    tile and ``<- continued from P8`` over the right column's first, legible and inside their columns; otherwise
    no such mark. Whether a run was broken."""
    from service.render.focus import runs

    tiles = [r for r in pic.rects if r.key.startswith("tile-")]
    marks = {t.key: t for t in pic.texts if t.key.startswith("continued-")}
    xs = sorted({r.x for r in tiles})
    if len(xs) < 2:
        assert not marks, marks
        return False
    last = min((r for r in tiles if r.x == xs[0]), key=lambda r: r.y)  # the left column's lowest tile
    first = max((r for r in tiles if r.x == xs[1]), key=lambda r: r.y)  # the right column's highest
    a, b = last.key[5:], first.key[5:]
    broken = any(a in part and part.index(a) + 1 < len(part) and part[part.index(a) + 1] == b
                 for part in runs(scene, [p for p in scene.board.all_provinces if p in pic.provinces]))
    if not broken:
        assert not marks, (a, b, marks)
        return False
    foot, head = marks.get("continued-foot"), marks.get("continued-head")
    assert foot is not None and head is not None, f"{a} goes on as {b} at the top of the right column, unsaid"
    assert "\u2192" in foot.text and head.text == f"\u2190 continued from {a}", (foot.text, head.text)
    for t, tile in ((foot, last), (head, first)):
        bx = box(t)
        assert phone_px(t.size, pic.width) >= MIN_PHONE_FONT_PX
        assert tile.x <= bx[:, 0].min() and bx[:, 0].max() <= tile.x + tile.w, t.key  # in its column
    assert box(foot)[:, 1].max() <= last.y and box(foot)[:, 1].min() >= last.y - 0.8  # right under the last tile
    top = first.y + first.h
    assert top <= box(head)[:, 1].min() and box(head)[:, 1].max() <= top + 0.8  # right over the first
    return True


def laid_out_well(pic, scene) -> None:
    """The focused picture's rules: every text legible at a phone's width, none over another, each in the picture
    and in its tile; tiles one above the other in a column share a land border; a run of neighbours broken between
    the columns says so at both ends."""
    board = scene.board
    assert min(phone_px(t.size, pic.width) for t in pic.texts) >= MIN_PHONE_FONT_PX
    assert overlaps(pic.texts) == []
    tiles = {r.key.removeprefix("tile-"): r for r in pic.rects if r.key.startswith("tile-")}
    for t in pic.texts:
        b = box(t)
        assert b[:, 0].min() >= 0 and b[:, 0].max() <= pic.width and b[:, 1].min() >= 0, t.key
        assert b[:, 1].max() <= pic.height, t.key
        if t.kind in ("province", "battle"):
            r = tiles[t.key.split("-")[1]]
            assert r.x <= b[:, 0].min() and b[:, 0].max() <= r.x + r.w, t.key
            assert r.y <= b[:, 1].min() and b[:, 1].max() <= r.y + r.h, t.key
    column = sorted(tiles.values(), key=lambda r: (r.x, -r.y))
    for a, b in pairwise(column):
        if a.x == b.x and abs((b.y + b.h) - a.y) < 1e-9:
            assert board.is_neighbour(a.key[5:], b.key[5:]), (a.key, b.key)
    says_where_a_run_goes_on(pic, scene)


@pytest.mark.parametrize("board", ["ring-16", "ring-16-grand+island"])  # 16 and 32 Provinces (and the Island)
@pytest.mark.parametrize("alternate", [True, False])
def test_a_tall_area_goes_in_two_columns_no_taller_than_the_limit(board, alternate):
    # a seat holding half of a 32-Province board at radius 4 was one column of tiles, 1080 x 4759 px: a phone's
    # Discord shows so tall a picture shrunk, its text far under the legibility rule
    from service.render.focus import MAX_TALL, area

    game, seat = holding_half(board, 16, alternate)
    scene = board_scene(game, None, view="channel")
    for radius in range(MAX_RADIUS + 1):
        pic = focus_picture(game, seat, radius=radius)
        assert pic.height <= MAX_TALL * pic.width, (radius, pic.height / pic.width)
        assert set(pic.provinces) == set(area(scene, seat, radius))  # two columns kept the whole radius
        laid_out_well(pic, scene)
    tiles = {r.x for r in pic.rects if r.key.startswith("tile-")}
    assert len(tiles) == 2  # radius 4: two columns
    assert render_board(game, None, focus=seat, radius=MAX_RADIUS)[:4] == b"\x89PNG"


def test_two_columns_keep_every_rule_on_every_board(all_games):
    """Two columns (half-wide tiles: battles on a line of their own, a custom board's borders in two lines, the
    legend's teams and factions) on every board, whether or not its area needs them."""
    from service.render.focus import layout_focus

    for game in all_games:
        scene = board_scene(game, None, view="channel")
        for seat in alive(game)[:6]:
            pic = layout_focus(scene, seat, 2, 2, 2)
            assert len({r.x for r in pic.rects if r.key.startswith("tile-")}) == min(2, len(pic.provinces))
            laid_out_well(pic, scene)


def test_when_two_columns_are_too_tall_the_radius_drawn_is_cut_and_the_subtitle_says_so(monkeypatch):
    from service.render import focus
    from service.render.focus import area

    game, seat = holding_half("ring-16-grand+island", 16, False)
    scene = board_scene(game, None, view="channel")
    monkeypatch.setattr(focus, "MAX_TALL", 1.9)  # lower than radius 4 needs in two columns (2.3 widths)
    pic = focus_picture(game, seat, radius=4)
    drawn = next(r for r in range(4, -1, -1) if set(pic.provinces) == set(area(scene, seat, r)))
    assert 0 < drawn < 4 and pic.height <= 1.9 * pic.width
    subtitle = " ".join(t.text for t in pic.texts if t.key.startswith("subtitle-"))
    said = f"Provinces up to {drawn} border{'s' * (drawn > 1)} away; radius 4 would not fit a phone"
    assert said in subtitle, subtitle
    laid_out_well(pic, scene)


def test_a_run_of_neighbours_split_between_the_columns_says_it_goes_on():
    # Alice's P32 ... P8 filled the left column and P9 ... P16 headed the right one with nothing to say that P9
    # borders P8: on a phone the right column read as another part of the board
    game, seat = holding_half("ring-16-grand+island", 16, False)
    scene = board_scene(game, None, view="channel")
    pic = focus_picture(game, seat, radius=MAX_RADIUS)
    assert says_where_a_run_goes_on(pic, scene)
    laid_out_well(pic, scene)
    said = {t.key: t.text for t in pic.texts if t.key.startswith("continued-")}
    assert said == {"continued-foot": "continued at the top right \u2192", "continued-head": "\u2190 continued from P8"}
    # a split at a gap between runs needs no mark: its gap heads the right column ("P21 to P27 not shown")
    ring7 = played_game("ring-7", 7, seed=7, turns=1)
    for s in alive(ring7):
        from service.render.focus import layout_focus

        sc = board_scene(ring7, None, view="channel")
        two = layout_focus(sc, s, 1, 1, 2)
        laid_out_well(two, sc)


def big_custom_board(provinces: int) -> dict:
    """A GM's ring of ``provinces`` Provinces (a custom board: its tiles list their borders)."""
    ring = [f"P{i}" for i in range(1, provinces + 1)]
    return {"name": "Long Coast",
            "provinces": {p: [ring[i - 1], ring[(i + 1) % len(ring)]] for i, p in enumerate(ring)}}


def test_an_area_too_tall_even_alone_is_refused_saying_what_to_do_and_no_picture_is_taller_than_the_limit():
    # a seat holding most of a 40-Province board was drawn 1080 px wide and many times the limit tall at radius 0:
    # Discord shrank it on a phone until no text met the legibility rule
    from service.render.focus import MAX_TALL, layout_focus

    game = Game({"board": big_custom_board(40), "seed": 1, "players": [{"name": "Alice"}, *({} for _ in range(3))]})
    for i in range(1, 37):
        game.state.provinces[f"P{i}"].owner = "Player#1"
    scene = board_scene(game, None, view="channel")
    tallest = layout_focus(scene, "Player#1", 0, 0, 2)
    assert tallest.height > MAX_TALL * tallest.width  # what was drawn before: taller than the limit
    for radius in (0, 1, MAX_RADIUS):
        with pytest.raises(ValidationError, match=(
                r"^focus: Alice \(#1\) has 3[67] Provinces: too many for a picture a phone shows legibly \(even those "
                r"alone, in two columns, are \d+\.\d widths tall; at most 2\.5\); draw the whole board instead$")):
            render_board(game, None, focus="Player#1", radius=radius)
    assert render_board(game, None)[:4] == b"\x89PNG"  # the whole board still draws
    # a seat with fewer Provinces on the same board is drawn, within the limit
    for i in range(1, 13):
        game.state.provinces[f"P{i}"].owner = "Player#2"
    for radius in range(MAX_RADIUS + 1):
        pic = focus_picture(game, "Player#2", radius=radius)
        assert pic.height <= MAX_TALL * pic.width
        laid_out_well(pic, board_scene(game, None, view="channel"))


def test_a_long_team_name_leaves_the_faction_whole_in_the_legend():
    # in two columns "team The Team Of Many Words 0, faction Hodir" was cut to "... Words 0, fa…" (a legend entry's
    # facts had three lines): the faction, public and chosen by the player, was lost
    from service.render.focus import layout_focus

    game = teams_game()
    scene = board_scene(game, None, view="channel")
    rows = {r.seat: r for r in scene.seats}
    for columns in (1, 2):
        for seat in alive(game)[:4]:
            pic = layout_focus(scene, seat, 2, 2, columns)
            laid_out_well(pic, scene)
            for s in pic.seats:
                n = rows[s].number
                facts = " ".join(t.text for t in sorted(pic.texts, key=lambda t: -t.y)
                                 if t.key.startswith(f"legend-{n}-") and not t.key.endswith("-0"))
                assert "\u2026" not in facts.split("team ")[0] and facts.endswith(f"faction {rows[s].faction}"), facts
                assert f"team {rows[s].team}" in facts or "team The Team\u2026" in facts, facts
