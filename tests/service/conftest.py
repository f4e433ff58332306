from __future__ import annotations

import pytest

from tests.service.helpers import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real ``regent serve`` on a Unix socket with its own SQLite file, shared by a module's tests
    (each test makes its own games and connection)."""
    proc = ServerProcess(tmp_path_factory.mktemp("server")).start()
    yield proc
    proc.stop()


@pytest.fixture
def client(server):
    """A fresh connection for each test."""
    with server.client() as c:
        yield c
