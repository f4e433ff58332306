import socket, sys, time, msgpack, json
port = int(sys.argv[1]); n = int(sys.argv[2])
P = lambda o: msgpack.packb(o, use_bin_type=True)
socks = []; refused = 0
for i in range(n):
    try: socks.append(socket.create_connection(("127.0.0.1", port), timeout=2))
    except OSError as e: refused += 1
print("opened", len(socks), "refused", refused)
time.sleep(1)
# does a held connection get answers?
s = socks[0]; s.settimeout(5); s.sendall(P([0, 1, "game.create", [{"setup": {"board": "ring-3"}}]]))
up = msgpack.Unpacker(raw=False)
try: up.feed(s.recv(65536)); print("held conn create:", str(list(up))[:200])
except Exception as e: print("held conn:", e)
s.sendall(P([0, 2, "game.render", [{"game_id": "x", "token": "y", "format": "png"}]]))
try: up.feed(s.recv(65536)); print("held conn:", str(list(up))[:200])
except Exception as e: print("held conn:", e)
# new connection while all held
try:
    c = socket.create_connection(("127.0.0.1", port), timeout=3); c.settimeout(5); c.sendall(P([0, 1, "ping", []])); print("new conn while full:", c.recv(1000))
except Exception as e: print("new conn while full:", type(e).__name__, e)
for s in socks: s.close()
time.sleep(2)
c = socket.create_connection(("127.0.0.1", port), timeout=3); c.settimeout(5); c.sendall(P([0, 1, "ping", []])); print("after release:", c.recv(1000))
