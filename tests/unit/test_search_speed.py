"""The search's fast paths give what the plain ones gave: the inlined shuffle draws
the same permutation, a Redeal reused for many deals gives the same games as
resample, the expert bot picks what the straightforward version of its rules picks,
and a clone stopped at its round's end gives the search the same statistics."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from unodsl import Game, load_variant
from unodsl.engine.actions import DRAW, KEEP, PLAY_KINDS, Decision, Lay, Play
from unodsl.engine.cards import Card
from unodsl.engine.information import Redeal, shuffle
from unodsl.engine.view import outward
from unodsl.players import ismcts
from unodsl.players.bots import ExpertAgent, GreedyAgent, make_agents
from unodsl.players.ismcts import ISMCTSAgent


# -- the shuffle ------------------------------------------------------------------------
@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 64, 108, 1023, 1024, 1025, 2000])
def test_shuffle_is_randoms_shuffle_draw_for_draw(size: int) -> None:
    for seed in range(4):
        mine, theirs = list(range(size)), list(range(size))
        a, b = random.Random(seed), random.Random(seed)
        shuffle(mine, a)
        b.shuffle(theirs)
        assert mine == theirs
        assert a.getstate() == b.getstate()  # the same draws, no more, no fewer


def test_shuffle_leaves_another_generator_its_own_shuffle() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: Any) -> None:  # type: ignore[override]
            x.reverse()

    items = [1, 2, 3]
    shuffle(items, Reversing(0))
    assert items == [3, 2, 1]


# -- resampling -------------------------------------------------------------------------
def positions(variant: str, players: int, seed: int, every: int = 7) -> list[Game]:
    """Clones of a game every `every` decisions, played by random agents."""
    g = Game(load_variant(variant), players, seed)
    agents = make_agents(["random"], players, seed)
    found = []
    k = 0
    while g.decision is not None and k < 200:
        if k % every == 0:
            found.append(g.clone())
        g.apply(agents[g.decision.player].choose(g, g.decision))
        k += 1
    return found


def dealt(g: Game) -> tuple[Any, ...]:
    return ([[c.id for c in h] for h in g.hands], [c.id for c in g.draw_pile], repr(g.decision),
            g._rng.getstate())


@pytest.mark.parametrize("variant", ["classic", "flip", "no_mercy"])
def test_one_redeal_deals_as_resample_does(variant: str) -> None:
    for g in positions(variant, 3, 5):
        for p in range(g.n):
            deal = Redeal(g, p)
            a, b = random.Random(p), random.Random(p)
            for _ in range(3):
                assert dealt(deal(a)) == dealt(g.resample(p, b))


@pytest.mark.parametrize("variant", ["classic", "flip"])
def test_a_deal_keeps_what_the_player_sees(variant: str) -> None:
    for g in positions(variant, 4, 2, every=11):
        pinned = {o.card.id for o in (g.decision.options if g.decision else ()) if type(o) is Play}
        for p in range(g.n):
            deal = Redeal(g, p)
            rng = random.Random(9)
            for _ in range(3):
                r = deal(rng)
                view, seen = r.view(p), g.view(p)
                assert view.hand == seen.hand and view.discard_pile == seen.discard_pile
                assert view.opponents == seen.opponents and view.draw_pile_back == seen.draw_pile_back
                assert [c.id for c in r.hands[p]] == [c.id for c in g.hands[p]]
                hidden = [c.id for q in range(g.n) if q != p for c in g.hands[q]] + [c.id for c in g.draw_pile]
                again = [c.id for q in range(g.n) if q != p for c in r.hands[q]] + [c.id for c in r.draw_pile]
                assert Counter(hidden) == Counter(again)  # the same cards, only moved
                for q in range(g.n):  # the cards a pending decision offers stay put
                    assert {c.id for c in g.hands[q]} & pinned == {c.id for c in r.hands[q]} & pinned
                assert [outward(c) for c in r.hands[(p + 1) % g.n]] == [outward(c) for c in g.hands[(p + 1) % g.n]]


def test_a_deal_moves_the_hidden_cards_and_leaves_the_game_alone() -> None:
    g = positions("classic", 3, 1)[2]
    before = dealt(g)
    deal = Redeal(g, 0)
    rng = random.Random(3)
    hands = {tuple(c.id for c in deal(rng).hands[1]) for _ in range(5)}
    assert len(hands) > 1
    assert dealt(g) == before


# -- the expert bot -----------------------------------------------------------------------
def reference_expert(agent: ExpertAgent, game: Game, decision: Decision) -> Any:
    """The expert's rules written plainly (as before its fast version): the oracle."""
    options, kind = decision.options, decision.kind
    if kind in PLAY_KINDS:
        plays = [o for o in options if type(o) is Play]
        lays = [o for o in options if type(o) is Lay]
        if not plays and not lays:
            return DRAW if DRAW in options else options[0] if KEEP not in options else KEEP
        hand = game.hands[decision.player]
        fewest = min((len(h) for q, h in enumerate(game.hands) if q != decision.player), default=99)
        counts = Counter(c.color for c in hand if not c.wild)

        def cards(o: Play | Lay) -> tuple[Card, ...]:
            return o.cards if isinstance(o, Lay) else (o.card,)

        if fewest <= agent.urgent or len(hand) <= agent.own_urgent:
            return max([*plays, *lays], key=lambda o: (len(cards(o)), sum(c.points for c in cards(o)),
                                                       [-c.id for c in cards(o)]))
        if lays:  # each card's merit as below, the best of a play's cards, plus extra_card per card after one
            plain_any = any(not c.wild for o in [*plays, *lays] for c in cards(o))

            def card_merit(card: Card) -> float:
                if card.wild:
                    return -100.0 if plain_any else card.points / 10
                score = card.points * agent.by_points
                if card.rank is None and (counts[card.color] > 1 or len(plays) + len(lays) > 1):
                    score += agent.action
                return score

            return max([*plays, *lays], key=lambda o: (max(card_merit(c) for c in cards(o))
                                                       + agent.extra_card * (len(cards(o)) - 1),
                                                       [-c.id for c in cards(o)]))
        plain = any(not o.card.wild for o in plays)

        def merit(o: Play) -> tuple[float, int]:
            card = o.card
            if card.wild:
                return (-100.0 if plain else card.points / 10, -card.id)
            score = card.points * agent.by_points
            if card.rank is None and (counts[card.color] > 1 or len(plays) > 1):
                score += agent.action
            return (score, -card.id)

        best = max(plays, key=merit)
        if kind == "drawn" and agent.keep_drawn_wild and best.card.wild and KEEP in options and len(hand) > 3:
            return KEEP
        return best
    if kind == "color":
        hand = game.hands[decision.player]
        counts2 = Counter(c.color for c in hand if c.color in options and not c.wild)
        points: Counter[str | None] = Counter()
        for c in hand:
            if c.color in options and not c.wild:
                points[c.color] += c.points
        return max(options, key=lambda col: (counts2[col], points[col], -options.index(col)))
    return agent.choose(game, decision)  # (seats, cards, questions: unchanged)


