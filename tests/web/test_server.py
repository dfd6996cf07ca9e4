"""What bad input gets from the server: each is refused with a clear message to its
own connection, and the game and the other pages go on untouched. Also: static paths
stay in the package's folder, every page carries the security headers, the host's
API needs the host's key."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import unodsl.web.hub as hub_module
from unodsl.variant.load import load_variant
from unodsl.web.hub import Hub
from unodsl.web.table import Table

from .clients import websockets, ws_url
from .serving import serving

httpx = pytest.importorskip("httpx")  # (after serving: its skip says which extra is missing)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Hub, Table]]:
    hub = Hub()
    table = hub.add(Table(hub.new_id(), load_variant("classic"), 3, 5, ["greedy"], tmp_path / "games"))
    with serving(hub, tmp_path / "games", {"classic": "classic", "flip": "flip"}) as base:
        yield base, hub, table


async def _open(base: str, table: Table, **hello: Any) -> Any:
    ws = await websockets.connect(ws_url(base, table.id), max_size=None)
    await ws.send(json.dumps({"type": "hello", **hello}))
    return ws


async def _next(ws: Any, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The next message of `kind` (other kinds are skipped)."""
    while True:
        msg: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if msg["type"] == kind:
            return msg


async def _closed(ws: Any, rest: list[str] | None = None) -> int | None:
    """The close code of `ws`, once it closes (what it is sent meanwhile goes to `rest`)."""
    try:
        while True:
            text = await asyncio.wait_for(ws.recv(), 10)
            if rest is not None:
                rest.append(text)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


async def _playing(base: str, table: Table, hub: Hub) -> tuple[Any, dict[str, Any]]:
    """P1 (the host) connected, the game started, P1's first decision."""
    ws = await _open(base, table, seat=0, token=table.seats[0].token, host=hub.host_key)
    await ws.send(json.dumps({"type": "host", "action": "start"}))
    while True:
        state = await _next(ws, "state")
        if state["you"] and state["you"]["decision"]:
            return ws, state


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@pytest.mark.parametrize(("hello", "says"), [
    ({"seat": 1, "token": "not-the-token"}, "not P2's token"),
    ({"seat": 1}, "no token"),
    ({"seat": 9, "token": "x"}, "seats 0–2"),
    ({"seat": 1, "token": "", "host": "a-wrong-key"}, "not the host's key"),
])
def test_a_wrong_or_missing_token_is_refused_and_the_connection_closed(
        server: tuple[str, Hub, Table], hello: dict[str, Any], says: str) -> None:
    base, _hub, table = server

    async def go() -> None:
        ws = await _open(base, table, **hello)
        error = await _next(ws, "error")
        assert says in error["message"] and error["code"] == "auth"
        assert await _closed(ws) == 1008

    run(go())
    assert table.seats[1].connected == 0 and not table.seats[1].person


def test_another_seats_token_opens_no_seat(server: tuple[str, Hub, Table]) -> None:
    base, _hub, table = server

    async def go() -> None:
        ws = await _open(base, table, seat=2, token=table.seats[1].token)
        assert "not P3's token" in (await _next(ws, "error"))["message"]
        assert await _closed(ws) == 1008

    run(go())
    assert not table.seats[1].person and not table.seats[2].person


def test_a_second_connection_for_a_seat_is_refused_and_can_move_the_seat(server: tuple[str, Hub, Table]) -> None:
    base, _hub, table = server

    async def go() -> None:
        first = await _open(base, table, seat=1, token=table.seats[1].token)
        await _next(first, "state")
        second = await _open(base, table, seat=1, token=table.seats[1].token)
        error = json.loads(await asyncio.wait_for(second.recv(), 10))  # the first thing it is sent
        assert "already open in another window" in error["message"] and error["code"] == "taken"
        rest: list[str] = []
        assert await _closed(second, rest) == 1008 and rest == []  # nothing else: no welcome, no state
        await first.send(json.dumps({"type": "name", "name": "Ann"}))  # the first goes on
        assert (await _next(first, "state"))["seats"][1]["name"] == "Ann"
        third = await _open(base, table, seat=1, token=table.seats[1].token, takeover=True)
        assert (await _next(third, "welcome"))["seat"] == 1
        assert (await _next(first, "error"))["code"] == "moved"
        assert await _closed(first) == 4000
        await third.close()

    run(go())


