from __future__ import annotations

import pytest

from tests.service.helpers import ServerProcess


@pytest.fixture
def server(tmp_path):
    """A real ``regent serve`` on a Unix socket with its own SQLite file."""
    proc = ServerProcess(tmp_path).start()
    yield proc
    proc.stop()


@pytest.fixture
def client(server):
    with server.client() as c:
        yield c
