"""The web table at a declared table: the zones of `zones:` as each seat may see them, a
declared play offered and made (a Lay), its narration told as the terminal tells it, the
frames of a hidden declared zone checked by resampling, and a variant's text kept text."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import unodsl.engine.zones as zones_module
import unodsl.web.table as table_module
from tests.helpers import answer
from unodsl import Game
from unodsl.players.narrator import Narrator
from unodsl.variant.load import load_variant
from unodsl.web.hub import Hub
from unodsl.web.knowledge import Knowledge
from unodsl.web.knowledge import knowledge as known
from unodsl.web.narration import SeatNarrator
from unodsl.web.table import Table

from .serving import serving
from .test_secrets import frame_text, play_and_check, resample_problems

ROOT = Path(__file__).resolve().parents[2]
ROW = ROOT / "tests" / "table_variants" / "center_row.yaml"
DOUBLES_SEED = 13  # P1's first decision at a 2-seat doubles table offers two doubles plays


def row_table(tmp_path: Path, players: int = 3) -> Table:
    t = Table("t1", load_variant(ROW), players, 2, ["random"], tmp_path)
    t.take(0)
    t.start()
    return t


def bots_to_end(t: Table) -> None:
    while (move := t.bot_move()) is not None:
        agent, game, version = move
        assert game.decision is not None
        assert t.apply_bot(game, version, agent.choose(game, game.decision))


def _labels(zone: dict[str, Any]) -> list[str] | None:
    return None if zone["cards"] is None else [c["label"] for c in zone["cards"]]


# -- the zones ------------------------------------------------------------------------------------------
def test_each_seat_sees_a_row_whole_a_face_down_pile_as_a_count_and_its_own_zone_only(tmp_path: Path) -> None:
    t = row_table(tmp_path)
    game = t.game
    assert game is not None
    row = [c.label for c in game.places["center_row"]]
    stocks = [[c.label for c in z] for z in game.seat_places["stock"]]
    for seat in (None, 0, 1, 2):
        zones = t.frame(seat)["table"]["zones"]
        assert [(z["name"], z["seat"]) for z in zones] == [
            ("center_row", None), ("vault", None), ("stock", 0), ("stock", 1), ("stock", 2)]
        assert _labels(zones[0]) == row and zones[0]["row"] and zones[0]["size"] == 2
        assert _labels(zones[1]) is None and zones[1]["size"] == 3  # face down: only its size
        assert [_labels(z) for z in zones[2:]] == [stocks[p][-1:] if p == seat else None for p in range(3)]
        assert [z["size"] for z in zones[2:]] == [1, 1, 1]
        assert zones[0]["about"] == "the cards in the middle of the table"


def test_the_frames_of_a_hidden_declared_zone_change_with_nothing_a_seat_cannot_know(tmp_path: Path) -> None:
    problems, made = play_and_check(str(ROW), 10**8 + 7, tmp_path, decisions=200, checks=0.1, resamples=3)
    assert problems == []
    assert made >= 5


def test_the_property_finds_a_face_down_zone_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted leak: the vault's cards (face down) in a frame."""
    def with_the_vault(game: Game, seat: int | None) -> Knowledge:
        k = known(game, seat)
        return dataclasses.replace(k, aside=(*k.aside, *(c.label for c in game.places["vault"])))

    monkeypatch.setattr(table_module, "knowledge", with_the_vault)
    problems, _ = play_and_check(str(ROW), 10**8 + 7, tmp_path, decisions=60, checks=0.3, resamples=3)
    assert any("cannot see were dealt again" in p for p in problems)


def said_seven(tmp_path: Path) -> Table:
    """A DOS table where P1 has just matched blue 10 with a red wild number said to be 7 (and
    a green 3), and may match again: the card lies in `matched`, a row everyone sees."""
    t = Table("t1", load_variant("dos"), 3, 2, ["random"], tmp_path)
    t.take(0)
    t.start()
    game = t.game
    assert game is not None
    game.arrange({0: ["red wild number", "green 3", "blue 4", "green 8", "blue 1"], 1: ["red 1", "red 7"],
                  2: ["red 3", "red 10"]}, zones={"center_row": ["blue 10", "yellow 4"]})
    answer(game, "double_match: red wild number + green 3 on blue 10")
    return t


def test_the_value_said_of_a_card_in_a_zone_changes_with_nothing_a_seat_cannot_know(tmp_path: Path) -> None:
    t = said_seven(tmp_path)
    for seat in (None, 0, 1, 2):
        matched = next(z for z in t.frame(seat)["table"]["zones"] if z["name"] == "matched")
        assert [c["said"] for c in matched["cards"]] == ["7", "", ""]
        assert resample_problems(t, seat, random.Random(seat), 4) == []


