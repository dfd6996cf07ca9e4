"""The game is a value (issue 14): the contract's corners, each set up by hand.

See tests/property/test_game_value.py for the same contract at random decision
points of every shipped variant.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import answer, game, pending
from unodsl import Game, load_variant
from unodsl.engine.actions import DRAW, Decision, Play
from unodsl.engine.cards import Card
from unodsl.errors import IllegalAction

ROOT = Path(__file__).resolve().parents[2]


def overlay(tmp_path: Path, text: str, base: str = "classic") -> Any:
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: {base}\nname: test\n{text}")
    return load_variant(path, allow=[ROOT / "variants"])


def snapshot(g: Game) -> bytes:
    """Everything a game is, as bytes: equal snapshots, equal games."""
    return pickle.dumps((g.decision and (g.decision.player, g.decision.kind, [str(o) for o in g.decision.options]),
                         [[c.id for c in h] for h in g.hands], [c.id for c in g.draw_pile],
                         [c.id for c in g.discard_pile], g.current, g.current_color, g.actions, g.scores,
                         len(g.events or ()), g.turns))


# -- answers are checked by what they are ----------------------------------------
class YesMan:
    """An impostor: equal to everything."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class Red(str):
    """A colour that is a str subclass."""


def impostors(d: Decision) -> list[Any]:
    """Things that look like an answer to `d` but are not one of its options."""
    fakes: list[Any] = [YesMan(), None, object(), "", 1.0, 0.0]
    for option in d.options:
        if isinstance(option, Play):
            fakes += [tuple(option), (option.card,), option.card, option.card.id, str(option)]
        elif isinstance(option, bool):
            fakes += [int(option), str(option).lower(), float(option)]
        elif isinstance(option, int):
            fakes += [bool(option % 2), float(option), str(option)]
        elif isinstance(option, str):
            fakes += [Red(option), option.upper(), option.encode()]
        elif isinstance(option, Card):
            fakes += [option.id, option.label, Play(option)]
        else:  # an action word: draw, keep, pass
            fakes += [str(option), type(option)(str(option))]
    return fakes


def every_kind_of_decision() -> list[Game]:
    """Games paused at each kind of decision: turn, drawn, colour, player, card, ask."""
    turn = game("classic", 3)
    turn.arrange({0: ["red 1", "red 2", "blue 7"], 1: ["green 3", "yellow 4"], 2: ["blue 1", "blue 2"]},
                 discard=["red 9"], draw=["yellow 9"])
    color = game("classic", 3)
    color.arrange({0: ["wild", "red 2", "blue 7"], 1: ["green 3", "yellow 4"], 2: ["blue 1", "blue 2"]},
                  discard=["red 9"])
    answer(color, "play wild")
    drawn = game("classic", 2, options={"draw_until_playable": False})
    drawn.arrange({0: ["blue 1", "blue 2", "green 7"], 1: ["green 3", "yellow 4"]}, discard=["red 9"],
                  draw=["red 5"])  # nothing to play: the draw is taken without asking
    ask = game("classic", 2)
    ask.arrange({0: ["red 1", "red 2"], 1: ["green 3", "yellow 4"]}, discard=["red 9"])
    answer(ask, "play red 1")
    player = game("house/seven_zero", 3)
    player.arrange({0: ["red 7", "red 2", "blue 7"], 1: ["green 3", "yellow 4"], 2: ["blue 1", "blue 2"]},
                   discard=["red 9"])
    answer(player, "play red 7")
    games = [turn, color, drawn, ask, player]
    assert [pending(g)[1] for g in games] == ["turn", "color", "drawn", "ask", "player"]
    return games


@pytest.mark.parametrize("g", every_kind_of_decision(), ids=lambda g: pending(g)[1])
def test_impostor_answers_are_refused_and_change_nothing(g: Game) -> None:
    d = g.decision
    assert d is not None
    before = snapshot(g)
    for fake in impostors(d):
        with pytest.raises(IllegalAction):
            g.apply(fake)
        assert snapshot(g) == before and g.decision is d, f"{fake!r} changed the game"
    g.apply(d.options[0])  # a real option still works
    assert snapshot(g) != before


def test_a_card_decision_refuses_impostors(tmp_path: Path) -> None:
    v = overlay(tmp_path, "cards:\n  skip:\n    on_play: give(player, next, choose_card(hand))\n")
    g = Game(v, 2, 1)
    g.arrange({0: ["red skip", "red 2", "blue 7"], 1: ["green 3", "yellow 4"]}, discard=["red 9"])
    answer(g, "play red skip")
    d = g.decision
    assert d is not None and d.kind == "card"
    before = snapshot(g)
    for fake in impostors(d):
        with pytest.raises(IllegalAction):
            g.apply(fake)
        assert snapshot(g) == before
    g.apply(d.options[1])
    assert [c.label for c in g.hands[1]][-1] == d.options[1].label