def test_bad_messages_are_refused_and_the_game_goes_on_untouched(server: tuple[str, Hub, Table]) -> None:
    base, hub, table = server

    async def go() -> None:
        ws, state = await _playing(base, table, hub)
        watcher = await _open(base, table)
        await _next(watcher, "state")
        decision = state["you"]["decision"]
        before = list(table.game.actions) if table.game else None
        bad = [
            ("not json at all", "not a JSON message"),
            (json.dumps({"type": "answer", "decision": decision["id"], "option": 999}), "there is no option 999"),
            (json.dumps({"type": "answer", "decision": "an-old-id", "option": 0}), "answered already"),
            (json.dumps({"type": "answer", "decision": decision["id"], "option": "0"}), "number of one of the options"),
            (json.dumps({"type": "hello", "seat": 0}), "said hello already"),
            (json.dumps({"type": "launch"}), "unknown message type"),
            ("x" * 1_000_000, "message too long"),
            (json.dumps({"type": "name", "name": "y" * 1_000_000}), "message too long"),
        ]
        for text, says in bad:
            await ws.send(text)
            error = await _next(ws, "error")
            assert says in error["message"], (text[:40], error)
        await ws.send(b"\x00binary")
        assert "not binary" in (await _next(ws, "error"))["message"]
        await watcher.send(json.dumps({"type": "answer", "decision": decision["id"], "option": 0}))
        assert "spectator cannot answer" in (await _next(watcher, "error"))["message"]
        await watcher.send(json.dumps({"type": "host", "action": "undo"}))
        assert "only the host" in (await _next(watcher, "error"))["message"]
        assert table.game is not None and list(table.game.actions) == before
        await ws.send(json.dumps({"type": "answer", "decision": decision["id"], "option": 0}))
        await _next(watcher, "state")  # the game went on, and the spectator is told
        assert len(table.game.actions) > len(before or [])
        await ws.close()
        await watcher.close()

    run(go())


def test_a_flood_is_refused_then_cut_off_and_the_others_go_on(server: tuple[str, Hub, Table]) -> None:
    base, hub, table = server

    async def go() -> None:
        ws, state = await _playing(base, table, hub)
        flooder = await _open(base, table, seat=1, token=table.seats[1].token)
        await _next(flooder, "state")
        for _ in range(hub_module.CUT_OFF + int(hub.burst) + 20):
            await flooder.send(json.dumps({"type": "name", "name": "spam"}))
        errors = []
        try:
            while True:
                msg = json.loads(await asyncio.wait_for(flooder.recv(), 10))
                if msg["type"] == "error":
                    errors.append(msg)
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1008
        assert [e["code"] for e in errors] == ["flood", "flood"]
        assert "too many messages" in errors[0]["message"]
        decision = state["you"]["decision"]
        await ws.send(json.dumps({"type": "answer", "decision": decision["id"], "option": 0}))
        await _next(ws, "state")  # P1 plays on
        await ws.close()

    run(go())


