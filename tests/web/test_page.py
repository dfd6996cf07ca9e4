"""The table page in a real browser, at tables set up to reach a known moment in a
few moves: the UNO call and the catch of a missed call through the page's UNO
button, an undo seen by the other seat, the results screen and "play again", the
turn timer, a spectator's page, the host's buttons enabled only when they can act; and
the cards the page draws for every face of every shipped variant (a numeral for a
rank, the kind's name written, a mark of its own shape for each colour of a side)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import VARIANTS, variant
from unodsl import Game
from unodsl.engine.actions import Play
from unodsl.model import Variant
from unodsl.variant.load import load_variant
from unodsl.web.hub import Hub
from unodsl.web.table import Table

from .browser import Player, seat_links, start_game
from .screenshots import STATIC
from .serving import serving

Step = Callable[[Game], Any]  # the answer a step gives (None: the game is not where it should be)


def first_play(game: Game) -> Any:
    d = game.decision
    return next((o for o in d.options if type(o) is Play), None) if d is not None else None


def seed_where(variant: Variant, players: int, steps: list[tuple[int, str, Step]], last: Callable[[Game], bool]) -> int:
    """The first seed whose game goes as `steps` say (each: the seat asked, the decision's
    kind or prompt, the answer) and then satisfies `last`: a known moment, found by the engine."""
    for seed in range(1000):
        game = Game(variant, players, seed)
        for seat, what, step in steps:
            d = game.decision
            choice = step(game) if d is not None and d.player == seat and what in (d.kind, d.prompt) else None
            if choice is None:
                break
            game.apply(choice)
        else:
            if last(game):
                return seed
    raise AssertionError("no seed gives the moment the test needs")


def card_option(page: Player) -> str:
    """The label of the card the pending decision's first play would play."""
    return str(page.page.evaluate(
        "() => state.you.decision.options.find((o) => o.what === 'play').card.label"))


def play_first_card(page: Player) -> None:
    """Click, in the hand, the card of the decision's first play option."""
    label = card_option(page)
    page.page.locator(f'#hand button.legal[data-label="{label}"]').first.click(force=True)


def uno(page: Player) -> str:
    """What the page's UNO button does now: "call", "catch", or "" (disabled)."""
    return str(page.page.evaluate("() => { const b = document.getElementById('uno'); "
                                  "return b.disabled ? '' : b.dataset.action; }"))


WATCH = """() => {  // every animation the page starts, as 'selector-ish' names, from now on
  window.moved = new Set();
  new MutationObserver(() => {
    for (const e of document.querySelectorAll('.landed, .new, .bubble')) {
      window.moved.add(e.className.split(' ').filter((c) => ['landed', 'new', 'bubble'].includes(c))[0] +
                       (e.classList.contains('bubble') ? ':' + e.textContent : ''));
    }
  }).observe(document.body, {childList: true, subtree: true});
}"""


def moved(page: Player) -> set[str]:
    return set(page.page.evaluate("() => Array.from(window.moved)"))


def lines(page: Player) -> str:
    return page.page.text_content("#lines") or ""


def two_people(tmp_path: Path, variant: Variant, seed: int, **more: Any) -> tuple[Hub, Table]:
    hub = Hub()
    return hub, hub.add(Table(hub.new_id(), variant, 2, seed, ["greedy"], tmp_path / "games", **more))


def open_both(context: Any, base: str, t: Table, hub: Hub) -> list[Player]:
    links = seat_links(base, t, hub.host_key)
    pages = [Player(context, links[0]), Player(context, links[1])]
    pages[0].page.wait_for_function("() => state && state.seats.every((s) => s.connected)")
    return pages


