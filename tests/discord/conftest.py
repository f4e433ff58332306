from __future__ import annotations

import pytest

from tests.service.helpers import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real ``regent serve`` (its own SQLite file) for a module's tests; deadlines are checked
    every 0.2 s so expiry tests run in seconds."""
    proc = ServerProcess(tmp_path_factory.mktemp("server"), args=("--expiry-interval", "0.2")).start()
    yield proc
    proc.stop()
