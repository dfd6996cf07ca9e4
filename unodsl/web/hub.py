"""The tables and connections of one server: who may do what, who is told what, and
the bots' moves.

A connection is a page: it says hello with its seat and token (or as a spectator),
then sends answers and seat or host actions. Each connection has one writer task
that sends the table as that page may see it whenever the table changes (the
latest state, so a slow page never piles frames up) and the narration lines it
has not had yet. A refused message gets an error frame on its own connection and
changes nothing. Each table has a driver task that lets its bots move: a bot that
searches (ISMCTS) thinks in a worker thread, so the server goes on meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from .protocol import Again, Answer, Hello, HostAction, Message, Refused, Rename, SeatAction, Taken, Uno, parse
from .table import Table

RATE = 20.0  # messages a second a page may send, on average
BURST = 40.0  # and at once
CUT_OFF = 300  # messages refused for coming too fast, without a pause: the connection is closed
HELLO_WITHIN = 15.0  # seconds a new connection has to say hello
POLICY = 1008  # WebSocket close code: the connection broke the protocol's rules
MOVED = 4000  # close code: the seat was opened in another window
NOTE_SECONDS = 6.0  # how long a page shows an error or an info sent to it alone


@dataclass(eq=False)
class Connection:
    """One page's WebSocket, as the hub sees it (`send` and `close` are the server's)."""

    send: Callable[[str], Awaitable[None]]
    close: Callable[[int, str], Awaitable[None]]
    table: Table | None = None
    seat: int | None = None
    host: bool = False
    notes: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=8))
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closing: tuple[int, str] | None = None
    generation: int = -1  # the table's narration this page has
    sent: int = 0  # lines of it sent
    last: str = ""  # the last state sent
    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)
    too_fast: int = 0
    frames: int = 0

    def note(self, kind: str, message: str, **more: Any) -> None:
        """A message for this page alone (an error, an info); the page hides it after `seconds`."""
        self.notes.append({"type": kind, "message": message, "seconds": NOTE_SECONDS, **more})
        self.wake.set()

    def end(self, code: int, reason: str) -> None:
        self.closing = (code, reason)
        self.wake.set()

    def allow(self, rate: float = RATE, burst: float = BURST) -> bool:
        """The token bucket: False if this message comes too fast."""
        now = time.monotonic()
        self.tokens = min(burst, self.tokens + (now - self.stamp) * rate)
        self.stamp = now
        if self.tokens >= burst:  # the page has paused long enough: a flood, if any, is over
            self.too_fast = 0
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Hub:
    """Every table of the server and every page connected to them."""

    def __init__(self, host_key: str | None = None, rate: float = RATE, burst: float = BURST) -> None:
        self.host_key = host_key or secrets.token_urlsafe(18)
        self.rate, self.burst = rate, burst  # what a page may send (see Connection.allow)
        self.tables: dict[str, Table] = {}
        self.pages: dict[str, set[Connection]] = {}
        self.holders: dict[tuple[str, int], Connection] = {}
        self.wakes: dict[str, asyncio.Event] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}
        self.running = False
        self.decisions = 0  # answers applied, all tables (for the load benchmark)

    # -- tables ------------------------------------------------------------------------
    def add(self, table: Table) -> Table:
        self.tables[table.id] = table
        table.on_change = self.touch
        self.pages[table.id] = set()
        if self.running:
            self._drive(table)
        return table

    def new_id(self) -> str:
        """A table id nobody can guess (the spectators' link is the table's address)."""
        while True:
            tid = secrets.token_urlsafe(6)
            if tid not in self.tables:
                return tid

    def start(self) -> None:
        """Start the tables' drivers (in the server's event loop)."""
        self.running = True
        for table in self.tables.values():
            self._drive(table)

    async def stop(self) -> None:
        self.running = False
        for task in self.drivers.values():
            task.cancel()
        await asyncio.gather(*self.drivers.values(), return_exceptions=True)
        self.drivers.clear()
        for table in self.tables.values():
            table.close()

    def is_host(self, key: str) -> bool:
        return bool(key) and secrets.compare_digest(key.encode(), self.host_key.encode())

    def touch(self, table: Table) -> None:
        """The table changed: its pages are told, its driver looks for a bot's move."""
        for page in self.pages.get(table.id, ()):
            page.wake.set()
        wake = self.wakes.get(table.id)
        if wake is not None:
            wake.set()

    def _drive(self, table: Table) -> None:
        wake = self.wakes[table.id] = asyncio.Event()
        wake.set()
        self.drivers[table.id] = asyncio.get_running_loop().create_task(self._bots(table, wake))

    async def _bots(self, table: Table, wake: asyncio.Event) -> None:
        """Let the bots of `table` move whenever a decision is theirs."""
        while True:
            left = table.seconds_left()  # a person's clock (--turn-seconds): their bot answers when it runs out
            if left is None:
                await wake.wait()
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), left)
            wake.clear()
            while (move := table.bot_move()) is not None:
                agent, game, version = move
                if table.bot_delay and not table.timed_out():
                    await asyncio.sleep(table.bot_delay)
                    if table.bot_move() != move:
                        continue
                decision = game.decision
                assert decision is not None
                try:
                    if getattr(agent, "searches", False):
                        choice = await asyncio.to_thread(agent.choose, game, decision)
                    else:
                        choice = agent.choose(game, decision)
                except Exception as err:  # a bot's own fault: the table stops and says so
                    table.bot_failed(decision.player, err)
                    self.touch(table)
                    break
                if table.apply_bot(game, version, choice):
                    self.decisions += 1
                    self.touch(table)
                await asyncio.sleep(0)  # the other tables and pages go on

    # -- a page's connection ---------------------------------------------------------
    async def serve(self, table_id: str, page: Connection, messages: AsyncIterator[str | bytes]) -> None:
        """A page's whole connection: its hello, then its messages until it goes."""
        table = self.tables.get(table_id)
        writer = asyncio.get_running_loop().create_task(self._write(page))
        try:
            if table is None:
                page.note("error", "there is no such table on this server (it may have been restarted)",
                          code="table")
                page.end(POLICY, "no such table")
                return
            try:
                first = await asyncio.wait_for(anext(messages), HELLO_WITHIN)
            except (TimeoutError, StopAsyncIteration):
                page.note("error", f"say hello first, within {HELLO_WITHIN:.0f} seconds", code="hello")
                page.end(POLICY, "no hello")
                return
            try:
                hello = parse(first)
                if not isinstance(hello, Hello):
                    raise Refused("say hello first: {\"type\": \"hello\", \"seat\": N, \"token\": …}")
                self._hello(table, page, hello)
            except Refused as err:
                page.note("error", str(err), code="taken" if isinstance(err, Taken) else "auth")
                page.end(POLICY, "refused")
                return
            async for raw in messages:
                if not page.allow(self.rate, self.burst):
                    page.too_fast += 1
                    if page.too_fast >= CUT_OFF:
                        page.note("error", "too many messages: the connection is closed", code="flood")
                        page.end(POLICY, "too many messages")
                        return
                    if page.too_fast == 1:
                        page.note("error", f"too many messages (at most {self.rate:.0f} a second): ignored",
                                  code="flood")
                    continue
                try:
                    self._handle(table, page, parse(raw))
                except Refused as err:
                    page.note("error", str(err), code="refused")
        finally:
            self._leave(page)
            if page.closing is None:
                page.closing = (1000, "")
            page.wake.set()
            try:
                await asyncio.wait_for(writer, 5)
            except (TimeoutError, asyncio.CancelledError, Exception):
                writer.cancel()

    def _hello(self, table: Table, page: Connection, hello: Hello) -> None:
        if hello.host and not self.is_host(hello.host):
            raise Refused("this is not the host's key: open the host's link again")
        if hello.seat is not None:
            seat = table.seat_for(hello.seat, hello.token)
            holder = self.holders.get((table.id, seat.index))
            if holder is not None and holder is not page:
                if not hello.takeover:
                    raise Taken(f"{table.name(seat.index)} is already open in another window or tab: close it "
                                "there, or move the seat to this window")
                holder.note("error", f"{table.name(seat.index)} was opened in another window: this one is "
                            "no longer connected", code="moved")
                holder.end(MOVED, "opened in another window")
                self._leave(holder)
            self.holders[(table.id, seat.index)] = page
            seat.connected = 1
            page.seat = seat.index
            table.take(seat.index, hello.name)
        page.host = bool(hello.host)
        page.table = table
        self.pages[table.id].add(page)
        page.notes.append({"type": "welcome", "table": table.id, "seat": page.seat, "host": page.host,
                           "variant": table.variant.name, "players": table.players})
        self.touch(table)

    def _leave(self, page: Connection) -> None:
        table = page.table
        if table is None:
            return
        self.pages.get(table.id, set()).discard(page)
        if page.seat is not None and self.holders.get((table.id, page.seat)) is page:
            del self.holders[(table.id, page.seat)]
            table.seats[page.seat].connected = 0
        page.table = None
        self.touch(table)

    def _handle(self, table: Table, page: Connection, msg: Message) -> None:
        if isinstance(msg, Hello):
            raise Refused("this page has said hello already")
        if isinstance(msg, Answer):
            if page.seat is None:
                raise Refused("a spectator cannot answer: open a seat's link to play")
            table.answer(page.seat, msg.decision, msg.option)
            self.decisions += 1
        elif isinstance(msg, SeatAction):
            if page.seat is None:
                raise Refused("a spectator has no seat")
            if msg.action == "bot":
                table.hand_to_bot(page.seat)
            else:
                table.take(page.seat)
        elif isinstance(msg, Uno):
            if page.seat is None:
                raise Refused("a spectator cannot call or catch UNO")
            table.uno(page.seat, msg.action)
            self.decisions += 1
        elif isinstance(msg, Again):
            if page.seat is None:
                raise Refused("a spectator cannot ask for another game")
            table.ask_again(page.seat)
        elif isinstance(msg, Rename):
            if page.seat is None:
                raise Refused("a spectator has no name at the table")
            table.rename(page.seat, msg.name)
        elif isinstance(msg, HostAction):
            self._host(table, page, msg)
        self.touch(table)

    def _host(self, table: Table, page: Connection, msg: HostAction) -> None:
        if not page.host:
            raise Refused("only the host can do that (the host's link has the host's key)")
        action = msg.action
        if action == "start":
            if table.status == "playing":
                raise Refused("the game is on: restart it for a new one")
            table.start(msg.seed)
        elif action == "restart":
            table.start(msg.seed if msg.seed is not None else secrets.randbelow(1_000_000))
        elif action == "undo":
            table.undo()
        elif action == "save":
            path = table.save()  # (the page is told the file's name, not where the server keeps it)
            page.note("info", f"saved as {path.name} in the server's games folder: "
                      f"`unodsl serve --resume {path.name}` there goes on with it")
        elif msg.seat is None or not 0 <= msg.seat < table.players:
            raise Refused(f"say which seat, 0–{table.players - 1}")
        elif action == "bot":
            table.hand_to_bot(msg.seat, by_host=True)
        else:
            table.take(msg.seat)

    async def _write(self, page: Connection) -> None:
        """Send `page` its notes and the table as it may see it, whenever it changes."""
        try:
            while True:
                await page.wake.wait()
                page.wake.clear()
                while page.notes:
                    await page.send(json.dumps(page.notes.popleft()))
                if page.table is not None:
                    frame = self.frame(page)
                    if frame is not None:
                        await page.send(frame)
                        page.frames += 1
                if page.closing is not None:
                    await page.close(*page.closing)
                    return
        except Exception:  # the page has gone: its reader ends the connection
            return

    def frame(self, page: Connection) -> str | None:
        """The table as `page` may see it (`Table.frame`: the one way a frame is made),
        with the narration lines it has not had; None if nothing changed for it."""
        table = page.table
        assert table is not None
        text = json.dumps(table.frame(page.seat, page.host), separators=(",", ":"))
        narrator = table.narrators[page.seat if page.seat is not None else -1]
        reset = page.generation != table.generation
        lines = narrator.since(0 if reset else page.sent)
        if not reset and not lines and text == page.last:
            return None
        page.last, page.generation, page.sent = text, table.generation, narrator.count
        extra = json.dumps({"lines": lines, "reset": reset}, separators=(",", ":"))
        return text[:-1] + "," + extra[1:]
