"""discord.toml: the template loads, every mistake is one clear line naming the key."""

from __future__ import annotations

import argparse
import re
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.discord.config import TEMPLATE, ConfigError, duration, load, parse


def base():
    data = tomllib.loads(TEMPLATE)
    return data


def test_the_template_is_a_working_config(tmp_path):
    from service.cli import main

    path = tmp_path / "discord.toml"
    assert main(["discord", "init", str(path)]) == 0
    config = load(path)
    game = config.games["realm-one"]
    assert config.gm_role == "GM" and config.reminders == [86400.0, 21600.0, 3600.0]
    assert config.game_for_channel(game.channel) is game
    setup = game.setup()
    assert setup["agents"] == {"Player#5": "normal"} and setup["expiry"] == {"auto": True}
    assert [p["name"] for p in setup["players"]] == ["Alice", "Bob", "Carol", "Dan", "Eve"]
    assert [p.get("colour") for p in setup["players"]] == ["blue", "red", None, None, None]
    assert "token =" not in TEMPLATE and "token_env" in TEMPLATE
    assert config.address() == {"host": "127.0.0.1", "port": 7750}
    assert config.state == str(tmp_path / "regent-discord.json")  # next to the config, wherever the bot runs


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(token="abc"), "token: the bot token must not be in the file"),
    (lambda d: d.update(guild="x"), "guild: must be a Discord id"),
    (lambda d: d.update(colour=1), "colour: unknown key"),
    (lambda d: d.update(reminders=["soon"]), "reminders[0]: must be a duration"),
    (lambda d: d.update(service="localhost"), "service: must be \"HOST:PORT\""),
    (lambda d: d.update(games={}), "games: at least one"),
    (lambda d: d["games"].update(two={**d["games"]["realm-one"]}), "games.two.channel: channel already used"),
    (lambda d: d["games"]["realm-one"]["seats"].update({"Blue": {"ai": "easy"}}), "seats.Blue: seats are named"),
    (lambda d: d["games"]["realm-one"]["seats"].update({"Player#7": {"ai": "easy"}}), "without gaps"),
    (lambda d: d["games"]["realm-one"]["seats"].update({"Player#5": {"ai": "easy", "user": 5}}),
     "give exactly one of user"),
    (lambda d: d["games"]["realm-one"]["seats"].update({"Player#5": {"user": 300000000000000001}}),
     "already holds Player#1"),
    (lambda d: d["games"]["realm-one"].update(deadlines={"orders": "forever"}), "deadlines.orders: must be"),
    (lambda d: d["games"]["realm-one"].update(deadlines={"lunch": "1h"}), "deadlines.lunch: unknown step"),
    (lambda d: d["games"]["realm-one"].update(pictures="yes"), "pictures: must be true or false"),
    (lambda d: d["games"]["realm-one"].update(version="huge"), "version: must be"),
    (lambda d: d["games"]["realm-one"]["seats"]["Player#1"].update(colour=3), "seats.Player#1.colour: must be"),
    (lambda d: d["games"]["realm-one"]["seats"]["Player#1"].update(hue="red"), "seats.Player#1.hue: unknown key"),
])
def test_mistakes_name_the_key(change, message):
    data = base()
    change(data)
    with pytest.raises(ConfigError) as err:
        parse(data, "discord.toml")
    assert str(err.value).startswith("discord.toml: ") and message in str(err.value)


def test_unreadable_files(tmp_path):
    with pytest.raises(ConfigError, match="no such file"):
        load(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("guild = [")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(bad)


@given(st.integers(0, 10**6), st.sampled_from(["s", "m", "h", "d", ""]))
def test_durations(n, unit):
    factor = {"s": 1, "m": 60, "h": 3600, "d": 86400, "": 1}[unit]
    assert duration(f"{n}{unit}", "x") == n * factor
    assert duration(n, "x") == n


def test_the_bot_knows_every_level_the_service_takes():
    from service.ai import DIFFICULTIES
    from service.discord.config import AI_LEVELS

    assert tuple(DIFFICULTIES) == AI_LEVELS


def test_the_bot_gives_a_seat_back_on_the_words_the_service_does():
    from service.ai import HUMAN_WORDS
    from service.discord.seat_command import HUMAN

    assert HUMAN == HUMAN_WORDS


def test_a_team_game_is_configured_with_a_team_on_every_seat():
    data = base()
    game = data["games"]["realm-one"]
    game["teams"] = True
    for n, spec in enumerate(game["seats"].values()):
        spec["team"] = "AB"[n % 2] if n < 4 else "A"
    game["seats"]["Player#5"]["team"] = "B"
    game["seats"]["Player#6"] = {"user": 300000000000000006, "name": "Fay", "team": "A"}
    game["board"] = "ring-6"
    setup = parse(data, "d.toml").games["realm-one"].setup()
    assert setup["options"]["teams"] is True
    assert [p["team"] for p in setup["players"]] == ["A", "B", "A", "B", "B", "A"]
    del game["seats"]["Player#2"]["team"]
    with pytest.raises(ConfigError, match=r"^d.toml: games.realm-one.seats.Player#2.team: every seat needs a team"):
        parse(data, "d.toml")


def test_the_version_is_read_from_the_board_unless_given():
    # dogfood s17: board = "ring-8-grand" with the template's version = "normal" was refused by the service
    from engine.protectors.game import Game

    data = base()
    game = data["games"]["realm-one"]
    game.pop("version", None)
    game["board"] = "ring-5-grand"
    setup = parse(data, "d.toml").games["realm-one"].setup()
    assert "version" not in setup["options"]
    engine = {k: v for k, v in setup.items() if k not in ("expiry", "agents", "deadlines")}
    assert Game(engine).state.options.version == "grand"
    game["version"] = "normal"
    assert parse(data, "d.toml").games["realm-one"].setup()["options"]["version"] == "normal"


def test_the_template_names_only_commands_that_exist():
    # it sent a GM to `regent export` for a game file to import: no such command (/regent export, the slash command, is)
    from service.cli import build_parser

    commands = next(a.choices for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    named = re.findall(r"(?<![/\w])regent (\w[\w-]*)", TEMPLATE)
    assert "new" in named
    assert [n for n in named if n not in commands] == []
