// An independent MessagePack-RPC client: npm @msgpack/msgpack over a raw socket, nothing from Regent.
// usage: node interop.mjs (--unix PATH | --port N)   prints one JSON summary line on stdout.
import net from "node:net";
import { encode, decodeMultiStream } from "@msgpack/msgpack";

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const socket = opt("--unix") ? net.createConnection(opt("--unix")) : net.createConnection(Number(opt("--port")), "127.0.0.1");
await new Promise((resolve, reject) => { socket.once("connect", resolve); socket.once("error", reject); });

let nextId = 1;
const waiting = new Map();
(async () => {
  for await (const msg of decodeMultiStream(socket)) {
    const [type, msgid, error, result] = msg;
    if (type === 1 && waiting.has(msgid)) { waiting.get(msgid)([error, result]); waiting.delete(msgid); }
  }
})();

function request(method, fields) {
  const msgid = nextId++;
  return new Promise((resolve) => { waiting.set(msgid, resolve); socket.write(encode([0, msgid, method, [fields]])); });
}
async function call(method, fields = {}) {
  const [error, result] = await request(method, fields);
  if (error !== null && error !== undefined) throw Object.assign(new Error(error.message), { code: error.code });
  return result;
}

const out = {};
out.ping = await call("ping");
// Pipelined: three requests written before any reply is read.
const [a, b, c] = await Promise.all([call("ping"), call("version"), call("methods")]);
out.pipelined = [a, b.protocol, c.includes("game.submit")];
const [err] = await request("no.such.method", {});
out.unknown_method = err.code;

const game = await call("game.create", { setup: { board: "ring-5", seed: 9, players: 5,
  agents: { "Player#3": "caretaker", "Player#4": "random", "Player#5": "caretaker" } } });
const { game_id, gm_token, seat_tokens } = game;
const bid = await call("game.submit", { game_id, token: seat_tokens["Player#1"], text: "bid 2" });
out.accepted = bid.accepted;
const [bad] = await request("game.submit", { game_id, token: seat_tokens["Player#2"], text: "March! 9 from P1 to P9" });
out.invalid_order = bad.code;
out.rejected_line = bad.details.rejected[0].line;
let steps = 0;
for (; steps < 500; steps++) {
  const view = await call("game.view", { game_id, token: gm_token, wait: true });
  if (view.over) { out.result = view.result; out.played_by_ai = Object.keys(view.played_by_ai).sort(); break; }
  await call("game.advance", { game_id, token: gm_token, force: true, wait: true });
}
out.steps = steps;
const log = await call("game.log", { game_id, token: gm_token, since: 0 });
out.last_event = log.events[log.events.length - 1].kind;
console.log(JSON.stringify(out));
socket.end();
process.exit(0);