class Urgent(ExpertAgent):
    urgent = 3
    own_urgent = 4


@pytest.mark.parametrize("variant", ["classic", "flip", "no_mercy", "attack", "crazy_eights", "house/doubles"])
@pytest.mark.parametrize("players", [2, 4])
def test_expert_picks_what_its_plain_rules_pick(variant: str, players: int) -> None:
    agents: list[ExpertAgent] = [ExpertAgent(), Urgent()]
    asked = 0
    for seed in range(3):
        g = Game(load_variant(variant), players, seed)
        table = make_agents(["random"], players, seed)
        k = 0
        while g.decision is not None and k < 300:
            d = g.decision
            for agent in agents:
                assert agent.choose(g, d) == reference_expert(agent, g, d), (seed, k, d)
                asked += 1
            g.apply(table[d.player].choose(g, d))
            k += 1
    assert asked > 100


def test_greedy_plays_its_heaviest_card_lowest_id_first() -> None:
    g = Game(load_variant("classic"), 2, 4)
    d = g.decision
    assert d is not None
    plays = [o for o in d.options if type(o) is Play]
    assert plays
    assert GreedyAgent().choose(g, d) == max(plays, key=lambda o: (o.card.points, -o.card.id))


# -- a search stopped at its round's end ------------------------------------------------------
def test_a_listeners_exception_leaves_apply_and_autoplay_as_itself() -> None:
    class Stop(Exception):
        pass

    def stop(game: Game, name: str, data: dict[str, Any]) -> None:
        if name == "round_end":  # (a listener may also see the events rules subscribe to)
            raise Stop

    g = Game(load_variant("classic"), 2, 1)
    g.watch(stop, ("round_end",))
    with pytest.raises(Stop):
        g.autoplay(make_agents(["greedy"], 2, 1))
    assert g.round_turns  # it was the round's end that stopped it


def test_stopping_at_the_round_end_changes_no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    def roots(variant: str) -> list[Any]:
        found = []
        for g in positions(variant, 3, 8, every=9)[:6]:
            d = g.decision
            if d is None or len(d.options) < 2:
                continue
            agent = ISMCTSAgent(3, rollout=ExpertAgent, iterations=40)
            found.append((repr(agent.choose(g, d)), sorted(agent.last_root.items(), key=repr)))
        return found

    stopped = roots("classic") + roots("flip")

    def noting(self: list[int], game: Game, name: str, data: dict[str, Any]) -> None:
        if name == "round_end":
            self.append(data["player"])  # the round goes on to the next deal, as before

    monkeypatch.setattr(ismcts._RoundEnd, "__call__", noting)
    assert roots("classic") + roots("flip") == stopped
    assert stopped