def test_the_uno_button_calls_uno_and_catches_a_missed_call(tmp_path: Path, chromium: Any) -> None:
    variant = load_variant(VARIANTS / "classic.yaml", {"hand_size": 2})
    seed = seed_where(variant, 2, [(0, "turn", first_play), (0, "call_uno", lambda g: False),
                                   (1, "catch_uno", lambda g: True), (1, "turn", first_play)],
                      lambda g: g.decision is not None and g.decision.prompt == "call_uno" and g.decision.player == 1)
    hub, t = two_people(tmp_path, variant, seed)
    with serving(hub, tmp_path / "games") as base:
        context = chromium.new_context(viewport={"width": 1100, "height": 800})
        p1, p2 = open_both(context, base, t, hub)
        assert uno(p1) == "" and uno(p2) == ""  # (before the game: nothing to call)
        for page in (p1, p2):
            page.page.evaluate(WATCH)
        start_game(p1)
        p1.page.wait_for_selector("#hand button.legal")
        play_first_card(p1)
        # P1 has one card left: P1's UNO button calls; P2's does nothing yet
        p1.page.wait_for_function("() => !document.getElementById('uno').disabled")
        assert uno(p1) == "call" and uno(p2) == ""
        assert p1.page.is_visible("#uno.lit")
        p1.page.click('#options button[data-what="no"]')  # P1 forgets to call
        # P2 may catch the missed call: with the UNO button
        p2.page.wait_for_function("() => !document.getElementById('uno').disabled")
        p1.page.wait_for_function("() => document.getElementById('uno').disabled")  # (each page hears it in its turn)
        assert uno(p2) == "catch" and uno(p1) == ""
        p2.page.click("#uno", force=True)  # (force: it pulses, so it is never "stable" for Playwright)
        p1.page.wait_for_function("() => state.you.hand.length === 3")  # P1 drew two for it
        p2.page.wait_for_function("() => state.table.seats[0].size === 3")
        assert "catches a missed UNO" in lines(p2)
        # what moved: P1's card landed on P2's pile, the two cards slid into P1's hand, P2 saw "+2"
        assert "landed" in moved(p2) and "new" in moved(p1) and "bubble:+2" in moved(p2)
        # P2 plays down to one card and calls UNO with the button (key u)
        p2.page.wait_for_selector("#hand button.legal")
        play_first_card(p2)
        p2.page.wait_for_function("() => document.getElementById('uno').dataset.action === 'call'")
        p2.page.keyboard.press("u")
        p2.page.wait_for_function("() => document.getElementById('lines').textContent.includes('P2 calls UNO')")
        p2.page.wait_for_function("() => document.getElementById('uno').disabled")
        # a call made: P1 is not asked to catch it, the turn is P1's
        p1.page.wait_for_function("() => state.you.decision && state.you.decision.kind === 'turn'")
        assert uno(p1) == ""
        assert p1.errors == [] and p2.errors == []
        context.close()
    assert t.game is not None and [len(h) for h in t.game.hands] == [3, 1]


def test_an_undo_is_seen_by_the_other_seat_and_a_spectator_sees_no_empty_panel(
        tmp_path: Path, chromium: Any) -> None:
    variant = load_variant(VARIANTS / "classic.yaml")
    seed = seed_where(variant, 2, [(0, "turn", first_play)],
                      lambda g: g.decision is not None and g.decision.player == 1 and g.decision.kind == "turn")
    hub, t = two_people(tmp_path, variant, seed)
    with serving(hub, tmp_path / "games") as base:
        context = chromium.new_context(viewport={"width": 1100, "height": 800})
        p1, p2 = open_both(context, base, t, hub)
        watcher = context.new_page()
        watcher.goto(f"{base}/t/{t.id}/")
        # in the lobby the host can start, but there is nothing to undo or save
        assert p1.page.is_enabled("#h-start")
        assert p1.page.is_disabled("#h-undo") and p1.page.is_disabled("#h-save")
        start_game(p1)
        p1.page.wait_for_selector("#hand button.legal")
        assert p1.page.is_disabled("#h-undo") and p1.page.is_disabled("#h-start")  # (no person has decided yet)
        assert p1.page.is_enabled("#h-save")
        before = p1.page.evaluate("() => state.you.hand.map((c) => c.label)")
        play_first_card(p1)
        p1.page.wait_for_selector("#h-undo:not([disabled])")
        p2.page.wait_for_function("() => document.getElementById('status').textContent.includes('Your turn')")
        assert p2.page.is_visible("#decision")
        p1.page.click("#h-undo")
        # P2's page is told: the turn is P1's again, P2's question is gone, and a notice says why
        p2.page.wait_for_function("() => document.getElementById('status').textContent.includes(\"P1's turn\")")
        assert p2.page.is_hidden("#decision")
        p2.page.wait_for_selector("#notice:not([hidden])")
        assert "undid" in (p2.page.text_content("#notice") or "")
        p1.page.wait_for_function("(labels) => JSON.stringify(state.you.hand.map((c) => c.label)) === "
                                  "JSON.stringify(labels)", arg=before)
        # the spectator: the table, the narration, no hand, no question panel, no UNO button
        watcher.wait_for_function("() => state && state.status === 'playing'")
        assert watcher.is_hidden("#decision") and watcher.is_hidden("#mine") and watcher.is_hidden("#uno")
        assert watcher.is_hidden("#host") and watcher.locator("#seats .fan .card").count() > 0
        # nothing moves for a person who asked for less motion
        animation = "() => { const b = document.createElement('span'); b.className = 'bubble'; " \
                    "document.body.append(b); return getComputedStyle(b).animationName; }"
        assert watcher.evaluate(animation) == "pop"
        still = chromium.new_context(reduced_motion="reduce")
        calm = still.new_page()
        calm.goto(f"{base}/t/{t.id}/")
        calm.wait_for_function("() => state !== null")
        assert calm.evaluate(animation) == "none"
        still.close()
        # P2's link opened again in another window: refused there, with one button that moves the seat
        second = Player(context, seat_links(base, t, hub.host_key)[1])
        second.page.wait_for_selector("#notice button")
        assert "already open" in (second.page.text_content("#notice") or "")
        assert second.page.is_hidden("#tobot") and second.page.is_hidden("#back") and second.page.is_hidden("#board")
        assert second.page.text_content("#status") == "not connected"
        assert p1.errors == [] and p2.errors == []
        context.close()


