"""Issue 17 item 5 through the CLI and RPC: ``regent report`` (turn, --since-last, --discord,
--private) and ``game.report`` (since, private); display names; a seat sees only its own summary."""

from __future__ import annotations

import json
import re

import pytest

from engine.protectors.game import Game
from service import gamefile
from service.cli import main
from service.cli.report import SEPARATOR
from service.client import ServiceError

SEPARATOR_LINE = re.compile(re.escape(SEPARATOR).replace(r"\{i\}", r"\d+").replace(r"\{n\}", r"\d+")
                            .replace(r"\{chars\}", r"\d+"))
NAMES = ["Alice", "Bob", None, "Dora", "Emil"]
SETUP = {"board": "ring-5", "seed": 7, "players": [{"name": n} if n else {} for n in NAMES]}


def game_file(tmp_path, steps: int = 0):
    g = Game(SETUP)
    for _ in range(steps):
        g.advance(force=True)
    path = tmp_path / "game.bin"
    gamefile.write(path, gamefile.GameFile(g), backup=False)
    return path


def advance(path, steps: int = 1) -> None:
    gf = gamefile.read(path)
    for _ in range(steps):
        gf.game.advance(force=True)
    gamefile.write(path, gf, backup=False)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


class TestCli:
    def test_the_turns_report_in_display_names(self, tmp_path, capsys):
        path = game_file(tmp_path, steps=1)
        code, out, _ = run(capsys, "report", str(path))
        assert code == 0 and out.startswith("== Turn 1 ==")
        assert "Alice 0" in out and "Player#3 0" in out  # a seat without a display name keeps Player#N
        assert "Player#1" not in out and "Player#2" not in out

    def test_since_last_prints_only_what_is_new(self, tmp_path, capsys):
        path = game_file(tmp_path, steps=1)
        _, first, _ = run(capsys, "report", str(path), "--since-last")
        assert "Calms of Summer" in first
        code, again, err = run(capsys, "report", str(path), "--since-last")
        assert code == 0 and again == "" and "nothing new" in err
        advance(path)  # the orders step resolves (everyone fortifies) and consolidation starts
        _, new, _ = run(capsys, "report", str(path), "--since-last")
        assert new and "Calms of Summer" not in new and "Fortify!" in new

    def test_dry_run_does_not_move_the_mark(self, tmp_path, capsys):
        path = game_file(tmp_path, steps=1)
        _, a, _ = run(capsys, "report", str(path), "--since-last", "--dry-run")
        _, b, _ = run(capsys, "report", str(path), "--since-last")
        assert a == b and "Calms of Summer" in a

    def test_discord_messages_keep_to_the_limit_and_lose_nothing(self, tmp_path, capsys):
        path = game_file(tmp_path, steps=3)
        _, whole, _ = run(capsys, "report", str(path), "--turn", "1")
        code, out, _ = run(capsys, "report", str(path), "--turn", "1", "--discord", "--limit", "80")
        assert code == 0
        lines = out.splitlines()
        heads = [i for i, ln in enumerate(lines) if SEPARATOR_LINE.fullmatch(ln)]
        assert heads[0] == 0 and len(heads) > 1
        bodies = ["\n".join(lines[a + 1:b]) for a, b in zip(heads, [*heads[1:], len(lines)], strict=True)]
        for i, (h, body) in enumerate(zip(heads, bodies, strict=True), start=1):
            assert lines[h].startswith(f"----- message {i}/{len(heads)} (") and len(body) <= 80
        assert "\n".join(bodies).split() == whole.split()  # every word, in order, nothing added

    def test_a_short_report_is_one_message_at_the_default_2000(self, tmp_path, capsys):
        path = game_file(tmp_path, steps=1)
        _, out, _ = run(capsys, "report", str(path), "--discord")
        assert out.startswith("----- message 1/1 (") and out.count("----- message") == 1

    def test_discord_messages_show_names_with_markdown_as_written(self, tmp_path, capsys):
        # 16 seats: 'Ann*', 'Dan`' and 'Eve|' pasted from --discord italicised or code-spanned the text between two
        # such names in a Bids line; escaped as the Discord bot escapes a report it posts (service.discord.texts.shown)
        names = ["Ann*", "Ben*", "Cy`", "Di`", "Eve||"]
        g = Game({"board": "ring-5", "seed": 7, "players": [{"name": n} for n in names]})
        g.advance(force=True)
        path = tmp_path / "game.bin"
        gamefile.write(path, gamefile.GameFile(g), backup=False)
        _, plain, _ = run(capsys, "report", str(path), "--turn", "1")
        _, out, _ = run(capsys, "report", str(path), "--turn", "1", "--discord")
        assert "- Bids: Ann* 0, Ben* 0, Cy` 0, Di` 0, Eve|| 0" in plain.splitlines()  # the terminal's: as written
        assert "- Bids: Ann\\* 0, Ben\\* 0, Cy\\` 0, Di\\` 0, Eve\\|\\| 0" in out.splitlines()

    def test_private_summary_by_display_name(self, tmp_path, capsys):
        path = game_file(tmp_path, steps=1)
        code, out, _ = run(capsys, "report", str(path), "--private", "bob")
        assert code == 0 and out.startswith("== Bob (Player#2): your summary, turn 1 ==")
        assert "Balance: " in out and "Army Units: 1" in out

    def test_a_misspelt_private_seat_gets_the_closest_name(self, tmp_path, capsys):
        path = game_file(tmp_path, steps=1)
        code, _, err = run(capsys, "report", str(path), "--private", "bbo")  # in any case
        assert code == 2 and "no seat is called 'bbo'; did you mean Player#2 (Bob)?" in err

    @pytest.mark.parametrize(("argv", "says"), [
        (["--turn", "9"], "--turn"),
        (["--private", "Nobody"], "--private"),
        (["--dry-run"], "--dry-run"),
        (["--private", "Alice", "--since-last"], "--since-last"),
    ])
    def test_bad_options_are_one_line_errors(self, tmp_path, capsys, argv, says):
        path = game_file(tmp_path, steps=1)
        code, out, err = run(capsys, "report", str(path), *argv)
        assert code == 2 and out == "" and says in err and len(err.strip().splitlines()) == 1


