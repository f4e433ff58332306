"""The public view: what every player may see, for a picture posted in the game's channel.

Built from the GM's view by keeping only listed public keys (a key the engine adds later stays out
until it is listed here), and from the events with no ``visible_to`` (public events). No $Realm, no
bids, no submissions, no decks, no looks at the decks, no Sanctum choices.
# rules: 003 Each Turn — orders are secret until revealed; "All orders/choices made by the different
# players will be revealed to all players at the same time as they are executed in the game."
"""

from __future__ import annotations

from typing import Any

PUBLIC_KEYS = ("turn", "step", "board", "island", "ranking", "dpl", "power_threshold", "cards", "locked_cards",
               "provinces", "options", "sanctum_holder")
PUBLIC_PLAYER_KEYS = ("name", "faction", "team", "eliminated", "provinces", "units", "vp", "bracket")
PUBLIC_RESULT_KEYS = ("how", "winner", "turn", "vp")
PUBLIC_ATTACK_KEYS = ("dpl", "worldeater", "source", "bank_round", "bank_seats", "revealed")


def public_view(game: Any) -> dict[str, Any]:
    """The view dict of a player who holds no seat: only what the whole channel may see."""
    gm = game.view(None)
    out = {k: gm[k] for k in PUBLIC_KEYS if k in gm}
    out["players"] = {s: {k: p[k] for k in PUBLIC_PLAYER_KEYS if k in p} for s, p in gm["players"].items()}
    out["result"] = {k: gm["result"][k] for k in PUBLIC_RESULT_KEYS if k in gm["result"]} if gm.get("result") else None
    if gm.get("attack"):
        att = gm["attack"]
        keys = [k for k in PUBLIC_ATTACK_KEYS if k in att and (k != "revealed" or att.get("bank_round"))]
        out["attack"] = {k: att[k] for k in keys}
    return out


def public_events(game: Any) -> list[Any]:
    """The events every player may see (no private events, whoever they were for)."""
    return [e for e in game.events(None) if e.visible_to is None]