@pytest.mark.slow  # a game played to its end, then another
def test_the_results_screen_and_play_again_for_everyone_the_host_confirming(tmp_path: Path, chromium: Any) -> None:
    variant = load_variant(VARIANTS / "classic.yaml", {"hand_size": 1, "target": 1})
    seed = seed_where(variant, 2, [(0, "turn", first_play)], lambda g: g.over and g.winner == 0)
    hub, t = two_people(tmp_path, variant, seed)
    with serving(hub, tmp_path / "games") as base:
        context = chromium.new_context(viewport={"width": 1100, "height": 800})
        p1, p2 = open_both(context, base, t, hub)
        start_game(p1)
        p1.page.wait_for_selector("#hand button.legal")
        play_first_card(p1)
        for page in (p1, p2):
            page.page.wait_for_selector("#results:not([hidden])")
        assert p1.page.text_content("#r-title") == "You win the game!"
        assert p2.page.text_content("#r-title") == "P1 wins the game"
        assert "P1 (you)" in (p1.page.text_content("#r-scores li.winner") or "")
        assert p2.page.is_hidden("#r-confirm") and p1.page.is_visible("#r-confirm")
        p2.page.click("#r-play")  # P2 would play again; the host sees it and confirms
        p1.page.wait_for_function("() => document.getElementById('r-again').textContent.includes('P2 would')")
        assert p2.page.is_disabled("#r-play")
        p1.page.click("#r-confirm")
        for page in (p1, p2):
            page.page.wait_for_function("() => state.game === 2 && state.status === 'playing'")
            page.page.wait_for_selector("#results", state="hidden")
        assert p1.errors == [] and p2.errors == []
        context.close()
    assert t.number == 2


@pytest.mark.slow  # waits for a turn's time to run out
def test_the_turn_timer_counts_down_and_the_bot_answers_when_it_runs_out(tmp_path: Path, chromium: Any) -> None:
    variant = load_variant(VARIANTS / "classic.yaml")
    seed = seed_where(variant, 2, [], lambda g: g.decision is not None and g.decision.player == 0)
    hub, t = two_people(tmp_path, variant, seed, turn_seconds=3.0)
    with serving(hub, tmp_path / "games") as base:
        context = chromium.new_context(viewport={"width": 1100, "height": 800})
        phone = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        links = seat_links(base, t, hub.host_key)
        p1, p2 = Player(context, links[0]), Player(phone, links[1])  # P2 on a phone
        p1.page.wait_for_function("() => state && state.seats.every((s) => s.connected)")
        start_game(p1)
        p1.page.wait_for_selector("#timer:not([hidden])")
        shown = p1.page.text_content("#timer-text") or ""
        assert shown.startswith("your time: ") and 0 <= int(shown.split()[-2]) <= 3
        p2.page.wait_for_selector("#timer:not([hidden])")
        assert (p2.page.text_content("#timer-text") or "").startswith("P1's time: ")
        assert p2.page.locator('#seats li[data-seat="0"] .clock').count() == 1
        # the time runs out: P1's bot answers, every page is told
        p2.page.wait_for_function("() => state.notice && state.notice.kind === 'timer'", timeout=10_000)
        assert "ran out of time" in (p2.page.text_content("#notice") or "")
        # the phone: one column no wider than the screen, the hand on screen, no box for the seat itself
        assert p2.page.evaluate("() => document.documentElement.scrollWidth") <= 390
        hand = p2.page.locator("#hand").bounding_box()
        assert hand is not None and hand["x"] >= 0 and hand["x"] + hand["width"] <= 390 and hand["y"] < 844
        assert p2.page.is_hidden("#seats .seat.me")
        assert p1.errors == [] and p2.errors == []
        context.close()
        phone.close()
    assert t.deciders and t.deciders[0] == (0, False)


