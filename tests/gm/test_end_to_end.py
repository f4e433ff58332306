"""A GM's running game, end to end, through the ``regent`` CLI only (issue 17, evidence 1).

The GM brings a game in at turn 3 from its position (``e2e/setup.json``: what the GM's own notes say),
an AI takes the seat of a player who left (Dan), and five turns follow with DMs pasted from the chat
as they came (``e2e/t*.txt``): greetings and sign-offs, display names and lower case, a mistyped
name in a header, DMs a day late, an apology that is no order, an illegal upgrade, a player who never
answers. ``e2e/script.txt`` lists the GM's commands in order; each runs in-process as
``service.cli.main`` would from a shell, on a clock that moves six hours per command (and as much as
an ``@ 30h`` line says between them), in Berlin time.

The transcript (everything the CLI printed) and the public report of each turn are compared with
``golden/``. When the engine's reports change on purpose, regenerate and read the diff:

    REGENT_REGOLD=1 .venv/bin/python -m pytest -q tests/gm/test_end_to_end.py
    git diff tests/gm/golden/
"""

from __future__ import annotations

import os
import shlex
import shutil
import time
from pathlib import Path

import pytest

from service import gamefile
from service.cli import main
from service.hosting import HostedGame

HERE = Path(__file__).parent
FIXTURES = HERE / "e2e"
GOLDEN = HERE / "golden"
REGOLD = os.environ.get("REGENT_REGOLD") == "1"
START = 1795453200.0  # Mon 23 Nov 2026 18:00 Berlin: the evening the GM imports the game
STEP = 6 * 3600.0  # the clock moves six hours per command
TZ = "Europe/Berlin"


@pytest.fixture()
def berlin(monkeypatch):
    monkeypatch.setenv("TZ", TZ)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def commands() -> list[str]:
    lines = (FIXTURES / "script.txt").read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip()]


def play(tmp_path: Path, monkeypatch, capsys) -> str:
    """Run the script; returns the transcript."""
    for f in FIXTURES.iterdir():
        shutil.copy(f, tmp_path / f.name)
    monkeypatch.chdir(tmp_path)
    clock = [START]
    monkeypatch.setattr(gamefile, "now", lambda: clock[0])
    out = []
    for line in commands():
        if line.startswith("#"):
            out.append(line)
            continue
        if line.startswith("@"):  # "@ 30h": time passes before the next command
            clock[0] += float(line[1:].strip().rstrip("h")) * 3600
            out.append(f"({line[1:].strip()} later)")
            continue
        words = shlex.split(line)
        assert words[0] == "regent"
        code = main(words[1:])
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err, line
        out.append(f"$ {line}")
        out += [ln for ln in (captured.out + captured.err).splitlines()]
        if code:
            out.append(f"[exit {code}]")
        clock[0] += STEP
    return "\n".join(out) + "\n"


def check(name: str, text: str) -> None:
    path = GOLDEN / name
    if REGOLD:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden {name}: run with REGENT_REGOLD=1 and review it"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from golden (REGENT_REGOLD=1 to accept)"


def test_a_running_game_five_turns_through_the_cli(tmp_path, monkeypatch, capsys, berlin):
    transcript = play(tmp_path, monkeypatch, capsys)
    gf = gamefile.read(tmp_path / "game.bin")
    game = gf.game
    # the game came in at turn 3 and ran five turns, Dan's seat played by the AI from turn 3 on
    assert game.setup["position"]["turn"] == 3 and game.state.turn >= 7
    assert gf.agents == {"Player#4": "heuristic"} and gf.ai_played == {"Player#4": ["heuristic"]}
    assert transcript.count("AI Player#4 (Dan) [heuristic]") >= 10
    # every turn's report names the AI seat; the GM saw deadlines in local time, never Unix time
    for t in range(3, 8):
        assert f"== Turn {t} ==" in transcript
    assert "CET" in transcript and "17954" not in transcript
    # the messy DMs: a mistyped header is refused with a suggestion, late DMs wait for --advance/all in,
    # an invalid line is dropped by --lenient and the rest stands
    assert "did you mean Player#3 (Carol)?" in transcript
    assert "dropped line 6: 'Snitch Alcie'" in transcript
    assert (tmp_path / "game.bin.bak").is_file()
    # the same file goes into the service and comes back out equal
    hosted, _, _ = HostedGame.imported("g-e2e", (tmp_path / "game.bin").read_bytes(), None)
    assert hosted.game.view(None) == game.view(None) and hosted.meta["controllers"]["Player#4"] == "heuristic"
    check("transcript.txt", transcript)
    check("reports.txt", "\n\n".join(game.report(t) for t in range(3, game.state.turn + 1)) + "\n")
