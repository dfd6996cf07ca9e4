"""Load on `unodsl serve`: 50 tables of bots-only games plus 20 connected clients, on loopback.

    python tests/benchmarks/bench_serve.py --seconds 60

The server runs in its own process (this script with --serve): a Hub with `--tables`
bots-only tables (Classic and Flip, 4 seats, greedy and random bots, no bot delay)
and `--players` tables where one seat waits for a person; each table starts a new
game when its game ends, until the time is up; then every game in play is let finish.
This process connects `--players` pages that play those seats (each answers at once,
at random) and `--spectators` pages that watch bots-only tables, reading every frame.

`--bot-delay 0` (the default here) lets the bots move as fast as they can: a stress
test; `--bot-delay 0.7` is what `unodsl serve` does by default.

It prints, as a markdown table: decisions applied a second (all tables), the latency
of a move as a page sees it (from sending an answer to the first frame after it:
median, p95 and p99), the games finished, error frames (must be 0) and the server's
resident memory sampled every 5 s (flat: it must not grow with the games played).
The figures are wall clock: they depend on the machine and its load; say which.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def rss_mb() -> float:
    with open(f"/proc/{os.getpid()}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


# -- the server process --------------------------------------------------------------------
def serve(port: int, tables: int, players: int, seconds: float, games: Path, bot_delay: float,
          finish: float) -> None:
    import uvicorn

    from unodsl.variant.load import load_variant
    from unodsl.web.hub import Hub
    from unodsl.web.server import MAX_FRAME, Settings, make_app
    from unodsl.web.table import Table

    variants = [load_variant("classic"), load_variant("flip")]
    hub = Hub(rate=1000, burst=1000)
    bots_only = []
    for k in range(tables):
        t = hub.add(Table(f"b{k}", variants[k % 2], 4, k, ["greedy", "random"], games / f"b{k}",
                          bot_delay=bot_delay))
        t.start()
        bots_only.append(t)
    for k in range(players):  # seat 0 waits for its page
        t = hub.add(Table(f"p{k}", variants[k % 2], 4, 1000 + k, ["greedy", "random"], games / f"p{k}",
                          bot_delay=bot_delay))
        t.take(0)
        t.start()
    app = make_app(hub, Settings(games_dir=games))
    sock = socket.create_server(("127.0.0.1", port))

    async def keep_playing() -> None:
        """Each table starts a new game when its game ends, until the time is up; then
        the games in play finish; the figures are printed every 5 s."""
        start = time.monotonic()
        finished = 0
        failed: list[str] = []
        last = start
        while True:
            await asyncio.sleep(0.2)
            now = time.monotonic()
            for t in hub.tables.values():
                if t.status == "failed":
                    failed.append(t.message)
                    t.status = "done"
                if t.status == "over":
                    finished += 1
                    if now - start < seconds:
                        t.start()
                    else:
                        t.status = "done"
            busy = sum(t.status == "playing" for t in hub.tables.values())
            over = now - start >= seconds and (busy == 0 or now - start >= seconds + finish)
            if now - last >= 5 or over:
                last = now
                print(json.dumps({"t": round(now - start, 1), "decisions": hub.decisions, "finished": finished,
                                  "playing": busy, "failed": failed, "rss_mb": round(rss_mb(), 1)}), flush=True)
            if over:
                print(json.dumps({"done": True}), flush=True)
                return

    async def main() -> None:
        config = uvicorn.Config(app, log_level="warning", access_log=False, ws_max_size=MAX_FRAME)
        server = uvicorn.Server(config)
        task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
        while not server.started:
            await asyncio.sleep(0.05)
        print(json.dumps({"ready": True, "tokens": {tid: [s.token for s in t.seats]
                                                    for tid, t in hub.tables.items()}}), flush=True)
        await keep_playing()
        server.should_exit = True
        await task

    asyncio.run(main())


# -- the clients ---------------------------------------------------------------------------------
async def player(url: str, table: str, token: str, stop: asyncio.Event, seen: dict[str, Any]) -> None:
    """A page at seat 0 answering each of its decisions at once, timing each answer."""
    import websockets

    rng = random.Random(table)
    async with websockets.connect(f"{url}/t/{table}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "seat": 0, "token": token}))
        sent: tuple[str, float] | None = None
        while not (stop.is_set() and sent is None):
            try:
                text = await asyncio.wait_for(ws.recv(), 1)
            except TimeoutError:
                continue
            msg = json.loads(text)
            seen["frames"] += 1
            if msg["type"] == "error":
                seen["errors"].append(msg["message"])
                continue
            if msg["type"] != "state":
                continue
            decision = (msg.get("you") or {}).get("decision")
            if sent is not None and (decision is None or decision["id"] != sent[0]):
                seen["latency"].append(time.perf_counter() - sent[1])
                sent = None
            if decision is not None and sent is None and not stop.is_set():
                sent = (decision["id"], time.perf_counter())
                await ws.send(json.dumps({"type": "answer", "decision": decision["id"],
                                          "option": rng.randrange(len(decision["options"]))}))


async def spectator(url: str, table: str, stop: asyncio.Event, seen: dict[str, Any]) -> None:
    import websockets

    async with websockets.connect(f"{url}/t/{table}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 1)
            except TimeoutError:
                continue
            seen["frames"] += 1
            if json.loads(text)["type"] == "error":
                seen["errors"].append(text)


async def clients(url: str, tokens: dict[str, list[str]], spectators: int, server: subprocess.Popen[str],
                  samples: list[dict[str, Any]]) -> dict[str, Any]:
    import websockets

    seen: dict[str, Any] = {"frames": 0, "errors": [], "latency": []}
    stop = asyncio.Event()
    pages = [player(url, tid, seats[0], stop, seen) for tid, seats in tokens.items() if tid.startswith("p")]
    watched = [tid for tid in tokens if tid.startswith("b")][:spectators]
    pages += [spectator(url, tid, stop, seen) for tid in watched]
    tasks = [asyncio.ensure_future(p) for p in pages]

    async def read_server() -> None:
        assert server.stdout is not None
        loop = asyncio.get_running_loop()
        while True:
            line = await loop.run_in_executor(None, server.stdout.readline)
            if not line:
                break
            sample = json.loads(line)
            if sample.get("done"):  # every game has finished
                break
            samples.append(sample)
        stop.set()

    await read_server()
    for result in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(result, Exception) and not isinstance(result, websockets.ConnectionClosed):
            seen["errors"].append(repr(result))
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--spectators", type=int, default=10)
    parser.add_argument("--bot-delay", type=float, default=0.0,
                        help="seconds a bot waits before it moves (0: as fast as it can; `unodsl serve`: 0.7)")
    parser.add_argument("--finish", type=float, default=600,
                        help="seconds the games in play at the end may take to finish (default 600)")
    parser.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    parser.add_argument("--games", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.tables, args.players, args.seconds, args.games, args.bot_delay, args.finish)
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with TemporaryDirectory() as tmp:
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--seconds", str(args.seconds),
                                   "--tables", str(args.tables), "--players", str(args.players), "--games", tmp,
                                   "--bot-delay", str(args.bot_delay), "--finish", str(args.finish)],
                                  stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None
        ready = json.loads(server.stdout.readline())
        started = time.monotonic()
        samples: list[dict[str, Any]] = []
        seen = asyncio.run(clients(f"ws://127.0.0.1:{port}", ready["tokens"], args.spectators, server, samples))
        server.wait(60)
        elapsed = time.monotonic() - started
    last = samples[-1]
    latency = sorted(seen["latency"])
    p95, p99 = (latency[min(len(latency) - 1, int(q * len(latency)))] if latency else float("nan")
                for q in (0.95, 0.99))
    rss = [s["rss_mb"] for s in samples]
    warm = next((s["rss_mb"] for s in samples if s["t"] >= 10), rss[0])
    print("| tables (bots only) | bot delay | pages (playing + watching) | seconds | decisions/s | "
          "move latency median | p95 | p99 | games finished | games cut short | errors | "
          "server memory (MB, every 5 s) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {args.tables} | {args.bot_delay:g} s | {args.players} + {args.spectators} | {elapsed:.0f} | "
          f"{last['decisions'] / last['t']:,.0f} | {1000 * statistics.median(latency):.1f} ms | {1000 * p95:.1f} ms | "
          f"{1000 * p99:.1f} ms | "
          f"{last['finished']} | {last['playing']} | {len(seen['errors']) + len(last['failed'])} | "
          f"{' '.join(f'{r:.0f}' for r in rss)} |")
    print(f"moves timed: {len(latency)}; frames read: {seen['frames']:,}; games in play at the end: "
          f"{last['playing']}; server memory from 10 s on: {warm:.0f} → {max(rss):.0f} MB at most", file=sys.stderr)
    if seen["errors"] or last["failed"] or (last["playing"] and args.finish >= 600):
        print("errors:", seen["errors"][:5], last["failed"][:5], file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
