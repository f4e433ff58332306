"""``game.render``'s ``view`` through a real server: the GM may have any view drawn, a seat token
only its own seat view or the channel view; ``kind: animation`` gives the whole game as a GIF."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from service.client import ServiceError
from service.render.access import picture_view
from tests.render.helpers import all_text, svg_root
from tests.service.helpers import ServerProcess

NAMES = ["Alice", "Bo", "Chidi", "Dana", "Eve"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    proc = ServerProcess(tmp_path_factory.mktemp("render-server")).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def game(server):
    """A ring-5 game one turn in (Turn 1 done), its tokens, and a client."""
    with server.client() as c:
        g = c.call("game.create", setup={"board": "ring-5", "seed": 4, "players": [{"name": n} for n in NAMES],
                                         "auto_advance": False})
        for _ in range(12):
            if c.call("game.view", game_id=g["game_id"], token=g["gm_token"])["turn"] >= 2:
                break
            c.call("game.advance", game_id=g["game_id"], token=g["gm_token"], force=True)
        yield c, g


def render(game, token_of: str, **fields):
    c, g = game
    token = g["gm_token"] if token_of == "gm" else g["seat_tokens"][token_of]
    return c.call("game.render", game_id=g["game_id"], token=token, **fields)


def text(data: bytes) -> str:
    return all_text(svg_root(data))


def refused(game, token_of: str, **fields) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        render(game, token_of, **fields)
    return err.value


def test_gm_may_have_every_view_drawn(game):
    gm = text(render(game, "gm", format="svg"))
    assert "GM view" in gm and "$Realm" in gm
    assert text(render(game, "gm", format="svg", view="gm")) == gm
    channel = text(render(game, "gm", format="svg", view="channel"))
    assert "public view" in channel and "$Realm" not in channel
    seat = text(render(game, "gm", format="svg", view="seat", seat="Player#2"))
    assert "Bo's view" in seat
    summary = text(render(game, "gm", format="svg", kind="summary", view="channel"))
    assert "public view" in summary and "$Realm" not in summary


def test_seat_token_gets_its_own_view_or_the_channel(game):
    own = text(render(game, "Player#3", format="svg"))
    assert "Chidi's view" in own
    assert text(render(game, "Player#3", format="svg", view="seat")) == own
    assert text(render(game, "Player#3", format="svg", view="seat", seat="Player#3")) == own
    channel = text(render(game, "Player#3", format="svg", view="channel"))
    assert channel == text(render(game, "gm", format="svg", view="channel"))  # the same picture for all
    assert text(render(game, "Player#3", format="svg", public=True)) == channel


@pytest.mark.parametrize(("fields", "code", "field"), [
    ({"view": "gm"}, "forbidden", "view"),
    ({"view": "seat", "seat": "Player#1"}, "forbidden", "seat"),
    ({"view": "gm", "kind": "summary"}, "forbidden", "view"),
    ({"view": "everyone"}, "invalid_params", "view"),
    ({"view": "channel", "seat": "Player#3"}, "invalid_params", "seat"),
    ({"public": True, "view": "seat"}, "invalid_params", "public"),
])
def test_seat_token_is_refused_other_views(game, fields, code, field):
    err = refused(game, "Player#3", **fields)
    assert (err.code, err.details.get("field")) == (code, field)


def test_gm_asks_a_seat_view_by_seat(game):
    err = refused(game, "gm", view="seat")
    assert (err.code, err.details.get("field")) == ("invalid_params", "seat")
    err = refused(game, "gm", view="seat", seat="Player#9")
    assert err.details.get("field") == "seat"


def test_a_seat_is_named_as_in_every_other_seat_field(game):
    """A display name, ``player 2`` or a colour names the seat, as in game.submit and game.assign; the field took
    only ``Player#2`` (``unknown seat`` for the GM, and ``forbidden`` for a seat token naming itself by its name)."""
    bo = text(render(game, "gm", format="svg", view="seat", seat="Player#2"))
    assert text(render(game, "gm", format="svg", view="seat", seat="Bo")) == bo
    assert text(render(game, "gm", format="svg", view="seat", seat="player 2")) == bo
    own = text(render(game, "Player#3", format="svg", view="seat"))
    assert text(render(game, "Player#3", format="svg", view="seat", seat="chidi")) == own
    err = refused(game, "Player#3", view="seat", seat="Bo")
    assert (err.code, err.details.get("field")) == ("forbidden", "seat")
    err = refused(game, "Player#3", view="seat", seat="Nobody")  # which names exist is not told to a seat
    assert (err.code, err.details.get("field")) == ("forbidden", "seat")
    err = refused(game, "gm", view="seat", seat="Boo")
    assert (err.code, err.details.get("field")) == ("invalid_params", "seat") and "Bo" in err.message