# -- the cards: every face of every shipped variant, drawn by static/cards.js ---------------
SHIPPED = sorted(VARIANTS.glob("*.yaml")) + sorted((VARIANTS / "house").glob("*.yaml"))


def shipped(path: Path) -> Variant:
    return variant(str(path.relative_to(VARIANTS).with_suffix("")))  # (cached for the whole run)


DRAWN = """(faces) => faces.map((f) => {
  const e = cardElement(f, 'span');
  const texts = Array.from(e.querySelectorAll('text')).map((t) => t.textContent);
  return {label: f.label, big: (e.querySelector('text.big') || {}).textContent || '', texts: texts,
          wheel: e.querySelectorAll('clipPath').length, name: e.getAttribute('aria-label')};
})"""


@pytest.fixture(scope="module")
def cards_page(chromium: Any) -> Any:
    context = chromium.new_context()
    page = context.new_page()
    page.set_content("<!DOCTYPE html><html><body></body></html>")
    page.add_script_tag(path=str(STATIC / "cards.js"))
    yield page
    context.close()


def test_every_face_of_every_shipped_variant_is_drawn_with_its_rank_or_its_name(cards_page: Any) -> None:
    for path in SHIPPED:
        variant = shipped(path)
        faces = {f.label: f for side in variant.sides for f in side.faces}
        drawn = cards_page.evaluate(DRAWN, [{"label": f.label, "color": f.color or "", "wild": f.wild}
                                      for f in faces.values()])
        for card in drawn:
            face = faces[card["label"]]
            assert card["name"] == face.label
            if face.rank is not None:
                assert card["big"] == str(face.rank), (path.name, card)
            else:
                assert face.kind.replace("_", " ") in card["texts"], (path.name, card)  # its name, written
            assert card["wheel"] == (1 if face.wild and not face.color else 0), (path.name, card)


def test_each_colour_of_a_side_has_a_mark_of_its_own_shape(cards_page: Any) -> None:
    for path in SHIPPED:
        for side in shipped(path).sides:
            marks = cards_page.evaluate("(colors) => colors.map((c) => paint(c) && paint(c).mark)", list(side.colors))
            assert None not in marks, f"{path.name}: a colour the page has no paint for: {side.colors}"
            assert len(set(marks)) == len(marks), f"{path.name}: two colours share a mark: {side.colors}"


NUMBERS = """extends: classic
name: numbers at the web table
rules:
  - name: name two numbers
    on: turn_start
    if: player == 0
    do: "a = choose_number(1, 30); b = choose_number(0, 3)"
"""


def test_a_number_is_typed_from_a_wide_range_and_clicked_or_keyed_from_a_narrow_one(tmp_path: Path,
                                                                                     chromium: Any) -> None:
    path = tmp_path / "numbers.yaml"
    path.write_text(NUMBERS)
    hub = Hub()
    t = hub.add(Table(hub.new_id(), load_variant(path), 2, 1, ["greedy"], tmp_path / "games"))
    with serving(hub, tmp_path / "games") as base:
        context = chromium.new_context(viewport={"width": 1100, "height": 800})
        page = Player(context, seat_links(base, t, hub.host_key)[0])
        start_game(page)
        # 1 … 30: more than a row of buttons, so a field (focused), checked against the range
        page.page.wait_for_selector("#options form.numberfield input[type=number]")
        assert page.page.evaluate("() => document.activeElement.type") == "number"
        assert page.page.locator("#options button[data-what='int']").count() == 0
        page.page.fill("#options input", "31")
        page.page.press("#options input", "Enter")
        assert page.page.evaluate("() => document.querySelector('#options input').validationMessage") != ""
        page.page.fill("#options input", "17")
        page.page.press("#options input", "Enter")
        # 0 … 3: a button per number, no position key; the key 2 picks the number 2
        page.page.wait_for_function("() => state.you.decision && state.you.decision.options.length === 4")
        assert page.page.locator("#options button[data-what='int']").all_text_contents() == ["0", "1", "2", "3"]
        assert page.page.locator("#options kbd").count() == 0
        page.page.keyboard.press("2")
        page.page.wait_for_function("() => state.you.decision && state.you.decision.kind === 'turn'")
        assert page.errors == []
        context.close()
    assert t.game is not None
    answers = list(t.game.actions)  # (encoded: a card played is its id)
    assert any(answers[i:i + 2] == [17, 2] for i in range(len(answers)))
