"""``regent serve`` refuses what it cannot use before it starts, in one line naming the flag or file,
exit status 2, never a traceback (hostile-client dogfood hB items 5, 7, 8, 9)."""

from __future__ import annotations

import pytest

from service.cli import main


def serve_error(capsys, *args: str) -> str:
    assert main(["serve", "--log-level", "error", *args]) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("regent: error: "), err
    assert "Traceback" not in err and "bug in Regent" not in err
    return lines[0]


@pytest.mark.parametrize(("flags", "named"), [
    (("--max-message", "0"), "--max-message 0"),
    (("--max-message", "-5"), "--max-message -5"),
    (("--processes", "-1"), "--processes -1"),
    (("--workers", "0"), "--workers 0"),
    (("--idle-timeout", "-1"), "--idle-timeout -1"),
    (("--idle-timeout", "inf"), "--idle-timeout inf"),
    (("--expiry-interval", "nan"), "--expiry-interval nan"),
    (("--max-inflight", "0"), "--max-inflight 0"),
    (("--max-connections", "-3"), "--max-connections -3"),
    (("--port", "70000"), "--port 70000"),
    (("--unix", "/nonexistent/dir/s.sock"), "/nonexistent/dir"),
    (("--unix", "/tmp/" + "x" * 200), "--unix"),
    (("--checkpoint-dir", "/nonexistent/ckpt"), "--checkpoint-dir /nonexistent/ckpt"),
])
def test_bad_flags_are_refused_naming_the_flag(capsys, tmp_path, flags, named):
    line = serve_error(capsys, "--db", str(tmp_path / "r.sqlite"), "--port", "0", *flags)
    assert named in line
