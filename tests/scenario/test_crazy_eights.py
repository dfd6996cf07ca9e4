"""Scenario tests for Crazy Eights: one or more per rule (CE-1 … CE-10, listed at
the top of variants/crazy_eights.yaml)."""

from __future__ import annotations

from collections import Counter

from tests.helpers import answer, assert_conserved, deal_order, events, game, hand, pending, variant
from unodsl import Game
from unodsl.engine.actions import DRAW, Play

SUITS = ("clubs", "diamonds", "hearts", "spades")
NAMED = ("ace", "two", "eight", "jack", "queen", "king")


def _plays(g: Game) -> set[str]:
    d = g.decision
    assert d is not None and d.kind == "turn"
    return {o.card.label for o in d.options if isinstance(o, Play)}


def test_ce_01_deck_is_52_french_cards_for_2_to_7_players() -> None:
    v = variant("crazy_eights")
    assert (v.min_players, v.max_players) == (2, 7)
    per = Counter(f.label for f in v.sides[0].faces)
    assert sum(per.values()) == 52
    ranks = [*NAMED, *(str(r) for r in (3, 4, 5, 6, 7, 9, 10))]
    assert per == Counter(f"{s} {r}" for s in SUITS for r in ranks)


def test_ce_02_seven_cards_each_with_two_players_five_with_more() -> None:
    for players, size in ((2, 7), (3, 5), (7, 5)):
        g = game("crazy_eights", players, seed=4)
        assert [len(h) for h in g.hands] == [size] * players or g.turns > 0
        assert len(g.discard_pile) >= 1 and not g.discard_pile[0].wild
        assert_conserved(g)


def test_ce_02_first_dealer_is_drawn_at_random_from_the_seed() -> None:
    dealers = Counter(game("crazy_eights", 4, seed=s).dealer for s in range(60))
    assert set(dealers) == {0, 1, 2, 3}
    assert game("crazy_eights", 4, seed=9).dealer == game("crazy_eights", 4, seed=9).dealer


def test_ce_02_starter_eight_goes_under_the_stock_and_another_is_turned() -> None:
    dealer = game("crazy_eights", 2, seed=0).dealer  # the stacked game draws the same dealer
    hands = [[f"clubs {r}" for r in (3, 4, 5, 6, 7, 9)] + ["spades 3"],
             [f"diamonds {r}" for r in (3, 4, 5, 6, 7, 9)] + ["spades 4"]]
    g = game("crazy_eights", 2, seed=0, stacked=[*deal_order(hands, dealer), "hearts eight", "spades queen"])
    assert [c.label for c in g.discard_pile] == ["spades queen"]
    assert g.draw_pile[0].label == "hearts eight"
    assert events(g, "skipped") == []  # CE-2: the starter queen skips no one
    assert pending(g)[0] == (dealer + 1) % 2  # CE-3


def test_ce_03_player_left_of_dealer_plays_first_then_clockwise() -> None:
    g = game("crazy_eights", 3, seed=2)
    assert pending(g)[0] == (g.dealer + 1) % 3
    g.arrange({0: ["hearts 3", "clubs 9"], 1: ["hearts 4", "clubs 10"], 2: ["hearts 5", "clubs 3"]},
              discard=["hearts 9"])
    answer(g, "play hearts 3")
    assert pending(g)[0] == 1


def test_ce_04_a_card_matches_by_suit_or_by_rank() -> None:
    g = game("crazy_eights", 2)
    g.arrange({0: ["hearts 3", "clubs 7", "clubs 9", "spades queen", "diamonds eight"], 1: ["clubs 3"]},
              discard=["hearts 7"])
    assert _plays(g) == {"hearts 3", "clubs 7", "diamonds eight"}
    g.arrange({0: ["hearts 3", "spades queen", "clubs ace"], 1: ["clubs 3"]}, discard=["diamonds queen"])
    assert _plays(g) == {"spades queen"}


def test_ce_05_an_eight_is_wild_and_names_the_suit_to_follow() -> None:
    g = game("crazy_eights", 2)
    g.arrange({0: ["hearts eight", "hearts 3"], 1: ["spades 4", "hearts 4", "clubs eight", "diamonds 9"]},
              discard=["clubs king"])
    assert "hearts eight" in _plays(g)
    answer(g, "play hearts eight", "spades")
    assert g.current_color == "spades" and pending(g)[0] == 1
    assert _plays(g) == {"spades 4", "clubs eight"}


def test_ce_06_may_draw_holding_a_playable_card() -> None:
    g = game("crazy_eights", 2)
    g.arrange({0: ["hearts 3", "clubs 9"], 1: ["clubs 3"]}, discard=["hearts 9"])
    assert DRAW in g.decision.options  # type: ignore[union-attr]


def test_ce_06_draws_until_a_playable_card_comes_and_must_play_it() -> None:
    g = game("crazy_eights", 2)
    g.arrange({0: ["clubs 3"], 1: ["spades 3", "spades 4"]}, discard=["hearts 9"],
              draw=["clubs 4", "diamonds 5", "hearts 6", "spades 7"])
    answer(g, "draw")
    assert hand(g, 0) == ["clubs 3", "clubs 4", "diamonds 5"]
    # played at once: there is no choice to keep it
    assert next((d["player"], d["card"].label) for d in events(g, "card_played")) == (0, "hearts 6")
    assert not any(d["kind"] == "drawn" for d in events(g, "choice"))


def test_ce_07_a_two_makes_the_next_player_draw_two_and_lose_the_turn() -> None:
    g = game("crazy_eights", 3)
    g.arrange({0: ["hearts two", "clubs 3"], 1: ["spades 3"], 2: ["hearts 5", "clubs 5"]},
              discard=["hearts 9"], draw=["diamonds 3", "diamonds 4"])
    answer(g, "play hearts two")
    assert hand(g, 1) == ["diamonds 3", "diamonds 4", "spades 3"]
    assert events(g, "skipped") == [{"player": 1}] and pending(g)[0] == 2


def test_ce_08_a_queen_skips_the_next_player() -> None:
    g = game("crazy_eights", 3)
    g.arrange({0: ["hearts queen", "clubs 3"], 1: ["hearts 3"], 2: ["hearts 5", "clubs 5"]}, discard=["hearts 9"])
    answer(g, "play hearts queen")
    assert events(g, "skipped") == [{"player": 1}] and pending(g)[0] == 2
    assert hand(g, 1) == ["hearts 3"]


def _go_out(others: dict[int, list[str]], target: int | None = None) -> Game:
    g = game("crazy_eights", 3, options={"target": target} if target else None)
    g.arrange({0: ["hearts 3"], **others}, discard=["hearts 9"])
    answer(g, "play hearts 3")
    return g


def test_ce_09_first_out_scores_50_an_eight_10_a_court_card_face_value_ace_1() -> None:
    g = _go_out({1: ["clubs eight", "spades king", "diamonds ace"], 2: ["clubs 7", "spades jack", "clubs two"]})
    assert events(g, "round_end")[0]["player"] == 0
    assert g.scores[0] == 50 + 10 + 1 + 7 + 10 + 2
    assert g.scores == [80, 0, 0] and not g.over


def test_ce_10_the_game_ends_when_a_player_reaches_100() -> None:
    g = _go_out({1: ["clubs eight", "spades eight"], 2: ["clubs 7"]})
    assert g.scores[0] == 107 and g.over and g.winner == 0
    g = _go_out({1: ["clubs eight"], 2: ["clubs 7"]}, target=50)
    assert g.over and g.winner == 0
