"""``regent call METHOD '{json}'``: one request to a running service, the result printed as JSON.

The fields come as JSON text on the command line, from a file (``@fields.json``) or from standard
input (``-``): a large world does not fit on a command line ("Argument list too long"). A key given
twice in one JSON object is an error naming it, as in every file ``regent`` reads (engine/jsonfile.py).

Bytes in a result (a ``game.export`` blob, a rendered PNG) print as ``{"$bytes": base64}``, and a
``{"$bytes": base64}`` value in the JSON fields is sent as bytes, so scripts can round-trip them.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import json
import os
import sys
from typing import Any

from engine import json_mistakes, jsonfile
from service.client import DEFAULT_HOST, DEFAULT_PORT, Client, ServiceError
from service.limits import CREATE_TOKEN_ENV


def _to_json(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"$bytes": base64.b64encode(value).decode()}
    if isinstance(value, dict):
        return {str(k): _to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_to_json(v) for v in value]
    return value


def _from_json(value: Any, path: str = "fields") -> Any:
    """JSON fields as msgpack values: ``{"$bytes": base64}`` becomes bytes (a ValueError naming its path)."""
    if isinstance(value, dict):
        if set(value) == {"$bytes"} and isinstance(value["$bytes"], str):
            try:
                return base64.b64decode(value["$bytes"], validate=True)
            except binascii.Error as err:
                raise ValueError(f"{path}.$bytes: not base64 ({err})") from None
        return {k: _from_json(v, f"{path}.{k}") for k, v in value.items()}
    if isinstance(value, list):
        return [_from_json(v, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, int) and not -(2**63) <= value < 2**64:  # msgpack has no larger integers
        raise ValueError(f"{path}: {value} is too large for MessagePack (integers are -2**63 to 2**64-1)")
    return value


def read_fields(arg: str | None, stdin: Any = None) -> dict[str, Any]:
    """The named fields from JSON text, ``@FILE`` or ``-`` (standard input); a ValueError naming where."""
    if not arg:
        return {}
    if arg == "-":
        where, text = "standard input", (stdin or sys.stdin).read()
    elif arg.startswith("@"):
        where = arg[1:]
        if not where:
            raise ValueError("fields: '@' needs a file name: @fields.json")
        with open(where, encoding="utf-8") as f:  # errors name the file (service/cli/failure.py)
            text = f.read()
    else:
        where, text = "fields", arg
    try:
        fields = jsonfile.loads(text)
    except jsonfile.DuplicateKeyError as err:
        raise ValueError(f"{where}: {err}") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"{where}: {json_mistakes.not_json(err)}") from None
    if not isinstance(fields, dict):
        raise ValueError(f"{where}: must be a JSON object of named fields")
    return fields


def _call(args: argparse.Namespace) -> int:
    fields = read_fields(args.fields)
    if args.method in ("game.create", "game.import") and "token" not in fields and os.environ.get(CREATE_TOKEN_ENV):
        fields["token"] = os.environ[CREATE_TOKEN_ENV]  # the server's create token (regent serve --create-token)
    params = _from_json(fields)  # before connecting: a bad field is named without a service
    tls = None
    if args.tls or args.tls_ca:
        import ssl

        try:
            tls = ssl.create_default_context(cafile=args.tls_ca)
        except (OSError, ValueError) as err:  # ssl reads the file in C: name it here
            why = getattr(err, "strerror", None) or err
            raise ValueError(f"{args.tls_ca}: not a readable PEM certificate ({why})") from None
    try:
        with Client(args.host, args.port, unix=args.unix, timeout=args.timeout, tls=tls) as client:
            _, _, error, result = client.request(args.method, [params])
    except OSError as err:
        print(f"regent: error: cannot reach the service: {err}", file=sys.stderr)
        return 3
    if error is not None:
        json.dump(_to_json(error), sys.stderr, ensure_ascii=False)
        sys.stderr.write("\n")
        return 1
    json.dump(_to_json(result), sys.stdout, indent=None if args.compact else 2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("call", help="call one method of a running service (JSON in, JSON out)",
                              description=__doc__.splitlines()[0])
    p.add_argument("method", help="e.g. ping, game.create, game.view, npr.invasions")
    p.add_argument("fields", nargs="?", default="{}",
                   help="the method's named fields as a JSON object; @FILE reads it from a file, - from "
                        "standard input (for large fields such as a world). A key given twice is an error")
    p.add_argument("--host", default=DEFAULT_HOST)
    p.add_argument("--port", type=int, default=DEFAULT_PORT)
    p.add_argument("--unix", metavar="PATH", help="connect to a Unix socket instead of TCP")
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--compact", action="store_true", help="one-line JSON")
    p.add_argument("--tls", action="store_true", help="connect with TLS (a server run with --tls-cert)")
    p.add_argument("--tls-ca", metavar="PEM", help="trust this certificate (a self-signed server's); implies --tls")
    p.set_defaults(func=_call)


__all__ = ["ServiceError", "register"]