def test_the_property_finds_a_value_said_that_tells_a_hidden_card(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted leak through the new field: what is said of a card tells the draw pile's top card."""
    t = said_seven(tmp_path)
    real = frame_text(t, 1)
    monkeypatch.setattr(zones_module, "said_of", lambda g, card, zone: g.draw_pile[-1].label)
    assert frame_text(t, 1) != real
    assert resample_problems(t, 1, random.Random(1), 4) == [
        "P2's frame changed when the cards it cannot see were dealt again"]


def test_the_page_shows_the_value_said_under_the_card(tmp_path: Path, chromium: Any) -> None:
    from .browser import Player, seat_links  # (skips without playwright and Chromium)

    hub = Hub()
    t = hub.add(said_seven(tmp_path))
    with serving(hub, tmp_path) as base:
        context = chromium.new_context()
        player = Player(context, seat_links(base, t, hub.host_key)[0])
        player.page.wait_for_function("() => state !== null && state.table !== null")
        cards = player.page.locator('#zones .zone[data-zone="matched"] .card')
        assert [cards.nth(i).get_attribute("title") for i in range(cards.count())] == [
            "red wild number (7)", "green 3", "blue 10"]
        assert cards.nth(0).locator(".said").text_content() == "7" and cards.locator(".said").count() == 1
        assert player.page.is_hidden("#uno")  # DOS asks its own call as a question: no UNO button
        assert player.errors == []
        context.close()


# -- a declared play ------------------------------------------------------------------------------------
def test_a_declared_play_is_offered_with_its_text_and_made_by_its_number(tmp_path: Path) -> None:
    t = Table("t1", load_variant("house/doubles"), 2, DOUBLES_SEED, ["greedy"], tmp_path)
    t.take(0)
    t.start()
    bots_to_end(t)
    game = t.game
    assert game is not None and game.decision is not None and game.decision.player == 0
    d = t.frame(0)["you"]["decision"]
    lays = [(i, o) for i, o in enumerate(d["options"]) if o["what"] == "lay"]
    assert [o["text"] for _, o in lays] == ["doubles: yellow 2 + blue 2 on yellow 7",
                                            "doubles: yellow 5 + red 5 on yellow 7"]
    i, lay = lays[1]
    assert lay["play"] == "doubles" and [c["label"] for c in lay["cards"]] == ["yellow 5", "red 5"]
    assert lay["target"]["label"] == "yellow 7"
    size = len(game.hands[0])
    t.answer(0, d["id"], i)
    assert [c.label for c in game.discard_pile[-2:]] == ["yellow 5", "red 5"] and len(game.hands[0]) == size - 2
    told = ["".join(text for text, _ in line) for line in t.narrators[1].since(0)]
    assert f"  P1 plays yellow 5 and red 5 on yellow 7 (doubles, {size - 2} left)" in told
    assert not [line for line in told if re.search(r"plays (yellow|red) 5 \(", line)]


def test_the_web_and_the_terminal_tell_a_play_alike(tmp_path: Path) -> None:
    """Every seat's narration of a declared play is the terminal's, line for line (no card of it told twice)."""
    names = ["P1", "P2", "P3"]
    terminal: list[str] = []
    narrator = Narrator(names, lambda m: terminal.extend(m.splitlines()))
    seats = [SeatNarrator(list(names), p) for p in (None, 0, 1, 2)]
    game = Game(load_variant(ROW), 3, 4, listeners=[narrator, *seats], listen_to=narrator.listen_to())
    rng = random.Random(4)
    while game.decision is not None and game.turns < 60:
        game.apply(rng.choice(game.decision.options))
    plays = [line for line in terminal if re.search(r"\((single|pair), \d+ left\)$", line)]
    assert len(plays) > 5
    for seat in seats:
        told = ["".join(text for text, _ in line) for line in seat.since(0)]
        mine = [line for line in told if re.search(r"\((single|pair), \d+ left\)$", line)]
        assert [re.sub(r"\[/?[a-z_ ]*\]", "", line) for line in plays] == mine


# -- a variant's text stays text ----------------------------------------------------------------------
EVIL = "<img src=x onerror=\"window.pwned=1\"><script>window.pwned=2</script>"


def evil_doubles(tmp_path: Path) -> Path:
    path = tmp_path / "evil_doubles.yaml"
    path.write_text(f"extends: house/doubles\nname: Evil doubles\nzones:\n  lost_cards:\n    shows: none\n"
                    f"    description: {json.dumps(EVIL)}\n", encoding="utf-8")
    return path


def test_a_zones_description_is_sent_as_text(tmp_path: Path) -> None:
    t = Table("t1", load_variant(evil_doubles(tmp_path)), 2, DOUBLES_SEED, ["greedy"], tmp_path / "games")
    t.start()
    zones = t.frame(None)["table"]["zones"]
    assert zones == [{"name": "lost_cards", "title": "lost cards", "seat": None, "row": False, "size": 0,
                      "cards": None, "about": EVIL}]


def test_a_person_makes_a_doubles_play_in_the_browser(tmp_path: Path, chromium: Any) -> None:
    from .browser import Player, seat_links, start_game  # (skips without playwright and Chromium)

    hub = Hub()
    t = hub.add(Table(hub.new_id(), load_variant(evil_doubles(tmp_path)), 2, DOUBLES_SEED, ["greedy"],
                      tmp_path / "games"))
    with serving(hub, tmp_path / "games") as base:
        context = chromium.new_context()
        player = Player(context, seat_links(base, t, hub.host_key)[0])
        page = player.page
        page.wait_for_function("() => state !== null")
        start_game(player)
        page.wait_for_function("() => state && state.you && state.you.decision && "
                               "state.you.decision.options.some((o) => o.what === 'lay')")
        zone = page.locator('#zones .zone[data-zone="lost_cards"]')
        assert zone.get_attribute("title") == EVIL and zone.locator(".count").text_content() == "lost cards: empty"
        button = page.locator('#options button[data-what="lay"]', has_text="doubles: yellow 5 + red 5 on yellow 7")
        button.click()
        page.wait_for_function("() => [...document.querySelectorAll('#lines li')].some("
                               "(li) => li.textContent.includes('plays yellow 5 and red 5 on yellow 7 (doubles'))")
        told = ["".join(text for text, _ in line) for line in t.narrators[1].since(0)]
        doubles = [line for line in told if "(doubles, " in line and line.startswith("  P1 ")]
        assert len(doubles) == 1 and re.fullmatch(r"  P1 plays yellow 5 and red 5 on yellow 7 \(doubles, \d+ left\)",
                                                  doubles[0])
        assert page.evaluate("() => window.pwned") is None and page.locator("img").count() == 0
        assert player.errors == []
        context.close()
