"""What a player knows: their information state, and games resampled to fit it.

An information state is everything a player has seen, as hashable data: each
event as they saw it (the fields its declaration lets them see, cards by their
faces) and what they see now. Two histories they cannot tell apart give equal
states. `resample` deals the cards they cannot see again at random, keeping
everything they can see: the ground for searching a game of hidden cards
(determinisation, as in information-set Monte Carlo tree search).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..errors import GameError
from .actions import Decision, Play
from .cards import Card
from .events import EVENTS, visible_to
from .flow import turn_options
from .frames import FRAMES, held
from .view import PlayerView, outward
from .zones import hidden


def information_state(game: Any, player: int) -> tuple[Any, ...]:
    """The events `player` has seen, as they saw them, then what they see now."""
    events = game.events if game.events is not None else _replayed_events(game)
    seen = tuple((name, _data(visible_to(name, data, player)))
                 for name, data in events if not EVENTS[name].for_tools)
    return seen, observed(game.view(player))


def observed(view: PlayerView) -> tuple[Any, ...]:
    """A view as hashable data: cards by the faces a person sees, a hand in no order."""
    hand = tuple(sorted((c.label, outward(c) or "") for c in view.hand))
    opponents = tuple((o.seat, o.hand_size, o.backs, o.score, tuple(sorted(o.flags)), o.shown)
                      for o in view.opponents)
    return (view.player, hand, opponents, view.discard_pile, view.draw_pile_size, view.draw_pile_back,
            view.current_color, view.side, view.direction, view.current, view.dealer, view.penalty,
            view.scores, view.aside, tuple(sorted(view.flags)), view.zones)


def _data(fields: dict[str, Any]) -> tuple[Any, ...]:
    return tuple((name, _datum(value)) for name, value in sorted(fields.items()))


def _datum(value: Any) -> Any:
    if isinstance(value, Card):
        return value.label
    if isinstance(value, (list, tuple)):
        return tuple(_datum(v) for v in value)
    if not isinstance(value, (str, int, bool, type(None))):
        return str(value)  # an action word
    return value


def _replayed_events(game: Any) -> list[tuple[str, dict[str, Any]]]:
    """The events of a game that did not record them: played again from its seed and
    answers (possible unless it was arranged or resampled)."""
    if not game.replayable:
        raise GameError("this game was arranged or resampled and did not record its events: "
                        "make it with Game(..., record=True) to ask for information states")
    again = type(game).from_actions(game.variant, game.n, game.seed, game.actions, record=True,
                                    max_turns=game.max_turns, max_rounds=game.max_rounds,
                                    stacked=game._stacked)
    return again.events  # type: ignore[no-any-return]


def resample(game: Any, player: int, rng: random.Random) -> Any:
    """A clone of `game` in which the cards `player` cannot see (other hands, the draw
    pile, the declared zones hidden from them) are dealt again at random among those
    places, keeping every size and every outward face they can see (the backs of
    two-sided cards in hands, and of the draw pile's top card). Cards shown to everyone,
    and cards the game is in the middle of using (those a pending decision or a running
    effect holds), stay where they are."""
    return Redeal(game, player)(rng)


class Redeal:
    """The places of `game` that `player` cannot see, found once: each call is then one
    `resample(game, player, rng)` (the same clone for the same generator state), at
    the cost of a clone, a shuffle and a deal. Valid while `game` does not change (a
    search resamples one position many times)."""

    __slots__ = ("backs", "cards", "game", "need", "places", "player", "runs")

    def __init__(self, game: Any, player: int) -> None:
        self.game, self.player = game, player
        queued = [env for _, env in game._queue]  # (a queued rule: its program, the variant's, and its variables)
        pinned = {c.id for c in _cards_in([game._stack, queued, game.decision, game.penalty_answer])}
        pinned |= {c.id for q in range(game.n) for c in game.shown(q)}  # cards shown to everyone stay where they are
        # zone (a seat, or -1: the draw pile), index, the face it must show outward
        places: list[tuple[int, int, str | None]] = []
        for q, hand in enumerate(game.hands):
            if q != player:
                places += [(q, i, outward(c)) for i, c in enumerate(hand) if c.id not in pinned]
        pile = game.draw_pile
        last = len(pile) - 1
        places += [(-1, i, outward(c) if i == last else None) for i, c in enumerate(pile) if c.id not in pinned]
        for j, zone in enumerate(hidden(game, player)):  # the zones of `zones:` it may not see: n + j
            places += [(game.n + j, i, None) for i, c in enumerate(zone) if c.id not in pinned]
        self.places = places
        zones = _zones(game, player)
        self.cards = [zones[q][i] for q, i, _ in places]
        # A place that shows a face outward takes a card that shows it; any card fits the others.
        self.need = Counter(back for _, _, back in places if back is not None)
        self.backs = [outward(c) for c in self.cards] if self.need else None
        # the places by zone, in order: (seat or -1, its indices or None for all of it, from, to)
        self.runs: list[tuple[int, list[int] | None, int, int]] = []
        k = 0
        for q in [*range(game.n), -1, *range(game.n, len(zones) - 1)]:
            at = [i for z, i, _ in places if z == q]
            if at:
                whole = at == list(range(len(zones[q])))
                self.runs.append((q, None if whole else at, k, k + len(at)))
                k += len(at)

    def __call__(self, rng: random.Random) -> Any:
        g = self.game.clone()
        g.replayable = False
        places = self.places
        zones = _zones(g, self.player)
        if self.backs is None:  # no place shows a face: the shuffled cards, dealt from the end
            cards = self.cards[:]
            shuffle(cards, rng)
            cards.reverse()
            for q, at, start, end in self.runs:
                zone = zones[q]
                if at is None:
                    zone[:] = cards[start:end]  # (in place: variables may hold the zone)
                else:
                    for i, c in zip(at, cards[start:end], strict=True):
                        zone[i] = c
        else:
            order = list(range(len(self.cards)))
            shuffle(order, rng)
            need, backs, cards = self.need, self.backs, self.cards
            showing: dict[str, list[Card]] = {}
            free: list[Card] = []
            for k in order:  # in random order: each group gets a random subset, the rest a random order
                back = backs[k]
                if back is not None and len(showing.setdefault(back, [])) < need[back]:
                    showing[back].append(cards[k])
                else:
                    free.append(cards[k])
            for q, i, back in places:
                zones[q][i] = free.pop() if back is None else showing[back].pop()
        g._rng = random.Random(rng.getrandbits(64))
        g._rng_shared = False
        _refresh_turn(g, self.player)
        return g


def _zones(game: Any, player: int) -> list[list[Card]]:
    """The zones a resample deals into, by their number in a place: each seat's hand,
    the zones of `zones:` hidden from `player` (from n), and the draw pile (-1: last)."""
    return [*game.hands, *hidden(game, player), game.draw_pile]


def shuffle(items: list[Any], rng: random.Random) -> None:
    """`rng.shuffle(items)`, the same permutation from the same draws, without a method
    call per card (the Fisher-Yates of CPython's Random.shuffle, its `_randbelow` inlined)."""
    if type(rng) is not random.Random:
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    bits = _BITS if len(items) < len(_BITS) else [n.bit_length() for n in range(len(items) + 1)]
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = bits[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


_BITS = [n.bit_length() for n in range(1025)]  # (n.bit_length() for the lists a shuffle usually meets)


def _refresh_turn(g: Any, player: int) -> None:
    """Another player's pending turn offers the cards of the hand they hold now."""
    d = g.decision
    if d is None or d.player == player or d.kind != "turn":
        return
    fresh = Decision(d.player, "turn", turn_options(g, d.player))
    g._stack[-1] = g._stack[-1]._replace(decision=fresh)  # the Bind frame that waits for it
    g.decision = fresh


def _cards_in(things: Iterable[Any]) -> Iterable[Card]:
    """Every card inside frames, queued rules, decisions and variables."""
    todo = list(things)
    pop, extend = todo.pop, todo.extend
    while todo:
        x = pop()
        kind = type(x)
        if kind is Card:
            yield x
        elif kind in FRAMES:  # (its variables, not the variant's program it names)
            extend(held(x))
        elif kind is list or kind is tuple or kind is Play:
            extend(x)
        elif kind is dict:
            extend(x.values())
        elif kind in _ATOMS:
            continue
        elif isinstance(x, Card):
            yield x
        elif isinstance(x, (list, tuple)):
            extend(x)
        elif isinstance(x, dict):
            extend(x.values())


_ATOMS = frozenset((str, int, bool, float, type(None)))
