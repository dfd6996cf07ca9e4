"""End to end in a real browser: pages join a Classic and a Flip table and play whole
games to the end by clicking and by keyboard, bots in the other seats; a page is
reloaded, a player leaves (a bot takes the seat) and comes back; every frame each
page received is checked for secrets; names and a variant's text stay text."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from tests.helpers import VARIANTS
from unodsl.tools.replay import load_log, replay
from unodsl.variant.load import load_variant
from unodsl.web.hub import Hub
from unodsl.web.table import Table

from .browser import Player, play_to_the_end, seat_links, start_game
from .serving import Recorder, serving
from .test_secrets import flip_to


def _links(base: str, t: Table, hub: Hub) -> list[str]:
    return seat_links(base, t, hub.host_key)


def _start(host: Player) -> None:
    start_game(host)


@pytest.mark.slow  # a whole game in the browser: CI runs it (.ci/run)
def test_two_pages_play_a_whole_classic_game_with_a_bot_reloading_and_leaving(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chromium: object) -> None:
    hub = Hub()
    t = hub.add(Table(hub.new_id(), load_variant(VARIANTS / "classic.yaml", {"target": 120}), 3, 12, ["greedy"],
                      tmp_path / "games"))
    recorder = Recorder()
    recorder.install(monkeypatch, t)
    with serving(hub, tmp_path / "games") as base:
        context = chromium.new_context(viewport={"width": 1200, "height": 900})  # type: ignore[attr-defined]
        links = _links(base, t, hub)
        players = [Player(context, links[0]), Player(context, links[1])]
        players[1].page.wait_for_function("() => state && state.seats[1].connected")
        _start(players[0])
        events: dict[str, object] = {}
        left: list[Player] = []

        def trouble(moves: int) -> None:
            if moves == 6:  # P1 reloads: the game as it stands, P1's hand as the server holds it
                players[0].page.reload()
                players[0].page.wait_for_function("() => state && state.you && state.table")
                players[0].answered.clear()
                for _ in range(200):
                    seen = players[0].read()
                    held = sorted(c.label for c in t.game.hands[0]) if t.game else []
                    if seen is not None and sorted(seen["hand"]) == held:
                        events["reloaded"] = True
                        break
                    time.sleep(0.02)
            elif moves == 12:  # P2 leaves; the host lets a bot play the seat
                players[1].page.close()
                players[0].page.wait_for_function("() => !state.seats[1].connected")
                players[0].page.locator("#h-seats button").nth(1).click()
                players[0].page.wait_for_function("() => !state.seats[1].person")
                events["left"] = len(t.game.actions) if t.game else 0
            elif moves == 18:  # and comes back to it
                back = Player(context, links[1])
                left.append(players[1])
                back.page.wait_for_function("() => state && state.seats[1].person && !state.bot_plays")
                events["back"] = True
                players[1] = back

        started = time.monotonic()
        moves = play_to_the_end(players, timeout=90, on_move=trouble)
        print(f"classic: {moves} moves in {time.monotonic() - started:.1f} s")
        page = players[0].page
        page.wait_for_selector("#results:not([hidden])")  # the results screen, closed to look at the table
        assert re.search(r"win(s)? the game", page.text_content("#r-title") or "")
        page.click("#r-close")
        rules = players[0].page.context.expect_page()
        with rules as opened:
            players[0].page.click("#rules")
        assert "UNO Classic" in opened.value.locator("h1").first.text_content()
        assert "wins the game" in players[0].page.text_content("#status")
        context.close()
    assert t.status == "over"
    assert events.get("reloaded") and events.get("back")
    assert t.log_path is not None and replay(load_log(t.log_path)).identical
    assert players[0].errors == [] and players[1].errors == []
    assert recorder.problems(0, *players[0].sockets) == []
    assert recorder.problems(1, *left[0].sockets, *players[1].sockets) == []


@pytest.mark.slow  # a whole game in the browser: CI runs it (.ci/run)
def test_three_pages_play_a_whole_flip_game_with_a_bot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chromium: object) -> None:
    hub = Hub()
    t = hub.add(Table(hub.new_id(), load_variant(flip_to(tmp_path, 120)), 4, 4, ["greedy"], tmp_path / "games"))
    recorder = Recorder()
    recorder.install(monkeypatch, t)
    with serving(hub, tmp_path / "games") as base:
        context = chromium.new_context(viewport={"width": 1200, "height": 900})  # type: ignore[attr-defined]
        links = _links(base, t, hub)
        players = [Player(context, links[p]) for p in range(3)]
        players[0].page.wait_for_function("() => state && state.seats.filter((s) => s.connected).length === 3")
        _start(players[0])
        players[0].page.wait_for_selector("#seats .backs .card")  # the others' backs are shown
        started = time.monotonic()
        moves = play_to_the_end(players, timeout=90)
        print(f"flip: {moves} moves in {time.monotonic() - started:.1f} s")
        context.close()
    assert t.status == "over" and moves > 20
    assert t.log_path is not None and replay(load_log(t.log_path)).identical
    for p, player in enumerate(players):
        assert player.errors == []
        assert recorder.problems(p, *player.sockets) == [], p


def test_a_variants_text_and_a_players_name_never_run_as_script(tmp_path: Path, chromium: object) -> None:
    evil = "<img src=x onerror=\"window.pwned=1\"><script>window.pwned=2</script>"
    variant = tmp_path / "evil.yaml"
    variant.write_text(f"unodsl: 1\nextends: classic\nname: {json.dumps(evil)}\n", encoding="utf-8")
    hub = Hub()
    t = hub.add(Table(hub.new_id(), load_variant(variant), 2, 1, ["greedy"], tmp_path / "games"))
    with serving(hub, tmp_path / "games") as base:
        context = chromium.new_context()  # type: ignore[attr-defined]
        player = Player(context, _links(base, t, hub)[0])
        page = player.page
        page.wait_for_function("() => state !== null")
        page.fill("#name", evil[:24])
        page.click("#rename")
        _start(player)
        page.wait_for_function("() => document.querySelector('#lines li') !== null")
        assert page.text_content("#variant") == evil
        assert page.evaluate("() => window.pwned") is None
        assert page.locator("img").count() == 0 and page.locator("body script").count() == 0
        assert evil[:24] in page.text_content("#seats")
        rules = context.new_page()
        rules.goto(f"{base}/t/{t.id}/rules")
        assert evil in rules.locator("h1").first.text_content()
        assert rules.evaluate("() => window.pwned") is None and rules.locator("img").count() == 0
        context.close()


def test_the_hosts_page_lists_the_tables_and_opens_a_new_one(tmp_path: Path, chromium: object) -> None:
    hub = Hub()
    t = hub.add(Table(hub.new_id(), load_variant("classic"), 3, 1, ["greedy"], tmp_path / "games"))
    with serving(hub, tmp_path / "games", {"classic": "classic", "flip": "flip"}) as base:
        context = chromium.new_context()  # type: ignore[attr-defined]
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(f"{base}/host#key={hub.host_key}")
        page.wait_for_selector("#tables > li")
        assert t.seats[1].token in (page.locator("#tables a").nth(1).get_attribute("href") or "")
        page.select_option("#variant", "flip")
        page.fill("#seats", "2")
        page.fill("#options", "alternative_scoring")
        page.click("#new button[type=submit]")
        page.wait_for_function("() => document.querySelectorAll('#tables > li').length === 2")
        assert "UNO Flip — 2 seats" in page.text_content("#tables")
        wrong = context.new_page()
        wrong.goto(f"{base}/host#key=not-the-key")
        wrong.wait_for_function("() => !document.getElementById('notice').hidden")
        assert "only the host" in wrong.text_content("#notice")
        context.close()
    assert errors == [] and len(hub.tables) == 2
    (flip,) = [x for x in hub.tables.values() if x is not t]
    assert flip.players == 2 and [o.name for o in flip.variant.options if o.enabled] == ["alternative_scoring"]