def test_an_agent_that_answers_with_an_impostor_is_reported_with_nothing_changed() -> None:
    class Cheat:
        name = "cheat"

        def choose(self, g: Game, d: Decision) -> Any:
            return tuple(d.options[0]) if isinstance(d.options[0], Play) else YesMan()

    g = game("classic", 2)
    g.arrange({0: ["red 1", "red 2"], 1: ["green 3", "yellow 4"]}, discard=["red 9"])
    before = snapshot(g)
    with pytest.raises(IllegalAction):
        g.autoplay([Cheat(), Cheat()])
    assert snapshot(g) == before and g.decision is not None


# -- clones, pickles, saved answers --------------------------------------------------
def test_a_variable_holding_a_zone_names_the_clones_own_zone(tmp_path: Path) -> None:
    v = overlay(tmp_path, "cards:\n  skip:\n    on_play: |\n      h = hand;\n      c = choose_color();\n"
                "      move(h, aside, 2)\n")
    g = Game(v, 2, 1, record=True)
    g.arrange({0: ["red skip", "red 2", "blue 7", "green 1"], 1: ["green 3", "yellow 4"]}, discard=["red 9"])
    answer(g, "play red skip")
    assert pending(g)[1] == "color"
    clone = g.clone()
    answer(clone, "red")
    assert [c.label for c in clone.aside] == ["green 1", "blue 7"] and len(clone.hands[0]) == 1
    assert len(g.hands[0]) == 3 and g.aside == []  # the original is untouched
    answer(g, "red")
    assert [c.label for c in g.aside] == ["green 1", "blue 7"]


def test_frames_that_share_variables_share_the_clones_copy() -> None:
    """A paused game's frames hold a few envs, each in several frames (the flow's, one
    above the other, with frames that hold none between them); a clone gives each env
    one copy of its own, held by the same frames."""
    g = game("classic", 4)
    g.apply(g.decision.options[0])  # type: ignore[union-attr]
    clone = g.clone()

    def envs(game: Game) -> list[Any]:
        return [getattr(f, "env", None) for f in game._stack]

    mine, theirs = envs(g), envs(clone)
    assert len([e for e in mine if e is not None]) > len({id(e) for e in mine if e is not None}) > 0
    for a, b in zip(mine, theirs, strict=True):
        assert (a is None) == (b is None) and (a is None or (a is not b and a == b))
    for i, a in enumerate(mine):  # the same env in the original, the same copy in the clone
        for j, b in enumerate(mine):
            assert (a is b) == (theirs[i] is theirs[j])


def test_a_pending_stacked_draw_clones_and_pickles() -> None:
    g = game("house/draw_two_stacking", 3)
    g.arrange({0: ["red draw two", "red 2", "red 3"], 1: ["blue draw two", "green 3", "green 4"],
               2: ["blue 1", "blue 2"]}, discard=["red 9"])
    answer(g, "play red draw two")
    assert g.penalty == 2 and g.penalty_answer is not None
    for other in (g.clone(), pickle.loads(pickle.dumps(g))):
        assert {str(o) for o in other.decision.options} == {"play blue draw two", "draw"}  # type: ignore[union-attr]
        answer(other, "play blue draw two")  # player 2 cannot answer: the draw of 4 is taken at once
        assert other.events is not None and ("penalty_taken", {"player": 2, "count": 4}) in other.events
    assert g.penalty == 2 and len(g.hands[2]) == 2


def test_a_game_with_listeners_pickles_without_them() -> None:
    heard: list[str] = []
    g = Game(load_variant("classic"), 3, 5, listeners=[lambda game, name, data: heard.append(name)])
    again = pickle.loads(pickle.dumps(g))
    assert again.listeners == [] and heard
    assert again.clone().listeners == []


def test_from_actions_refuses_an_answer_that_does_not_fit() -> None:
    g = Game(load_variant("classic"), 2, 3)
    with pytest.raises(IllegalAction, match="not a legal choice"):
        Game.from_actions(g.variant, 2, 3, ["no such colour"] * 5)


def test_actions_are_plain_data_that_survive_json() -> None:
    import json
    g = Game(load_variant("flip"), 3, 11)
    rng = random.Random(2)
    for _ in range(80):
        if g.decision is None:
            break
        g.apply(g.decision.options[rng.randrange(len(g.decision.options))])
    actions = json.loads(json.dumps(g.actions))
    again = Game.from_actions(g.variant, 3, 11, actions)
    assert [[c.id for c in h] for h in again.hands] == [[c.id for c in h] for h in g.hands]
    assert again.actions == g.actions