def test_animation_is_a_gif_of_the_game(game):
    gif = render(game, "Player#2", kind="animation", view="channel")
    assert gif[:6] == b"GIF89a"
    assert render(game, "gm", kind="animation")[:6] == b"GIF89a"  # the GM's own animation
    err = refused(game, "gm", kind="animation", format="png")
    assert err.details.get("field") == "format"
    err = refused(game, "gm", kind="summary", turn=1)
    assert err.details.get("field") == "turn"


def test_access_rules_table():
    """The rules themselves, without a server."""
    assert picture_view(None, None, None, False) == ("gm", None)
    assert picture_view("Player#2", None, None, False) == ("seat", "Player#2")
    assert picture_view(None, "seat", "Player#4", False) == ("seat", "Player#4")
    assert picture_view("Player#2", None, None, True) == ("channel", None)
    assert picture_view(None, "channel", None, False) == ("channel", None)


def test_a_focused_picture_is_the_same_for_every_token(game):
    """focus: the area around any seat, public, for the GM and every seat token alike (names as in every seat
    field); radius bounded."""
    gm = render(game, "gm", focus="Player#2", format="svg")
    assert "Bo (#2) and neighbours" in text(gm) and "$Realm" not in text(gm)
    assert render(game, "Player#3", focus="Bo", format="svg") == gm  # another seat's area: public
    assert render(game, "Player#2", focus="player 2", view="channel", format="svg") == gm
    assert render(game, "Player#4", focus="Bo", public=True, format="svg") == gm
    wider = render(game, "gm", focus="Player#2", radius=2, format="svg")
    assert wider != gm and "Provinces up to 2 borders" in text(wider)


@pytest.mark.parametrize(("who", "fields", "field", "said"), [
    ("gm", {"focus": "Boo"}, "focus", "did you mean Player#2 (Bo)?"),
    ("Player#3", {"focus": "Boo"}, "focus", "no seat is called 'Boo'"),
    ("gm", {"focus": "Bo", "radius": 5}, "radius", "must be from 0 to 4"),
    ("gm", {"focus": "Bo", "radius": -1}, "radius", "must be from 0 to 4"),
    ("gm", {"radius": 1}, "radius", "only a focused picture has a radius"),
    ("gm", {"focus": "Bo", "radius": "2"}, "radius", "must be an integer"),
    ("gm", {"focus": 2}, "focus", "must be a string"),
    ("gm", {"focus": "Bo", "kind": "summary"}, "focus", "not the summary"),
    ("gm", {"focus": "Bo", "view": "gm"}, "focus", "the channel view"),
    ("Player#3", {"focus": "Bo", "view": "seat"}, "focus", "the channel view"),
    ("gm", {"focus": "Bo", "view": "seat", "seat": "Bo"}, "focus", "leave out seat and view"),
])
def test_a_bad_focus_is_refused_naming_the_field(game, who, fields, field, said):
    err = refused(game, who, **fields)
    assert (err.code, err.details.get("field")) == ("invalid_params", field) and said in err.message
    if who != "gm":
        assert "Chidi" not in err.message  # a seat token is not told which names exist
