"""Scenario tests for UNO Duo: one or more per rule ID (DUO-*), plus COM-2/COM-3 in Duo.

Seats: this round's dealer is "Player 1" (drafts first); the other seat is
"Player 2" (plays first).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

import pytest

from tests.helpers import (
    answer,
    assert_classic_coloured_cards,
    events,
    game,
    hand,
    labels,
    pending,
    played_out,
    variant,
)
from unodsl import Game, IllegalAction, UnoDslError, make_agents, play_game
from unodsl.engine.actions import DRAW, Play

# 14 cards discarded in a draft where every seen card is kept (rank 0 first, so
# Player 1's first card wins the cut).
FILLERS = ["yellow 0"] + [f"yellow {r}" for r in range(1, 7) for _ in range(2)] + ["yellow 7"]


def drafted(p1: Sequence[str], p2: Sequence[str], first: str, draw: Sequence[str] = ()) -> Game:
    """A Duo game stacked so that seat 0 wins the cut (Player 1), and keeping every
    seen card drafts `p1` to seat 0 and `p2` to seat 1; `first` is then turned up
    and `draw` are the next cards drawn. Setup may still be waiting for an answer."""
    assert len(p1) == len(p2) == 7
    deck: list[str] = []
    for k in range(7):
        deck += [p1[k], FILLERS[2 * k], p2[k], FILLERS[2 * k + 1]]
    g = game("duo", stacked=[*deck, first, *draw])
    assert g.dealer == 0
    for _ in range(14):
        assert pending(g)[1:] == ("ask", "keep")
        answer(g, "yes")
    return g


def options(g: Game) -> set[str]:
    assert g.decision is not None
    return {str(o) for o in g.decision.options}


# -- DUO-1 -------------------------------------------------------------------------
def test_duo_01_two_players_and_112_cards_with_eight_plain_wilds() -> None:
    v = variant("duo")
    assert (v.min_players, v.max_players) == (2, 2)
    faces = v.sides[0].faces
    assert len(faces) == 112
    per = Counter(f.label for f in faces)
    assert_classic_coloured_cards(per)
    assert per["wild"] == 8 and per["wild draw four"] == 4  # Decision: 4 extra plain Wilds
    assert sum(per.values()) == 112


@pytest.mark.parametrize("players", [1, 3])
def test_duo_01_refuses_other_player_counts(players: int) -> None:
    with pytest.raises(UnoDslError, match="2–2 players"):
        Game(variant("duo"), players)


# -- DUO-2 -------------------------------------------------------------------------
def test_duo_02_draft_keep_or_discard_and_discards_go_under_the_draw_pile() -> None:
    deck = [
        "red 1", "red 9",  # cut: seat 0 shows red 1, seat 1 shows red 9: seat 1 is Player 1
        "blue 1", "blue 2", "green 1", "green 2", "yellow 1", "yellow 2", "red 2", "red 3",
        "blue 3", "blue 4", "green 3", "green 4", "yellow 3", "yellow 4", "red 4", "red 5",
        "blue 5", "blue 6", "green 5", "green 6", "yellow 5", "yellow 6", "red 6", "red 7",
        "blue 7", "blue 8",
        "blue 9",  # turned up after the draft
    ]
    g = game("duo", stacked=deck)
    assert g.dealer == 1
    assert [e["card"].label for e in events(g, "cut")] == ["red 1", "red 9"]
    assert events(g, "shuffled")[0]["player"] == 1  # Player 1 shuffles
    keeps = ["no", "yes", "yes", "no", "no", "yes", "yes", "yes", "no", "no", "yes", "yes", "yes", "no"]
    for step, keep in enumerate(keeps):
        who, kind, prompt = pending(g)
        # Players alternate steps, Player 1 (seat 1) first; each sees the top card.
        assert (who, kind, prompt) == (1 if step % 2 == 0 else 0, "ask", "keep")
        assert g.decision is not None and g.decision.about is not None
        assert g.decision.about.label == deck[2 * step]
        answer(g, keep)
    # Keep: the seen card, the next is discarded. Discard: the next card is kept.
    assert hand(g, 1) == sorted(["red 9", "green 1", "red 3", "green 3", "red 5", "green 5", "red 6"])
    assert hand(g, 0) == sorted(["blue 1", "yellow 2", "blue 3", "yellow 3", "blue 6", "yellow 5", "blue 8"])
    discarded = ["red 1", "blue 2", "green 2", "yellow 1", "red 2", "blue 4", "green 4", "yellow 4",
                 "red 4", "blue 5", "green 6", "yellow 6", "red 7", "blue 7"]
    assert sorted(labels(g.draw_pile[:14])) == sorted(discarded)  # face down, under the pile
    assert labels(g.discard_pile) == ["blue 9"]
    assert len(g.draw_pile) == 112 - 14 - 1
    assert g.aside == []
    assert not any(d["prompt"] == "call_uno" for d in events(g, "choice"))  # no UNO call in a draft
    assert pending(g)[:2] == (0, "turn")  # Player 2 plays first (DUO-3)


def test_duo_02_draft_discards_go_face_up_seen_by_both_then_face_down_under_the_draw_pile() -> None:
    """DUO-2 (corrected): each step's discarded card goes face up on the draft's
    discard pile, where both players see it; at the end the 14 are turned over
    (face down, so the last one discarded is at the very bottom) under the draw pile."""
    # The cut shows the first two cards (seat 1's red 9 wins), which the draft then starts from.
    deck = ["red 1", "red 9", *[f"{c} {r}" for r in range(2, 8) for c in ("blue", "green", "yellow", "red")],
            "red 8", "green 8", "blue 9"]
    assert len(deck) == 28 + 1
    g = game("duo", stacked=deck)
    assert g.dealer == 1
    keeps = ["no", "yes"] * 7
    discarded: list[str] = []
    for step, keep in enumerate(keeps):
        seen, following = deck[2 * step], deck[2 * step + 1]
        assert g.decision is not None and g.decision.about is not None and g.decision.about.label == seen
        answer(g, keep)
        discarded.append(seen if keep == "no" else following)
        if step < 13:
            assert labels(g.discard_pile) == discarded  # face up, in the order discarded
            assert g.view(0).discard_pile == g.view(1).discard_pile == tuple(discarded)
    assert labels(g.draw_pile[:14]) == discarded[::-1]
    assert labels(g.discard_pile) == ["blue 9"]
    assert len(g.draw_pile) == 112 - 14 - 1 and g.aside == []
    assert not any(d["prompt"] == "call_uno" for d in events(g, "choice"))
    assert pending(g)[:2] == (0, "turn")


def test_duo_02_higher_cut_drafts_first() -> None:
    g = drafted(["red 8"] + ["blue 1"] * 2 + ["blue 2"] * 2 + ["blue 3"] * 2,
                ["green 1"] * 2 + ["green 2"] * 2 + ["green 3"] * 2 + ["green 4"], "red 5")
    assert [e["card"].label for e in events(g, "cut")] == ["red 8", "yellow 0"]
    asked = [d["player"] for d in events(g, "choice") if d["prompt"] == "keep"]
    assert asked == [0, 1] * 7
    assert hand(g, 0)[-1] == "red 8"


@pytest.mark.parametrize("seed", range(6))
def test_duo_02_and_03_roles_alternate_every_round(seed: int) -> None:
    g = game("duo", seed=seed)
    play_game(g, make_agents(["greedy", "random"], 2, seed))
    assert g.round >= 2
    log = g.events
    assert log is not None
    starts = [i for i, (e, _) in enumerate(log) if e == "round_start"]
    dealers = [log[i][1]["player"] for i in starts]
    assert all(b == 1 - a for a, b in pairwise(dealers))
    numbers_first = 0
    for i, dealer in zip(starts, dealers, strict=True):
        keep = next(d for e, d in log[i:] if e == "choice" and d["prompt"] == "keep")
        assert keep["player"] == dealer  # DUO-2: this round's Player 1 drafts first
        turned = next(d["card"] for e, d in log[i:] if e == "card_turned")
        first = next(d["player"] for e, d in log[i:] if e == "turn_start")
        if turned.kind == "number":
            numbers_first += 1
            assert first == 1 - dealer  # DUO-3: Player 2 plays first
    assert numbers_first >= 1


# -- DUO-3 -------------------------------------------------------------------------
P1 = ["red 8", "red 1", "red 2", "red 3", "red 4", "green 6", "green 7"]
P2 = ["blue 1", "blue 2", "blue 3", "blue draw two", "green 1", "green 2", "green 3"]


def test_duo_03_number_first_player_2_plays_first() -> None:
    g = drafted(P1, P2, "green 9")
    assert labels(g.discard_pile) == ["green 9"]
    assert pending(g)[:2] == (1, "turn")
    assert [len(h) for h in g.hands] == [7, 7]


def test_duo_03_first_draw_two_player_2_draws_two_and_loses_turn() -> None:
    g = drafted(P1, P2, "green draw two", draw=["blue 8", "blue 9"])
    # No volley: Player 2 draws at once although holding a Draw Two.
    assert hand(g, 1) == sorted([*P2, "blue 8", "blue 9"])
    assert g.penalty == 0
    assert pending(g)[:2] == (0, "turn")


def test_duo_03_first_wild_draw_four_player_1_names_colour_player_2_draws_four() -> None:
    g = drafted(P1, P2, "wild draw four", draw=["blue 5", "blue 6", "blue 7", "blue 8"])
    assert pending(g) == (0, "color", "name a colour")
    answer(g, "green")
    assert g.current_color == "green"
    assert hand(g, 1) == sorted([*P2, "blue 5", "blue 6", "blue 7", "blue 8"])
    assert not any(d["prompt"] == "challenge" for d in events(g, "choice"))  # nobody played it
    assert pending(g)[:2] == (0, "turn")


def test_duo_03_first_wild_player_1_names_colour_player_2_plays_first() -> None:
    g = drafted(P1, P2, "wild")
    assert pending(g) == (0, "color", "name a colour")
    answer(g, "blue")
    assert g.current_color == "blue"
    assert pending(g)[:2] == (1, "turn")
    assert options(g) == {"play blue 1", "play blue 2", "play blue 3", "play blue draw two", "draw"}


def test_duo_03_first_skip_player_1_plays_first() -> None:
    g = drafted(P1, P2, "green skip")
    assert pending(g)[:2] == (0, "turn")
    assert [len(h) for h in g.hands] == [7, 7]


def test_duo_03_first_reverse_player_2_may_play_all_of_its_colour() -> None:
    g = drafted(P1, P2, "green reverse")
    assert pending(g) == (1, "ask", "play_all_of_color")
    answer(g, "yes")
    assert pending(g)[1] == "card"
    answer(g, "green 3", "green 1")  # green 2 is the last one: taken without asking
    assert labels(g.discard_pile) == ["green reverse", "green 3", "green 1", "green 2"]
    assert hand(g, 1) == sorted(["blue 1", "blue 2", "blue 3", "blue draw two"])
    assert pending(g)[:2] == (0, "turn")  # Decision: that was Player 2's first turn


def test_duo_03_first_reverse_declined_player_2_takes_a_normal_turn() -> None:
    g = drafted(P1, P2, "green reverse")
    answer(g, "no")
    assert hand(g, 1) == sorted(P2)
    assert pending(g)[:2] == (1, "turn")


def test_duo_03_first_reverse_dump_ending_in_skip_player_2_plays_again() -> None:
    p2 = ["blue 1", "blue 2", "blue 3", "blue skip", "green 1", "green skip", "red 3"]
    g = drafted(P1, p2, "green reverse")
    answer(g, "yes", "green 1")  # then the green skip, last (DUO-6 applies)
    assert labels(g.discard_pile)[-1] == "green skip"
    assert pending(g)[:2] == (1, "turn")


def test_duo_03_first_reverse_dump_ending_in_draw_two_starts_a_volley() -> None:
    p1 = ["red 8", "red 1", "red 2", "red 3", "red 4", "green 6", "yellow draw two"]
    p2 = ["blue 1", "blue 2", "blue 3", "blue 4", "green 1", "green draw two", "red 3"]
    g = drafted(p1, p2, "green reverse")
    answer(g, "yes", "green 1")
    assert g.penalty == 2
    assert pending(g)[:2] == (0, "turn")
    assert options(g) == {"play yellow draw two", "draw"}


ALL_GREEN = ["green 1", "green 2", "green 3", "green 4", "green 5", "green 8", "green 9"]


def test_duo_03_first_reverse_dump_ends_round() -> None:
    """DUO-3 / DUO-7: Player 2 plays out the whole hand on the first Reverse: the
    round ends there, before Player 1 has a turn; Player 2 wins, Player 1 scores
    their own hand (DUO-11)."""
    g = drafted(P1, ALL_GREEN, "green reverse")
    answer(g, "yes", "green 9", "green 8", "green 5", "green 4", "green 3", "green 2")
    assert pending(g) == (1, "ask", "call_uno")  # one card left (COM-2)
    answer(g, "yes")  # green 1, the last one, goes down without asking
    assert g.hands[1] == []
    assert events(g, "round_end") == [{"player": 1, "points": [8 + 1 + 2 + 3 + 4 + 6 + 7, 0], "team": 1}]
    assert g.scores == [31, 0]
    assert not any(d["player"] == 0 and d["kind"] == "turn" for d in events(g, "choice"))
    assert g.round == 2 and pending(g)[1:] == ("ask", "keep")  # the next round's draft


def test_duo_03_first_reverse_dump_ending_in_draw_two_ends_round_after_its_draw() -> None:
    """DUO-3 / DUO-7: a last Draw Two still acts (Player 1 draws 2, as DUO-5's
    decision for a final Draw Two), then the round ends and those cards count."""
    p2 = [*ALL_GREEN[:6], "green draw two"]
    g = drafted(P1, p2, "green reverse", draw=["blue 8", "blue 9"])
    answer(g, "yes", "green 8", "green 5", "green 4", "green 3", "green 2", "green 1")
    answer(g, "no")  # no UNO call; the draw two goes down last, without asking
    assert events(g, "card_played")[-1]["card"].label == "green draw two"
    assert [(d["player"], d["card"].label) for d in events(g, "card_drawn")] == [(0, "blue 8"), (0, "blue 9")]
    assert events(g, "round_end") == [{"player": 1, "points": [31 + 8 + 9, 0], "team": 1}]
    assert g.scores == [48, 0]
    assert g.round == 2 and pending(g)[1:] == ("ask", "keep")


# -- DUO-4 -------------------------------------------------------------------------
def test_duo_04_play_a_match_or_any_wild_or_draw_even_when_able() -> None:
    g = game("duo")
    g.arrange({0: ["red 7", "blue 3", "green 3", "wild", "wild draw four", "yellow 9"],
               1: ["blue 1", "blue 2", "blue 4"]}, discard=["red 3"])
    assert options(g) == {"play red 7", "play blue 3", "play green 3", "play wild",
                          "play wild draw four", "draw"}


def test_duo_04_drawn_playable_card_may_be_played() -> None:
    g = game("duo")
    g.arrange({0: ["blue 1", "blue 3", "green 5"], 1: ["yellow 1", "yellow 2", "red 2"]},
              discard=["red 3"], draw=["red 8"])
    answer(g, "draw")  # although blue 3 could be played
    assert pending(g)[1] == "drawn"
    answer(g, "play red 8")
    assert labels(g.discard_pile) == ["red 3", "red 8"]
    assert hand(g, 0) == ["blue 1", "blue 3", "green 5"]
    assert pending(g)[:2] == (1, "turn")


def test_duo_04_drawn_playable_card_may_be_kept_ending_the_turn() -> None:
    g = game("duo")
    g.arrange({0: ["blue 1", "blue 3", "green 5"], 1: ["yellow 1", "yellow 2", "red 2"]},
              discard=["red 3"], draw=["red 8"])
    answer(g, "draw", "keep")
    assert hand(g, 0) == ["blue 1", "blue 3", "green 5", "red 8"]
    assert labels(g.discard_pile) == ["red 3"]
    assert pending(g)[:2] == (1, "turn")


def test_duo_04_unplayable_drawn_card_is_kept_ending_the_turn() -> None:
    g = game("duo")
    g.arrange({0: ["blue 1", "blue 2", "green 5"], 1: ["yellow 1", "yellow 2", "red 2"]},
              discard=["red 3"], draw=["green 8"])
    # Nothing playable: drawing is the only option and is taken at once.
    assert hand(g, 0) == ["blue 1", "blue 2", "green 5", "green 8"]
    assert pending(g)[:2] == (1, "turn")


# -- DUO-5 -------------------------------------------------------------------------
def test_duo_05_draw_two_volley_loser_draws_the_whole_total() -> None:
    g = game("duo")
    g.arrange({0: ["red draw two", "green draw two", "red 1", "green 7"],
               1: ["blue draw two", "blue 1", "blue 2", "yellow 5"]},
              discard=["red 9"], draw=[f"green {r}" for r in range(1, 7)])
    answer(g, "play red draw two")
    assert pending(g)[:2] == (1, "turn")
    assert options(g) == {"play blue draw two", "draw"}  # only a Draw Two answers it
    answer(g, "play blue draw two")
    assert g.penalty == 4
    assert options(g) == {"play green draw two", "draw"}
    answer(g, "play green draw two")
    # Player 1 holds no Draw Two: drawing the 6 is the only option, taken at once.
    assert hand(g, 1) == sorted(["blue 1", "blue 2", "yellow 5"] + [f"green {r}" for r in range(1, 7)])
    assert events(g, "penalty_taken") == [{"player": 1, "count": 6}]
    assert g.penalty == 0
    assert pending(g)[:2] == (0, "turn")  # drawing ended player 1's turn


def test_duo_05_player_may_decline_to_volley_and_draw() -> None:
    g = game("duo")
    g.arrange({0: ["red draw two", "red 1", "red 2"], 1: ["blue draw two", "blue 1", "blue 2"]},
              discard=["red 9"], draw=["green 1", "green 2"])
    answer(g, "play red draw two", "draw")
    assert hand(g, 1) == ["blue 1", "blue 2", "blue draw two", "green 1", "green 2"]
    assert labels(g.discard_pile)[-1] == "red draw two"
    assert pending(g)[:2] == (0, "turn")


def test_duo_05_going_out_on_a_volley_makes_the_opponent_draw_the_total() -> None:
    # Decision: the round ends, so the opponent cannot answer; they draw the total.
    g = game("duo")
    g.arrange({0: ["red draw two", "red 5", "green 4"], 1: ["blue draw two"]},
              discard=["red 9"], draw=["green 1", "green 2", "green 3", "yellow 1"])
    answer(g, "play red draw two", "play blue draw two")
    assert [e["card"].label for e in events(g, "card_drawn")] == ["green 1", "green 2", "green 3", "yellow 1"]
    assert events(g, "round_end")[0] == {"player": 1, "points": [5 + 4 + 1 + 2 + 3 + 1, 0], "team": 1}


# -- DUO-6 -------------------------------------------------------------------------
def test_duo_06_skip_its_player_plays_again() -> None:
    g = game("duo")
    g.arrange({0: ["red skip", "red 1", "blue 4", "green 5"], 1: ["red 2", "red 3", "blue 1"]},
              discard=["red 9"])
    answer(g, "play red skip")
    assert pending(g)[:2] == (0, "turn")
    answer(g, "play red 1")
    assert pending(g)[:2] == (1, "turn")
    assert hand(g, 1) == ["blue 1", "red 2", "red 3"]


# -- DUO-7 -------------------------------------------------------------------------
DUMPER = ["red reverse", "red 3", "red skip", "red draw two", "blue 4", "blue 5", "blue skip"]
OPPONENT = ["green 1", "green 2", "red 1"]


def test_duo_07_reverse_plays_all_of_its_colour_in_chosen_order_last_action_applies() -> None:
    g = game("duo")
    g.arrange({0: DUMPER, 1: ["blue draw two", "green 1", "green 2"]}, discard=["red 9"])
    answer(g, "play red reverse")
    assert pending(g) == (0, "ask", "play_all_of_color")
    answer(g, "yes")
    assert pending(g) == (0, "card", "pick a card")
    assert g.decision is not None
    assert sorted(c.label for c in g.decision.options) == ["red 3", "red draw two", "red skip"]
    answer(g, "red skip", "red 3")
    assert labels(g.discard_pile) == ["red 9", "red reverse", "red skip", "red 3", "red draw two"]
    assert hand(g, 0) == ["blue 4", "blue 5", "blue skip"]
    assert not events(g, "skipped") and g.again is False  # the Skip's action did not apply
    # The last card, a Draw Two, applies to the opponent: a volley starts.
    assert g.penalty == 2
    assert pending(g)[:2] == (1, "turn")
    assert options(g) == {"play blue draw two", "draw"}


def test_duo_07_last_card_a_skip_its_player_plays_again() -> None:
    g = game("duo")
    g.arrange({0: DUMPER, 1: OPPONENT}, discard=["red 9"])
    answer(g, "play red reverse", "yes", "red draw two", "red 3")
    assert labels(g.discard_pile)[-1] == "red skip"
    assert g.penalty == 0  # the Draw Two played in the middle did nothing
    assert hand(g, 1) == sorted(OPPONENT)
    assert pending(g)[:2] == (0, "turn")


def test_duo_07_last_card_a_number_turn_passes() -> None:
    g = game("duo")
    g.arrange({0: DUMPER, 1: OPPONENT}, discard=["red 9"])
    answer(g, "play red reverse", "yes", "red draw two", "red skip")
    assert labels(g.discard_pile)[-1] == "red 3"
    assert pending(g)[:2] == (1, "turn")
    assert hand(g, 1) == sorted(OPPONENT)


def test_duo_07_none_of_them_keeps_the_colour() -> None:
    g = game("duo")
    g.arrange({0: DUMPER, 1: OPPONENT}, discard=["red 9"])
    answer(g, "play red reverse", "no")
    assert hand(g, 0) == sorted(DUMPER[1:])
    assert labels(g.discard_pile) == ["red 9", "red reverse"]
    assert pending(g)[:2] == (1, "turn")


def test_duo_07_never_only_some_an_other_colour_is_refused() -> None:
    g = game("duo")
    g.arrange({0: DUMPER, 1: OPPONENT}, discard=["red 9"])
    answer(g, "play red reverse", "yes", "red 3")
    blue = next(c for c in g.hands[0] if c.label == "blue 4")
    before = (hand(g, 0), labels(g.discard_pile))
    for bad in (blue, DRAW, Play(blue), False):
        with pytest.raises(IllegalAction):
            g.apply(bad)
    assert (hand(g, 0), labels(g.discard_pile)) == before
    assert pending(g) == (0, "card", "pick a card")  # still two red cards to play


def test_duo_07_no_question_without_cards_of_the_colour() -> None:
    g = game("duo")
    g.arrange({0: ["red reverse", "blue 1", "blue 2", "green 3"], 1: OPPONENT},
              discard=["red 9"])
    answer(g, "play red reverse")
    assert pending(g)[:2] == (1, "turn")
    assert g.direction == 1


def test_duo_07_colour_is_the_reverses_not_the_covered_cards() -> None:
    g = game("duo")
    g.arrange({0: ["blue reverse", "blue 2", "red 1", "red 2"], 1: OPPONENT},
              discard=["red reverse"])
    answer(g, "play blue reverse", "yes")  # one blue card left: played without asking
    assert labels(g.discard_pile) == ["red reverse", "blue reverse", "blue 2"]
    assert hand(g, 0) == ["red 1", "red 2"]
    assert pending(g)[:2] == (1, "turn")


# -- DUO-8 -------------------------------------------------------------------------
def test_duo_08_wild_names_the_colour_the_opponent_must_play() -> None:
    g = game("duo")
    g.arrange({0: ["wild", "red 1", "red 2"], 1: ["blue 2", "green 3", "green 4"]}, discard=["yellow 9"])
    answer(g, "play wild")
    assert pending(g) == (0, "color", "name a colour")
    answer(g, "green")
    assert g.current_color == "green"
    assert pending(g)[:2] == (1, "turn")
    assert options(g) == {"play green 3", "play green 4", "draw"}


# -- DUO-9 -------------------------------------------------------------------------
def test_duo_09_wild_draw_four_opponent_draws_four_player_names_colour_and_plays_again() -> None:
    g = game("duo")
    g.arrange({0: ["wild draw four", "yellow 1", "blue 1", "red 2"], 1: ["blue 2", "green 3", "green 4"]},
              discard=["yellow 9"], draw=["green 1", "green 2", "green 5", "green 6"])
    # Playable any time, even while holding a yellow card.
    assert "play wild draw four" in options(g)
    answer(g, "play wild draw four", "blue")
    assert pending(g) == (1, "ask", "challenge")
    answer(g, "no")
    assert hand(g, 1) == ["blue 2", "green 1", "green 2", "green 3", "green 4", "green 5", "green 6"]
    assert g.current_color == "blue"
    assert pending(g)[:2] == (0, "turn")
    assert options(g) == {"play blue 1", "draw"}


# -- DUO-10 ------------------------------------------------------------------------
def test_duo_10_challenge_guilty_player_draws_the_four_instead() -> None:
    g = game("duo")
    g.arrange({0: ["wild draw four", "yellow 1", "red 2"], 1: ["blue 2", "green 3", "green 4"]},
              discard=["yellow 9"], draw=["green 1", "green 2", "green 5", "green 6"])
    answer(g, "play wild draw four", "blue", "yes")
    assert hand(g, 0) == ["green 1", "green 2", "green 5", "green 6", "red 2", "yellow 1"]
    assert hand(g, 1) == ["blue 2", "green 3", "green 4"]
    assert g.current_color == "blue"
    assert pending(g)[:2] == (1, "turn")  # the challenger plays as usual
    assert options(g) == {"play blue 2", "draw"}


def test_duo_10_challenge_innocent_challenger_draws_six() -> None:
    g = game("duo")
    g.arrange({0: ["wild draw four", "red 2", "blue 1"], 1: ["blue 2", "green 3", "green 4"]},
              discard=["yellow 9"], draw=["green 1", "green 2", "green 5", "green 6", "green 7", "green 8"])
    answer(g, "play wild draw four", "blue", "yes")
    assert hand(g, 0) == ["blue 1", "red 2"]
    assert len(g.hands[1]) == 9
    assert pending(g)[:2] == (0, "turn")  # the Wild Draw Four's player still plays again


def test_duo_10_guilty_of_a_number_match() -> None:
    g = game("duo")
    g.arrange({0: ["wild draw four", "red 9", "blue 1"], 1: ["blue 2", "green 3", "green 4"]},
              discard=["yellow 9"], draw=["green 1", "green 2", "green 5", "green 6"])
    answer(g, "play wild draw four", "blue", "yes")
    assert len(g.hands[0]) == 6 and len(g.hands[1]) == 3


def test_duo_10_guilty_of_holding_a_plain_wild() -> None:
    # Decision: a plain Wild could have been played instead.
    g = game("duo")
    g.arrange({0: ["wild draw four", "wild", "blue 1"], 1: ["blue 2", "green 3", "green 4"]},
              discard=["yellow 9"], draw=["green 1", "green 2", "green 5", "green 6"])
    answer(g, "play wild draw four", "blue", "yes")
    assert len(g.hands[0]) == 6 and len(g.hands[1]) == 3


def test_duo_10_a_second_wild_draw_four_is_not_guilt() -> None:
    # Decision: playing one Wild Draw Four instead of another is no alternative play.
    g = game("duo")
    g.arrange({0: ["wild draw four", "wild draw four", "blue 1"], 1: ["blue 2", "green 3", "green 4"]},
              discard=["yellow 9"], color="red", draw=[f"green {r}" for r in range(1, 7)])
    answer(g, "play wild draw four", "blue", "yes")
    assert len(g.hands[0]) == 2 and len(g.hands[1]) == 9


def test_duo_10_guilt_is_judged_on_the_colour_named_before() -> None:
    # The current colour was named on a Wild (red): a red card makes the play guilty.
    g = game("duo")
    g.arrange({0: ["wild draw four", "red 5", "blue 1"], 1: ["blue 2", "green 3", "green 4"]},
              discard=["wild"], color="red", draw=["green 1", "green 2", "green 5", "green 6"])
    answer(g, "play wild draw four", "blue", "yes")
    assert len(g.hands[0]) == 6 and len(g.hands[1]) == 3


# -- DUO-11 ------------------------------------------------------------------------
def test_duo_11_loser_scores_own_hand_winner_scores_zero() -> None:
    g = game("duo")
    g.arrange({0: ["red 1"], 1: ["blue 7", "yellow skip", "green reverse", "red draw two", "wild",
                                 "wild draw four"]}, discard=["red 9"])
    answer(g, "play red 1")
    assert events(g, "round_end")[0] == {"player": 0, "points": [0, 7 + 10 + 10 + 10 + 15 + 20], "team": 0}
    assert g.scores == [0, 72]
    assert not g.over
    assert g.round == 2 and pending(g)[1:] == ("ask", "keep")  # the next round's draft


# -- DUO-12 ------------------------------------------------------------------------
def test_duo_12_game_ends_at_200_and_the_lower_total_wins() -> None:
    g = game("duo")
    g.scores[:] = [150, 190]
    g.arrange({0: ["red 1"], 1: ["blue 7", "blue 3"]}, discard=["red 9"])
    answer(g, "play red 1")
    assert g.scores == [150, 200]
    assert g.over and g.winner == 0
    assert events(g, "game_end") == [{"player": 0, "winners": [0], "scores": [150, 200], "team": 0}]
    assert g.decision is None


def test_duo_12_the_player_who_reaches_200_loses() -> None:
    g = game("duo")
    g.scores[:] = [195, 120]
    g.arrange({0: ["blue 7", "blue 3", "green 1"], 1: ["red 1"]}, discard=["red 9"], current=1)
    answer(g, "play red 1")
    assert g.scores == [206, 120]
    assert g.over and g.winner == 1


def test_duo_12_game_goes_on_below_200() -> None:
    g = game("duo")
    g.scores[:] = [150, 180]
    g.arrange({0: ["red 1"], 1: ["blue 7", "blue 3", "blue 8"]}, discard=["red 9"])
    answer(g, "play red 1")
    assert g.scores == [150, 198]
    assert not g.over and g.round == 2


# -- COM-2, COM-3 in Duo -----------------------------------------------------------------
def test_duo_com_02_missed_uno_caught_draws_two() -> None:
    g = game("duo")
    g.arrange({0: ["red 1", "red 2"], 1: ["blue 2", "red 5", "green 3"]},
              discard=["red 9"], draw=["yellow 1", "yellow 2"])
    answer(g, "play red 1")
    assert pending(g) == (0, "ask", "call_uno")
    answer(g, "no")
    assert pending(g) == (1, "ask", "catch_uno")
    answer(g, "yes")
    assert hand(g, 0) == ["red 2", "yellow 1", "yellow 2"]
    assert pending(g)[:2] == (1, "turn")


@pytest.mark.parametrize("seed", range(20))
def test_duo_com_03_cards_are_conserved_in_whole_games(seed: int) -> None:
    g = played_out("duo", 2, seed, ["random", "greedy"] if seed % 2 else ["greedy", "random"])
    assert len(g.cards) == 112
    assert g.over
    assert max(g.scores) >= 200
    assert g.scores[g.winner] == min(g.scores)