def create(client):
    return client.call("game.create", setup={**SETUP, "auto_advance": False})


def test_rpc_report_since_and_next(client):
    game = create(client)
    gid, gm = game["game_id"], game["gm_token"]
    client.call("game.advance", game_id=gid, token=gm, force=True)
    first = client.call("game.report", game_id=gid, token=gm, since=0)
    assert "Alice 0" in first["report"] and first["next"] > 0
    again = client.call("game.report", game_id=gid, token=gm, since=first["next"])
    assert again["report"] == "" and again["next"] == first["next"]
    client.call("game.advance", game_id=gid, token=gm, force=True)
    new = client.call("game.report", game_id=gid, token=gm, since=first["next"])
    assert "Calms of Summer" not in new["report"] and "Fortify!" in new["report"]


def test_rpc_private_summary_gm_any_seat_a_seat_only_its_own(client):
    game = create(client)
    gid, gm, tokens = game["game_id"], game["gm_token"], game["seat_tokens"]
    client.call("game.advance", game_id=gid, token=gm, force=True)
    client.call("game.advance", game_id=gid, token=gm, force=True)  # orders -> consolidation: production
    by_gm = client.call("game.report", game_id=gid, token=gm, private="Player#2")
    own = client.call("game.report", game_id=gid, token=tokens["Player#2"], private="Bob")
    assert own["report"] == by_gm["report"] and own["seat"] == "Player#2"
    assert "Bob produces" in own["report"]
    for label in ("Player#1", "Alice", "Nobody"):  # the same refusal whether the seat exists or not
        with pytest.raises(ServiceError) as err:
            client.call("game.report", game_id=gid, token=tokens["Player#2"], private=label)
        assert err.value.code == "forbidden" and "Player#1" not in err.value.message
    spy = client.call("game.report", game_id=gid, token=tokens["Player#1"])
    assert "Bob produces" not in spy["report"] and "Player#2 produces" not in spy["report"]


def test_rpc_private_summary_names_the_ai_that_decided_for_that_seat_only(client):
    game = create(client)
    gid, gm, tokens = game["game_id"], game["gm_token"], game["seat_tokens"]
    client.call("game.assign", game_id=gid, token=gm, seat="Player#1", agent="heuristic")
    view = client.call("game.view", game_id=gid, token=gm, wait=True)
    assert next(p for p in view["pending"] if p["seat"] == "Player#1")["submitted"]
    client.call("game.assign", game_id=gid, token=gm, seat="Player#1", agent=None)  # back to a human mid-turn
    mine = client.call("game.report", game_id=gid, token=tokens["Player#1"], private="Player#1", turn=1)
    other = client.call("game.report", game_id=gid, token=tokens["Player#2"], private="Player#2", turn=1)
    assert mine["played_by_ai"] == {"Player#1": ["heuristic"]}
    assert other["played_by_ai"] == {}  # Player#2's summary says nothing of Player#1's


