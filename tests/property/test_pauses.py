"""Every way a program can stop for a player, cloned and pickled at every stop.

The shipped variants stop mostly at turns, colours and questions. This variant
stops inside `for`, `while` and `repeat` loops, in a rule that asks, in a card
applied by another card (a nested program), in a choice that comes after queued
rules, and in an out-of-turn offer. A game answered at random is compared with
copies made at each of its decisions (a clone, and a pickled copy) and answered
the same way from there: their events must be the same, and so must the game
made again from its answers.
"""

from __future__ import annotations

import contextlib
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import assert_conserved
from unodsl import Game, load_variant
from unodsl.errors import RunawayRound
from unodsl.tools.log import event_line

ROOT = Path(__file__).resolve().parents[2]

PAUSING = """\
extends: classic
name: every pause
cards:
  skip:
    on_play: |
      for o in opponents do (if ask(o, "take_one") then draw(o, 1));
      skip()
  reverse:
    on_play: |
      n = 0;
      while n < 2 and count(hand) > 1 do (give(player, next, choose_card(hand)); n = n + 1);
      reverse()
  draw_two:
    on_play: |
      repeat 2 do (c = choose_color(by: next); set_color(c));
      draw(next, 2); skip()
  wild:
    on_play: |
      if previous_top != none and not previous_top.wild then apply(previous_top, by: choose_player(opponents));
      set_color(choose_color())
rules:
  - name: seven asks around
    on: card_played
    if: card.rank == 7
    do: |
      p = choose_player(players);
      if ask(p, "reverse_now") then reverse()
  - name: jump in
    on: turn_end
    if: previous_top != none
    do: jump_in(c -> c.color == top.color and c.symbol == top.symbol)
"""


@pytest.fixture(scope="module")
def variant(tmp_path_factory: pytest.TempPathFactory) -> object:
    path = tmp_path_factory.mktemp("pauses") / "pauses.yaml"
    path.write_text(PAUSING)
    return load_variant(path, allow=[ROOT / "variants"])


def lines(game: Game, since: int = 0) -> list[str]:
    assert game.events is not None
    return [event_line(n, d) for n, d in game.events[since:]]


def answer_on(game: Game, picks: list[int]) -> str:
    """Answer by index until the picks run out or the game ends; how it stopped."""
    try:
        for k in picks:
            if game.decision is None:
                return "over"
            game.apply(game.decision.options[k % len(game.decision.options)])
    except RunawayRound:
        return "runaway"
    return "more"


class Script:
    """An agent that answers by the next index of a list (then stops the game)."""

    name = "script"

    def __init__(self, picks: list[int]) -> None:
        self.picks = picks

    def choose(self, game: Game, decision: object) -> object:
        if not self.picks:
            raise StopIteration
        options = game.decision.options  # type: ignore[union-attr]
        return options[self.picks.pop(0) % len(options)]


@given(seed=st.integers(0, 2**16), players=st.integers(2, 5),
       picks=st.lists(st.integers(0, 40), min_size=40, max_size=160))
def test_stopping_at_every_decision_is_the_game_played_without_stopping(
        variant: object, seed: int, players: int, picks: list[int]) -> None:
    """Answered through apply, the game stops at every decision (its frames are
    built and run); answered by agents inside autoplay, it never stops. Same game."""
    stopping = Game(variant, players, seed, record=True, max_turns=400)  # type: ignore[arg-type]
    end = answer_on(stopping, list(picks))
    flowing = Game(variant, players, seed, record=True, max_turns=400)  # type: ignore[arg-type]
    script = Script(list(picks))
    with contextlib.suppress(StopIteration, RunawayRound):  # the script ran out, or the round ran away
        flowing.autoplay([script] * players)
    if end == "runaway":
        return
    n = min(len(stopping.events or ()), len(flowing.events or ()))
    assert lines(stopping)[:n] == lines(flowing)[:n]
    assert stopping.actions[:len(flowing.actions)] == flowing.actions[:len(stopping.actions)]


@given(seed=st.integers(0, 2**16), players=st.integers(2, 5),
       picks=st.lists(st.integers(0, 40), min_size=40, max_size=160), at=st.integers(0, 159))
def test_copies_at_any_stop_go_on_alike(variant: object, seed: int, players: int, picks: list[int],
                                        at: int) -> None:
    game = Game(variant, players, seed, record=True, max_turns=400)  # type: ignore[arg-type]
    before, after = picks[:at % len(picks)], picks[at % len(picks):]
    if answer_on(game, before) != "more" or game.decision is None:
        return
    mark = len(game.events or ())
    copies = [game.clone(), pickle.loads(pickle.dumps(game))]
    ends = [answer_on(g, after) for g in (game, *copies)]
    assert ends[1:] == ends[:1] * 2
    for copy in copies:
        assert lines(copy, mark) == lines(game, mark)
        assert [[c.id for c in h] for h in copy.hands] == [[c.id for c in h] for h in game.hands]
    assert_conserved(game, "after the copies played")
    again = Game.from_actions(game.variant, players, seed, game.actions, record=True, max_turns=400)
    assert lines(again) == lines(game)


def test_the_pausing_variant_stops_in_each_construct(variant: object) -> None:
    """The test above is only as good as the stops it reaches: each is reached."""
    prompts: set[tuple[str, str]] = set()
    for seed in range(40):
        game = Game(variant, 4, seed, record=True, max_turns=400)  # type: ignore[arg-type]
        rng = random.Random(seed)
        for _ in range(400):
            d = game.decision
            if d is None:
                break
            prompts.add((d.kind, d.prompt))
            try:
                game.apply(d.options[rng.randrange(len(d.options))])
            except RunawayRound:
                break
    wanted = {("ask", "take_one"), ("card", "pick a card"), ("color", "name a colour"),
              ("player", "pick a player"), ("ask", "reverse_now"), ("jump", "jump in")}
    assert wanted <= prompts, wanted - prompts
