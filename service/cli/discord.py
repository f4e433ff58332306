"""regent discord: run the game in a Discord server (docs/discord.md).

``regent discord init [PATH]`` writes a config template (``discord.toml`` by default);
``regent discord run [--config PATH]`` starts the bot, a client of a running ``regent serve``.
The bot token is read from the environment variable the config names, never from a file.
"""

from __future__ import annotations

import argparse
import logging
import os
import tempfile
from pathlib import Path

from service.discord import config as cfg


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("discord", help="run the game in a Discord server (players DM the bot)",
                       description=__doc__.splitlines()[0])
    dsub = p.add_subparsers(dest="discord_command", required=True, metavar="ACTION")
    init = dsub.add_parser("init", help="write a discord.toml template")
    init.add_argument("path", nargs="?", default=cfg.DEFAULT_PATH, help="where (default: ./discord.toml)")
    init.add_argument("--force", action="store_true", help="overwrite an existing file")
    init.set_defaults(func=_init)
    run = dsub.add_parser("run", help="start the bot (needs the discord extra and a running regent serve)")
    run.add_argument("--config", default=cfg.DEFAULT_PATH, help="the config file (default: ./discord.toml)")
    run.set_defaults(func=_run)


def _init(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if path.exists() and not args.force:
        raise ValueError(f"{path}: already exists (use --force to overwrite it)")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent if str(path.parent) else ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(cfg.TEMPLATE)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    print(f"wrote {path}: fill in the server, GM role, channels and seats, then `regent discord run --config {path}`")
    return 0


def _run(args: argparse.Namespace) -> int:
    config = cfg.load(args.config)
    token = os.environ.get(config.token_env, "").strip()
    if not token:
        raise ValueError(f"{args.config}: the bot token is not set: export {config.token_env}=... "
                         "(from the Discord developer portal, Bot -> Reset Token)")
    try:
        from service.discord import adapter
    except ModuleNotFoundError as err:
        if err.name and err.name.split(".")[0] in ("discord", "aiohttp"):
            raise ValueError("regent discord run needs discord.py: pip install 'regent[discord]'") from None
        raise
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    adapter.run(config, token)
    return 0