def test_a_page_that_never_says_hello_is_closed(server: tuple[str, Hub, Table],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    base, _hub, table = server
    monkeypatch.setattr(hub_module, "HELLO_WITHIN", 0.3)

    async def go() -> None:
        ws = await websockets.connect(ws_url(base, table.id))
        assert "say hello first" in (await _next(ws, "error"))["message"]
        assert await _closed(ws) == 1008

    run(go())


def test_an_unknown_table_is_refused(server: tuple[str, Hub, Table]) -> None:
    base, _, _ = server

    async def go() -> None:
        ws = await websockets.connect(base.replace("http", "ws") + "/t/nope/ws")
        assert "no such table" in (await _next(ws, "error"))["message"]

    run(go())
    assert httpx.get(f"{base}/t/nope/").status_code == 404


@pytest.mark.parametrize("path", [
    "/static/../web/hub.py", "/static/%2e%2e/hub.py", "/static/%2e%2e/%2e%2e/cli/serve.py",
    "/static/..%2fhub.py", "/static//etc/passwd", "/static/%2fetc%2fpasswd", "/static/....//hub.py",
])
def test_static_paths_never_leave_the_static_folder(server: tuple[str, Hub, Table], path: str) -> None:
    base, _, _ = server
    response = httpx.get(base + path)
    assert response.status_code == 404
    assert "import" not in response.text and "root:" not in response.text


def test_pages_carry_the_security_headers_and_ship_their_files(server: tuple[str, Hub, Table]) -> None:
    base, _, table = server
    page = httpx.get(f"{base}/t/{table.id}/")
    assert page.status_code == 200 and "table.js" in page.text
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "connect-src 'self'" in policy and "unsafe" not in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    for name in ("table.js", "table.css", "host.js", "host.html"):
        assert httpx.get(f"{base}/static/{name}").status_code == 200
    rules = httpx.get(f"{base}/t/{table.id}/rules")
    assert rules.status_code == 200 and "UNO Classic" in rules.text
    assert "script-src" not in rules.headers["content-security-policy"]  # default-src 'none': no script runs


def test_the_hosts_api_needs_the_key_and_opens_tables(server: tuple[str, Hub, Table]) -> None:
    base, hub, table = server
    assert httpx.get(f"{base}/api/tables").status_code == 403
    assert httpx.get(f"{base}/api/tables", headers={"x-host-key": "wrong"}).status_code == 403
    key = {"x-host-key": hub.host_key}
    listing = httpx.get(f"{base}/api/tables", headers=key).json()
    assert [t["id"] for t in listing["tables"]] == [table.id]
    assert listing["tables"][0]["seats"][1]["link"].endswith(f"#seat=1&token={table.seats[1].token}")
    assert "seed" not in listing["tables"][0] and "log" not in listing["tables"][0]  # the host may play a seat
    made = httpx.post(f"{base}/api/tables", headers=key, json={"variant": "flip", "seats": 2, "bots": "random",
                                                               "seed": 3})
    assert made.status_code == 201 and made.json()["variant"] == "UNO Flip"
    assert len(hub.tables) == 2
    for body, says in [({"variant": "/etc/passwd"}, "choose a variant"),
                       ({"variant": "classic", "seats": 40}, "for 2–10 players"),
                       ({"variant": "classic", "bots": "grredy"}, "unknown agent"),
                       ({"variant": "classic", "options": {"nonsense": True}}, "nonsense")]:
        refused = httpx.post(f"{base}/api/tables", headers=key, json=body)
        assert refused.status_code == 400 and says in refused.json()["error"], (body, refused.text)
    assert len(hub.tables) == 2


def test_the_host_restarts_with_a_seed_and_undoes_over_the_socket(server: tuple[str, Hub, Table]) -> None:
    base, hub, table = server

    async def go() -> None:
        ws, state = await _playing(base, table, hub)
        decision = state["you"]["decision"]
        await ws.send(json.dumps({"type": "answer", "decision": decision["id"], "option": 0}))
        while True:  # P1's next decision, after the bots
            state = await _next(ws, "state")
            d = state["you"]["decision"]
            if d and d["id"] != decision["id"]:
                break
        answered = len(table.game.actions) if table.game else 0
        await ws.send(json.dumps({"type": "host", "action": "undo"}))
        while "undid" not in ((await _next(ws, "state"))["notice"] or {}).get("text", ""):
            pass
        assert table.game is not None and len(table.game.actions) < answered
        assert table.game.decision is not None and table.game.decision.player == 0
        await ws.send(json.dumps({"type": "host", "action": "restart", "seed": 77}))
        while (await _next(ws, "state"))["game"] != 2:
            pass
        assert table.seed == 77 and table.number == 2
        await ws.send(json.dumps({"type": "host", "action": "start"}))
        assert "the game is on" in (await _next(ws, "error"))["message"]
        await ws.close()

    run(go())


def test_a_searching_bot_thinks_in_a_thread_and_a_bots_only_game_ends(tmp_path: Path) -> None:
    hub = Hub()
    table = hub.add(Table(hub.new_id(), load_variant("classic", {"target": 60}), 2, 3, ["ismcts:iterations=8"],
                          tmp_path))
    table.start()
    with serving(hub, tmp_path) as base:

        async def go() -> dict[str, Any]:
            watcher = await _open(base, table)
            while True:
                state = await _next(watcher, "state", timeout=60)
                if state["status"] != "playing":
                    return state

        last = run(go())
    assert last["status"] == "over" and table.status == "over", table.message
    assert len(table.game.actions) > 10 if table.game else False


def test_an_undo_is_seen_by_the_other_seats_page(server: tuple[str, Hub, Table]) -> None:
    base, hub, table = server

    async def other_seat(ws: Any, frames: list[dict[str, Any]], undone: asyncio.Event) -> None:
        """P2's page: answers its decisions, keeps its frames, until it is told of an undo."""
        answered: set[str] = set()
        while True:
            state = await _next(ws, "state")
            frames.append(state)
            if (state["notice"] or {}).get("kind") == "undo":
                undone.set()
                return
            d = (state["you"] or {}).get("decision")  # (no "you" in the lobby)
            if d and d["id"] not in answered:
                answered.add(d["id"])
                await ws.send(json.dumps({"type": "answer", "decision": d["id"], "option": 0}))

    async def go() -> list[dict[str, Any]]:
        p2 = await _open(base, table, seat=1, token=table.seats[1].token)
        frames: list[dict[str, Any]] = []
        undone = asyncio.Event()
        task = asyncio.get_running_loop().create_task(other_seat(p2, frames, undone))
        ws, state = await _playing(base, table, hub)
        await ws.send(json.dumps({"type": "answer", "decision": state["you"]["decision"]["id"], "option": 0}))
        while not any(person for seat, person in table.deciders if seat == 0):
            await _next(ws, "state")
        await ws.send(json.dumps({"type": "host", "action": "undo"}))
        await asyncio.wait_for(undone.wait(), 10)
        await task
        await ws.close()
        await p2.close()
        return frames

    frames = run(go())
    told = frames[-1]
    assert told["notice"]["text"] == "the host undid P1's last decision" and told["reset"] is True
    assert told["seats"][1]["you"] is True and told["table"]["turn"] == 0  # P1 decides again, and P2 sees it


def test_a_person_who_runs_out_of_time_gets_the_bots_move_from_the_hubs_driver(tmp_path: Path) -> None:
    hub = Hub()
    table = hub.add(Table(hub.new_id(), load_variant("classic"), 2, 5, ["greedy"], tmp_path, turn_seconds=0.05))
    table.take(0)
    table.start()

    async def go() -> None:
        hub.start()
        try:
            for _ in range(200):  # P1 never answers: their clock runs out, their bot answers
                if (0, False) in table.deciders:
                    return
                await asyncio.sleep(0.01)
        finally:
            await hub.stop()

    run(go())
    assert (0, False) in table.deciders and table.seats[0].person
    assert table.notice is not None and table.notice.kind == "timer"
