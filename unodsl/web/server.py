"""The Starlette application of `unodsl serve`: the table page and its static files,
the WebSocket every page talks through, each table's rulebook, and the host's page
and API (listing tables with their links, opening a new table).

Pages are static files from the package's `static/` folder (Starlette's StaticFiles
keeps every path inside it); a page reads its seat and token from the link's
fragment, which browsers never send to a server, and says hello over the WebSocket.
Every response forbids scripts and connections from anywhere but this server.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import UnoDslError, VariantError
from ..players.bots import AgentSpecError, agent_specs
from ..tools.rulebook import render_variant
from ..variant.load import load_variant
from .hub import Connection, Hub
from .table import Table

STATIC = Path(__file__).parent / "static"
MAX_FRAME = 4 * 1024 * 1024  # bytes of one WebSocket message the server reads (larger: the connection closes)

PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
RULES_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'"


@dataclass
class Settings:
    """What the server opens new tables with."""

    games_dir: Path
    variants: Mapping[str, str] = field(default_factory=dict)  # what the host may open: label → name or path
    bot_delay: float = 0.0
    base_url: str = ""
    turn_seconds: float | None = None  # a person's time to answer (None: no limit)


def seat_link(base: str, table: Table, seat: int, host_key: str | None = None) -> str:
    host = f"&host={host_key}" if host_key else ""
    return f"{base}/t/{table.id}/#seat={seat}&token={table.seats[seat].token}{host}"


def watch_link(base: str, table: Table) -> str:
    return f"{base}/t/{table.id}/"


def host_link(base: str, hub: Hub) -> str:
    return f"{base}/host#key={hub.host_key}"


class Headers:
    """ASGI middleware: every HTTP response gets the security headers (a rulebook
    page its own policy: inline styles, no scripts at all)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = RULES_POLICY if str(scope.get("path", "")).endswith("/rules") else PAGE_POLICY

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"content-security-policy", policy.encode()), (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"), (b"cache-control", b"no-store"),
                            (b"x-frame-options", b"DENY")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def make_app(hub: Hub, settings: Settings) -> Starlette:
    """The application serving `hub`'s tables."""
    rulebooks: dict[str, str] = {}

    async def index(request: Request) -> Response:
        return HTMLResponse("<!DOCTYPE html><meta charset=\"utf-8\"><title>unodsl</title>"
                            "<p>A unodsl table server. Open the link you were given for your seat, "
                            "or the spectators' link.</p>")

    async def table_page(request: Request) -> Response:
        if request.path_params["tid"] not in hub.tables:
            return HTMLResponse("<!DOCTYPE html><meta charset=\"utf-8\"><title>no table</title>"
                                "<p>There is no such table on this server (it may have been restarted).</p>",
                                status_code=404)
        return FileResponse(STATIC / "table.html", media_type="text/html")

    async def rules(request: Request) -> Response:
        table = hub.tables.get(request.path_params["tid"])
        if table is None:
            return HTMLResponse("no such table", status_code=404)
        if table.id not in rulebooks:
            rulebooks[table.id] = render_variant(table.variant, "html")
        return HTMLResponse(rulebooks[table.id])

    async def host_page(request: Request) -> Response:
        return FileResponse(STATIC / "host.html", media_type="text/html")

    def host_only(request: Request) -> JSONResponse | None:
        if not hub.is_host(request.headers.get("x-host-key", "")):
            return JSONResponse({"error": "only the host can do that: open the host's link"}, status_code=403)
        return None

    async def list_tables(request: Request) -> Response:
        refused = host_only(request)
        if refused is not None:
            return refused
        base = settings.base_url or str(request.base_url).rstrip("/")
        return JSONResponse({"tables": [table_info(t, base, hub) for t in hub.tables.values()],
                             "variants": sorted(settings.variants)})

    async def new_table(request: Request) -> Response:
        refused = host_only(request)
        if refused is not None:
            return refused
        try:
            body = await request.json()
            table = open_table(hub, settings, body if isinstance(body, dict) else {})
        except ValueError as err:
            return JSONResponse({"error": f"not a JSON request: {err}"}, status_code=400)
        except TableRequestError as err:
            return JSONResponse({"error": str(err)}, status_code=400)
        base = settings.base_url or str(request.base_url).rstrip("/")
        return JSONResponse(table_info(table, base, hub), status_code=201)

    async def socket(ws: WebSocket) -> None:
        await ws.accept()

        async def send(text: str) -> None:
            await ws.send_text(text)

        async def close(code: int, reason: str) -> None:
            await ws.close(code, reason)

        await hub.serve(ws.path_params["tid"], Connection(send, close), _messages(ws))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start()
        yield
        await hub.stop()

    routes = [
        Route("/", index),
        Route("/t/{tid}/", table_page),
        Route("/t/{tid}/rules", rules),
        WebSocketRoute("/t/{tid}/ws", socket),
        Route("/host", host_page),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", new_table, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(Headers)
    return app


async def _messages(ws: WebSocket) -> AsyncIterator[str | bytes]:
    """A WebSocket's messages, text or binary (the hub refuses binary ones), until it closes."""
    while True:
        try:
            message = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        yield text if text is not None else message.get("bytes") or b""


def table_info(table: Table, base: str, hub: Hub) -> dict[str, Any]:
    """A table as the host's page lists it, with every seat's link. Not its seed nor its
    log's path: the host is often a player too (the seed and the logs are in the server's log)."""
    names = table.names()
    return {"id": table.id, "variant": table.variant.name, "players": table.players,  # (no seed, no path:
            "status": table.status, "game": table.number, "message": table.message,  # the host may play a seat)
            "watch": watch_link(base, table),
            "host_watch": f"{watch_link(base, table)}#host={hub.host_key}",
            "seats": [{"seat": s.index, "name": names[s.index], "person": s.person, "bot": s.bot,
                       "connected": bool(s.connected), "link": seat_link(base, table, s.index)}
                      for s in table.seats]}


class TableRequestError(UnoDslError):
    """A new table the host asked for cannot be opened (the message says why)."""


def open_table(hub: Hub, settings: Settings, body: Mapping[str, Any]) -> Table:
    """A new table from the host's request: {"variant", "seats", "bots", "options", "seed"}."""
    label = body.get("variant")
    if not isinstance(label, str) or label not in settings.variants:
        raise TableRequestError(f"choose a variant: {', '.join(sorted(settings.variants))}")
    options = body.get("options") or {}
    if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, bool | int | str) for k, v in options.items()):
        raise TableRequestError("options are an object of option names and values")
    try:
        variant = load_variant(settings.variants[label], dict(options))
    except VariantError as err:
        raise TableRequestError("; ".join(f"{d.pos}: {d.message}" for d in err.diagnostics)) from None
    seats = body.get("seats", variant.min_players)
    seed = body.get("seed")
    if type(seats) is not int or not variant.min_players <= seats <= variant.max_players:
        raise TableRequestError(f"{variant.name} is for {variant.min_players}–{variant.max_players} players")
    if seed is not None and (type(seed) is not int or seed < 0):
        raise TableRequestError("a seed is a whole number from 0")
    bots = body.get("bots") or "greedy"
    try:
        specs = agent_specs(bots) if isinstance(bots, str) else []
    except AgentSpecError as err:
        raise TableRequestError(f"bots: {err}") from None
    table = Table(hub.new_id(), variant, seats, random.SystemRandom().randrange(1_000_000) if seed is None else seed,
                  specs or ["greedy"], settings.games_dir, bot_delay=settings.bot_delay,
                  turn_seconds=settings.turn_seconds)
    return hub.add(table)


async def run(app: Starlette, sock: Any) -> None:
    """Serve `app` on the bound socket `sock` with uvicorn until interrupted."""
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, ws_max_size=MAX_FRAME, lifespan="on")
    server = uvicorn.Server(config)
    await server.serve(sockets=[sock])