def test_rpc_advance_answer_reports_in_display_names(client):
    game = create(client)
    reply = client.call("game.advance", game_id=game["game_id"], token=game["gm_token"], force=True)
    assert "Alice 0" in reply["report"] and "Player#1" not in reply["report"]


def test_rpc_split_gives_messages_within_the_limit_that_make_the_report(client):
    game = create(client)
    gid, gm = game["game_id"], game["gm_token"]
    client.call("game.advance", game_id=gid, token=gm, force=True)
    out = client.call("game.report", game_id=gid, token=gm, split=60)
    assert len(out["messages"]) > 1 and all(len(m) <= 60 for m in out["messages"])
    assert "".join(out["messages"]) == out["report"]
    with pytest.raises(ServiceError) as err:
        client.call("game.report", game_id=gid, token=gm, split=0)
    assert err.value.code == "invalid_params" and "split" in err.value.message


def test_rpc_forced_advance_names_the_seats_the_rulebook_default_played_for(client):
    # as `regent adjudicate --force` ends its report: the GM posting the service's report had no such line
    game = create(client)
    gid, gm, tokens = game["game_id"], game["gm_token"], game["seat_tokens"]
    for seat in ("Player#1", "Player#4"):
        client.call("game.submit", game_id=gid, token=tokens[seat], text="Bid 1")
    reply = client.call("game.advance", game_id=gid, token=gm, force=True)
    assert reply["report"].splitlines()[-1] == "Rulebook defaults for: Bob, Player#3, Emil in the bid step"
    other = create(client)
    for n, token in enumerate(other["seat_tokens"].values()):
        client.call("game.submit", game_id=other["game_id"], token=token, text=f"Bid {n}")
    plain = client.call("game.advance", game_id=other["game_id"], token=other["gm_token"])  # no defaults to name
    assert "Rulebook defaults" not in plain["report"]


def test_rpc_a_turns_report_names_whose_decisions_the_rulebook_made_as_regent_report_does(client, tmp_path, capsys):
    # `regent report --turn N` ends with the line each forced step's report ended with; game.report had none
    game = create(client)
    gid, gm, tokens = game["game_id"], game["gm_token"], game["seat_tokens"]
    where = {"game_id": gid, "token": gm}
    client.call("game.submit", **where, seat="Alice", text="Bid 5")
    assert "Rulebook defaults" not in client.call("game.report", **where)["report"]  # nothing forced yet: no line
    client.call("game.advance", **where, force=True)
    for seat in ("Alice", "Player#3"):
        client.call("game.submit", **where, seat=seat, text="none")
    orders = client.call("game.advance", **where, force=True)
    assert orders["report"].splitlines()[-1] == "Rulebook defaults for: Bob, Dora, Emil in the orders step"
    line = "Rulebook defaults for: Bob, Player#3, Dora, Emil in the bid step; Bob, Dora, Emil in the orders step"
    for fields in ({"turn": 1}, {}, {"token": tokens["Player#3"]}):  # a seat's copy too: the line is public
        text = client.call("game.report", **{**where, **fields})["report"]
        assert text.splitlines()[-1] == line and text.count("Rulebook defaults") == 1, fields
    # what is new since a post says nothing of it (the channel's post of each step says it its own way)
    assert "Rulebook defaults" not in client.call("game.report", **where, since=0)["report"]
    # the same line as the CLI's for the same game, and as an imported copy's (read by a replay there)
    blob = client.call("game.export", **where)["blob"]
    path = tmp_path / "game.bin"
    path.write_bytes(blob)
    _, out, _ = run(capsys, "report", str(path), "--turn", "1")
    assert out.splitlines()[-1] == line
    copy = client.call("game.import", blob=blob)
    assert client.call("game.report", game_id=copy["game_id"], token=copy["gm_token"], turn=1)[
        "report"].splitlines()[-1] == line
    client.call("game.advance", **where, force=True)  # the consolidation: nothing forced in turn 2 yet
    assert "Rulebook defaults" not in client.call("game.report", **where)["report"]


def test_a_seats_summary_says_the_games_orders_window_not_the_rulebooks(tmp_path, capsys):
    setup = {**SETUP, "deadlines": {"orders": 172800}}
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    path = tmp_path / "game.bin"
    assert main(["new", str(path), "--setup", str(tmp_path / "setup.json")]) == 0
    assert main(["adjudicate", str(path), "--force"]) == 0  # the bids: now the orders step
    code, out, _ = run(capsys, "report", str(path), "--private", "Dora")
    assert code == 0 and out.rstrip().endswith("Now: send your orders DM (within 48h).")


