"""The ceiling for ``service_bench``: a bare asyncio msgpack-rpc server that answers every request
with ``"pong"`` (same Unpacker/Packer, same event loop, no methods, no validation).

Run: ``python -m benchmarks.echo_server`` prints ``{"port": N}`` on stdout once listening.
"""

from __future__ import annotations

import asyncio
import json
import sys

import msgpack


class Echo(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.unpacker = msgpack.Unpacker(raw=False)
        self.packer = msgpack.Packer(use_bin_type=True)

    def data_received(self, data: bytes) -> None:
        self.unpacker.feed(data)
        for msg in self.unpacker:
            self.transport.write(self.packer.pack([1, msg[1], None, "pong"]))


async def main() -> None:
    server = await asyncio.get_running_loop().create_server(Echo, "127.0.0.1", 0)
    print(json.dumps({"port": server.sockets[0].getsockname()[1]}), flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
