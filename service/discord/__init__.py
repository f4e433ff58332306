"""``regent discord``: the game in the GM's Discord server, as a client of a running ``regent serve``.

Players DM the bot, the game channel gets reports and board pictures, the GM runs the game with
``/regent`` slash commands. Every game action goes through the msgpack-rpc service
(``service.client``); this package never imports the engine, so there is one engine path and the
bot holds no game state of its own beyond what it needs to post each thing once (``state.py``).

- ``config.py``: the ``discord.toml`` file (``regent discord init`` writes a template);
- ``chat.py``: the small interface the bridge talks to (a DM arrives, post, reply, check a role);
- ``bridge.py``: the logic (``Bridge``), written against that interface and tested with an in-process fake; made of
  ``core.py`` (its state, the service calls, who holds which seat), ``talking.py`` (posts, reaching a player),
  ``channel_posts.py`` (the channel after each step), ``summaries.py`` (each player's own summaries and balance),
  ``games.py`` (creating and importing the configured games), ``dms.py`` (a player's DM), ``catch_up.py`` (DMs sent
  while the bot was offline), ``channel_messages.py`` (a decision posted in the game's channel instead of a DM),
  ``reminders.py`` (the tick and the deadlines), ``commands.py`` and ``seat_command.py`` (the GM's ``/regent``
  commands), with the pure ``texts.py``, ``answers.py``, ``routing.py``, ``game_files.py`` and
  ``world_commands.py``;
- ``adapter.py``: discord.py mapped onto the interface (needs the ``discord`` extra).
"""
