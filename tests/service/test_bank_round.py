"""A Bank of Lannuvár round (rules: 003 The Bank of Lannuvár: its seats decide "once the other players' choices
have been revealed") keeps the service's record of the AI decisions of the round it answers: its ``game.advance``
report lists those commitments or bids again and now names the seats an AI played in them (it had no ``Played by
AI`` line), and the game file ``game.export`` writes keeps them in ``step_ai``, as ``regent adjudicate`` does
(``service.gamefile.bank_round_began``). The record survives a restart of the service, ``game.undo``
and ``game.import`` of the file."""

from __future__ import annotations

import asyncio

from service import gamefile
from service.app import App
from service.store import Store

BEN_AND_CY = "Played by AI: Ben and Cy (heuristic)"
FIRST_ROUND_AI = {"Player#2": "heuristic", "Player#3": "heuristic"}


def _setup(position: dict) -> dict:
    """A factions game at ``position`` where Ann (Lannuvár) may use the Bank of Lannuvár; Ben and Cy are AI seats
    (the CLI's test of the same: tests/gm/test_adjudicate_reports.py ``_bank_game``)."""
    seats = [f"Player#{i}" for i in range(1, 5)]
    return {"board": "ring-4", "seed": 5, "options": {"factions": True}, "auto_advance": False,
            "players": [{"name": "Ann"}, {"name": "Ben", "agent": "heuristic"}, {"name": "Cy", "agent": "heuristic"},
                        {"name": "Di"}],
            "position": {"ranking": seats, "provinces": {f"P{i}": {"owner": s, "units": 3}
                                                         for i, s in enumerate(seats, 1)},
                         "factions": {"Player#1": "Lannuvar"}, "realm": dict.fromkeys(seats, 60), **position}}


DRAGON = {"turn": 4, "step": "dragon", "dpl": 6, "cards_in_play": ["There be Dragons!"],
          "attack": {"dpl": 6, "source": "card"}}


class Service:
    """The service in this process on its own SQLite file: ``restart`` is a new process on the same file."""

    def __init__(self, tmp_path):
        self.db = tmp_path / "g.sqlite"
        self.app: App | None = None

    async def start(self) -> Service:
        self.app = App(Store(self.db), workers=2, expiry_interval=0)
        self.app.start()
        return self

    async def restart(self) -> None:
        await self.close()
        await self.start()

    async def close(self) -> None:
        if self.app is not None:
            await self.app.close()
            self.app = None

    async def __call__(self, method: str, **params):
        assert self.app is not None
        return await self.app.call(method, [params])

    async def step_ai(self, where: dict) -> dict:
        return gamefile.loads((await self("game.export", **where))["blob"]).step_ai


async def _dragon_attack(svc: Service) -> dict:
    """The DRAGON position's game, its AI seats' commitments in: the GM's fields for the calls."""
    g = await svc("game.create", setup=_setup(DRAGON))
    gm = {"game_id": g["game_id"], "token": g["gm_token"]}
    await svc("game.view", **gm, wait=True)  # Ben's and Cy's AIs commit
    return gm


def _report(answer: dict) -> list[str]:
    return answer["report"].rstrip().splitlines()


def test_the_bank_round_of_a_dragon_attack_names_the_ai_seats_whose_commitments_it_shows(tmp_path):
    async def go():
        svc = await Service(tmp_path).start()
        try:
            gm = await _dragon_attack(svc)
            await svc("game.submit", **gm, seat="Ann", text="The Bank of Lannuvár")
            await svc("game.submit", **gm, seat="Di", text="1 from P4")
            first = await svc("game.advance", **gm, wait=True)
            assert "The Bank of Lannuvár decides next: Ann" in first["report"] and BEN_AND_CY in _report(first)
            assert await svc.step_ai(gm) == FIRST_ROUND_AI  # was {}: the first round's record was cleared
            await svc("game.assign", **gm, seat="Ben", agent=None)  # the AI's commitment stands, and its record
            await svc.restart()  # read back from the service's log
            assert await svc.step_ai(gm) == FIRST_ROUND_AI
            blob = (await svc("game.export", **gm))["blob"]
            copy = await svc("game.import", blob=blob)  # the file's step_ai: the copy's record too
            where = {"game_id": copy["game_id"], "token": copy["gm_token"]}
            assert await svc.step_ai(where) == FIRST_ROUND_AI
            for game in (gm, where):
                await svc("game.submit", **game, seat="Ann", text="2 from P1")
                bank = await svc("game.advance", **game, wait=True)
                assert "- Ben commits 3 from P2: US 3 of min.US 1." in bank["report"]
                assert "the Protectors win" in bank["report"]
                assert _report(bank)[-1] == BEN_AND_CY, game  # there was no Played by AI line
            # the orders step that follows is the orders step's own: nothing carried over
            await svc("game.view", **gm, wait=True)
            assert await svc.step_ai(gm) == {"Player#3": "heuristic"}
            # the Bank round rolled back is that round again, the record of the round it answers with it
            await svc("game.undo", **gm)
            assert await svc.step_ai(gm) == FIRST_ROUND_AI
            again = await svc("game.advance", **gm, wait=True)
            assert _report(again)[-1] == BEN_AND_CY
        finally:
            await svc.close()

    asyncio.run(go())


