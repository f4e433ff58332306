"""game.report's ``split`` cuts the report in a worker, not on the event loop: a long report cut into many short
messages (``split: 1``, a 20 KB report: 20,000 of them) held the loop, and with it every connection, for
milliseconds a call, and a connection could pipeline hundreds of such calls."""

from __future__ import annotations

import threading

from service import app as app_module
from tests.service.helpers import in_app


def test_the_report_is_cut_into_messages_off_the_event_loop(monkeypatch):
    cut_in = []
    real = app_module.split_messages

    def split(text, limit):
        cut_in.append(threading.current_thread() is threading.main_thread())
        return real(text, limit)

    monkeypatch.setattr(app_module, "split_messages", split)

    async def body(app):
        g = await app.call("game.create", [{"setup": {"board": "ring-3", "players": 3, "seed": 1}}])
        return await app.call("game.report", [{"game_id": g["game_id"], "token": g["gm_token"], "split": 7}])

    out = in_app(body)
    assert cut_in == [False]  # cut once, in a worker thread
    assert out["messages"] == real(out["report"], 7) and len(out["messages"]) > 1