def test_rpc_private_summary_says_the_games_orders_window(client):
    game = client.call("game.create", setup={**SETUP, "deadlines": {"orders": 172800}})
    gid, gm, tokens = game["game_id"], game["gm_token"], game["seat_tokens"]
    client.call("game.advance", game_id=gid, token=gm, force=True)
    own = client.call("game.report", game_id=gid, token=tokens["Player#4"], private="Player#4")
    assert own["report"].endswith("Now: send your orders DM (within 48h).")


def test_a_report_running_into_the_next_turn_says_the_ai_seats_under_each_turn(tmp_path):
    # the Discord bot posts what is new since its last post; a Consolidation resolved, then the next turn's bids and
    # cards, came with one 'Played by AI' line after the later turn's header, naming the AI seats of both turns
    from service.store import Store
    from tests.service.helpers import in_app

    async def body(app):
        g = await app.call("game.create", [{"setup": {"board": "ring-3", "seed": 4, "players": [
            {"name": "Ann"}, {"name": "Ben"}, {"name": "Cy", "agent": "heuristic"}]}}])
        gm = {"game_id": g["game_id"], "token": g["gm_token"]}
        for _ in range(6):  # turn 1's bids, orders and Consolidation by DM ('none' where it may be)
            view = await app.call("game.view", [{**gm, "wait": True}])
            if view["turn"] > 1:
                break
            for p in view["pending"]:
                if not p["submitted"] and not p["controller"]:
                    text = "Bid 1" if view["step"] == "bid" else "none"
                    await app.call("game.submit", [{"game_id": g["game_id"], "token": g["seat_tokens"][p["seat"]],
                                                    "text": text}])
        await app.call("game.view", [{**gm, "wait": True}])
        return (await app.call("game.report", [{**gm, "since": 0}]))["report"].split("\n")

    rows = in_app(body, Store(tmp_path / "g.sqlite"))
    header = rows.index("== Turn 2 ==")
    assert rows[header - 1] == "Played by AI: Cy (heuristic)"  # turn 1's part ends with turn 1's AI seats
    assert rows[-1] == "Played by AI: Cy (heuristic)" and sum(r.startswith("Played by AI") for r in rows) == 2


def test_rpc_advance_report_running_into_the_next_turn_says_the_step_under_its_own_turn(client):
    # game.advance's report of a Consolidation that ran into turn 2 (bids, cards, a Dragon Attack) had no turn
    # headers and ended 'Rulebook defaults for: ... in the consolidation step' after turn 2's min.US, as if turn 2's;
    # it now reads as regent adjudicate's: each turn under its header, the step's lines under turn 1's
    game = create(client)
    gid, gm = game["game_id"], game["gm_token"]
    for _ in range(2):  # the bids, the orders
        client.call("game.advance", game_id=gid, token=gm, force=True)
    rows = client.call("game.advance", game_id=gid, token=gm, force=True)["report"].split("\n")
    assert rows[0] == "== Turn 1 ==" and "== Turn 2 ==" in rows
    turn2 = rows.index("== Turn 2 ==")
    step_lines = rows[turn2 - 1]
    assert step_lines.startswith("Rulebook defaults for: ") and step_lines.endswith(" in the consolidation step")
    assert any(row.startswith("- Bids: ") for row in rows[turn2:])


def test_a_turns_defaults_line_names_the_same_silent_seats_once_for_their_steps():
    # 16 seats: 'Rulebook defaults for: Cat, Jo in the dragon step (the attack at DPL 12); Cat, Jo in the orders step;
    # Cat, Jo in the consolidation step' named the same silent seats once per step (eight silent players: 320
    # characters); steps with the same seats are named together, in the turn's order
    from service.defaulted import Defaulted, turn_line

    names = {"Player#3": "Cat", "Player#10": "Jo", "Player#2": "Ben"}
    rows = [Defaulted(6, step, seat, (), dpl) for step, dpl, seats in (
        ("dragon", 12, ("Player#3", "Player#10")), ("orders", None, ("Player#10", "Player#3")),
        ("consolidation", None, ("Player#3", "Player#10", "Player#2"))) for seat in seats]
    rows += [Defaulted(6, "dragon", "Player#2", (), 20)]  # the After Burner's attack, Ben alone
    assert turn_line(rows, 6, names.__getitem__) == (
        "Rulebook defaults for: Cat, Jo in the dragon step (the attack at DPL 12) and the orders step; Ben, Cat, Jo in "
        "the consolidation step; Ben in the dragon step (the attack at DPL 20)")
