"""``regent discord``: the game in the GM's Discord server, as a client of a running ``regent serve``.

Players DM the bot, the game channel gets reports and board pictures, the GM runs the game with
``/regent`` slash commands. Every game action goes through the msgpack-rpc service
(``service.client``); this package never imports the engine, so there is one engine path and the
bot holds no game state of its own beyond what it needs to post each thing once (``state.py``).

- ``config.py``: the ``discord.toml`` file (``regent discord init`` writes a template);
- ``chat.py``: the small interface the bridge talks to (a DM arrives, post, reply, check a role);
- ``bridge.py``: the logic, written against that interface and tested with an in-process fake;
- ``adapter.py``: discord.py mapped onto the interface (needs the ``discord`` extra).
"""