def test_a_card_read_before_a_flip_still_names_the_same_card(tmp_path: Path) -> None:
    v = overlay(tmp_path, "cards:\n  flip:\n    on_play: |\n      c = top_of(hand);\n      flip();\n"
                "      play(c, effect: false)\n", base="flip")
    g = Game(v, 2, 0, record=True)
    g.arrange({0: ["red flip", "red 1", "red 2"], 1: ["blue 1", "blue 2"]}, discard=["red 9"])
    held = g.hands[0][-1]
    answer(g, "play red flip")
    assert g.discard_pile[-1].id == held.id  # played on the dark side, as the card it now shows
    assert g.discard_pile[-1].side == 1


# -- information ------------------------------------------------------------------
def test_histories_a_player_cannot_tell_apart_give_equal_information_states() -> None:
    """Player 1 draws a card: player 0 sees that a card was drawn, not which."""
    states = []
    for drawn in ("blue 5", "green 8"):
        g = game("classic", 2)
        g.arrange({0: ["red 1", "red 2"], 1: ["yellow 3", "yellow 4"]}, discard=["red 9"],
                  draw=[drawn, "green 3"], current=1)
        answer(g, "draw")
        states.append((g.information_state(0), g.information_state(1)))
    assert states[0][0] == states[1][0]  # player 0 cannot tell the two apart
    assert states[0][1] != states[1][1]  # player 1 drew the card and knows it


def test_the_information_state_tells_what_the_player_saw_happen() -> None:
    g = game("classic", 2)
    g.arrange({0: ["red 1", "red 2"], 1: ["yellow 3", "yellow 4"]}, discard=["red 9"])
    before = g.information_state(1)
    answer(g, "play red 1")
    assert g.information_state(1) != before


def test_resample_keeps_the_outward_faces_of_a_two_sided_deck() -> None:
    g = Game(load_variant("flip"), 4, 9)
    rng = random.Random(4)
    for _ in range(30):
        assert g.decision is not None
        g.apply(g.decision.options[rng.randrange(len(g.decision.options))])
    assert g.decision is not None
    p = g.decision.player
    for k in range(5):
        other = g.resample(p, random.Random(k))
        assert other.view(p).opponents == g.view(p).opponents  # backs, sizes, scores
        assert other.view(p).draw_pile_back == g.view(p).draw_pile_back
        assert [c.id for c in other.hands[p]] == [c.id for c in g.hands[p]]
    moved = {tuple(c.id for c in g.resample(p, random.Random(k)).hands[(p + 1) % 4]) for k in range(5)}
    assert len(moved) > 1  # the hidden cards did move


def test_a_resampled_game_cannot_replay_its_information_state() -> None:
    g = Game(load_variant("classic"), 3, 2)
    other = g.resample(0, random.Random(1))
    with pytest.raises(Exception, match="record=True"):
        other.information_state(0)
    assert g.information_state(0)  # the real game replays from its seed and answers


def test_the_draw_option_is_a_singleton_even_after_pickling() -> None:
    g = Game(load_variant("classic"), 2, 3)
    again = pickle.loads(pickle.dumps(g))
    assert again.decision is not None and DRAW in again.decision.options


# -- agents that search ----------------------------------------------------------------
class Cloner:
    """An agent that copies the game it is asked about (as a search does)."""

    name = "cloner"

    def __init__(self) -> None:
        self.seen: list[tuple[Game, Decision]] = []

    def choose(self, g: Game, d: Decision) -> Any:
        self.seen.append((g.clone(), d))
        return d.options[0]


class Searcher(Cloner):
    searches = True


def test_an_agent_that_copies_the_game_inside_autoplay_must_say_so() -> None:
    g = Game(load_variant("classic"), 2, 4)
    with pytest.raises(Exception, match="searches = True"):
        g.autoplay([Cloner(), Cloner()])


def test_an_agent_that_searches_is_asked_where_the_game_is_whole() -> None:
    g = Game(load_variant("flip"), 3, 4, record=True)
    searcher = Searcher()
    g.autoplay([searcher, Searcher(), Searcher()], rounds=1)
    assert len(searcher.seen) > 10
    for copy, d in searcher.seen[:: max(1, len(searcher.seen) // 10)]:
        assert copy.decision is not None and str(copy.decision) == str(d)
        assert [str(o) for o in copy.decision.options] == [str(o) for o in d.options]
        answered = len(copy.actions)
        again = Game.from_actions(g.variant, 3, 4, g.actions[:answered])
        assert [[c.id for c in h] for h in again.hands] == [[c.id for c in h] for h in copy.hands]


def test_agents_that_search_and_agents_that_do_not_play_the_same_game() -> None:
    mixed = Game(load_variant("classic"), 3, 9)
    plain = Game(load_variant("classic"), 3, 9)
    mixed.autoplay([Searcher(), GreedyLast(), Searcher()])
    plain.autoplay([GreedyLast(), GreedyLast(), GreedyLast()])
    assert mixed.actions == plain.actions and mixed.scores == plain.scores


class GreedyLast:
    """Answers like the searchers above (the first option), without copying anything."""

    name = "last"

    def choose(self, g: Game, d: Decision) -> Any:
        return d.options[0]