def test_the_bank_bid_names_the_ai_seats_whose_bids_the_ranking_shows(tmp_path):
    # Ann activates the Bank in the Consolidation: she bids after Ben's and Cy's AI bids are revealed, and the
    # ranking's report, which lists them, had no Played by AI line
    async def go():
        svc = await Service(tmp_path).start()
        try:
            g = await svc("game.create", setup=_setup({"turn": 3, "step": "consolidation"}))
            gm = {"game_id": g["game_id"], "token": g["gm_token"]}
            await svc("game.view", **gm, wait=True)
            await svc("game.submit", **gm, seat="Ann", text="The Bank of Lannuvár")
            await svc("game.submit", **gm, seat="Di", text="Bid 3")
            first = await svc("game.advance", **gm, wait=True)
            assert "- Bids revealed: Ben " in first["report"] and BEN_AND_CY in _report(first)
            assert (await svc("game.view", **gm))["step"] == "bank_bid"
            assert await svc.step_ai(gm) == FIRST_ROUND_AI
            await svc("game.submit", **gm, seat="Ann", text="Bid 4")
            bank = await svc("game.advance", **gm, wait=True)
            assert "- Bids: Ann 4" in bank["report"] and "Protector Ranking: " in bank["report"]
            assert _report(bank)[-1] == BEN_AND_CY
        finally:
            await svc.close()

    asyncio.run(go())


def test_a_step_that_begins_no_bank_round_keeps_no_record_of_the_one_before(tmp_path):
    # the same attack without the Bank: the commitments resolve it at once, and the orders step after it starts
    # with no AI decision on record but its own
    async def go():
        svc = await Service(tmp_path).start()
        try:
            gm = await _dragon_attack(svc)
            await svc("game.assign", **gm, seat="Cy", agent=None)  # Cy's AI committed; the orders are Cy's own
            await svc("game.submit", **gm, seat="Ann", text="1 from P1")
            await svc("game.submit", **gm, seat="Di", text="1 from P4")
            done = await svc("game.advance", **gm, wait=True)
            assert BEN_AND_CY in _report(done) and "Bank of Lannuvár" not in done["report"]
            await svc("game.view", **gm, wait=True)  # Ben's AI gives its orders
            assert await svc.step_ai(gm) == {"Player#2": "heuristic"}
        finally:
            await svc.close()

    asyncio.run(go())


def test_a_game_stored_in_a_bank_round_before_the_mark_existed_keeps_the_ai_record_after_a_restart(tmp_path):
    # an older Regent stored the advance that began the Bank round without its bank_round mark: read back, the
    # round is recognised from the replay, so the record of the round it answers is not lost
    async def go():
        svc = await Service(tmp_path).start()
        try:
            gm = await _dragon_attack(svc)
            await svc("game.submit", **gm, seat="Ann", text="The Bank of Lannuvár")
            await svc("game.submit", **gm, seat="Di", text="1 from P4")
            await svc("game.advance", **gm, wait=True)
            await svc.close()
            store = Store(svc.db)
            stored = store.load(gm["game_id"])
            marked = [row for row, _, _ in stored.actions if row.get("bank_round")]
            assert len(marked) == 1
            del marked[0]["bank_round"]  # as an older Regent stored it
            store.truncate(gm["game_id"], stored.actions, stored.meta)
            store.close()
            await svc.start()
            assert await svc.step_ai(gm) == FIRST_ROUND_AI  # was {}: the unmarked round lost the record
            await svc("game.submit", **gm, seat="Ann", text="2 from P1")
            bank = await svc("game.advance", **gm, wait=True)
            assert _report(bank)[-1] == BEN_AND_CY
        finally:
            await svc.close()

    asyncio.run(go())
