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
from .actions import Decision
from .cards import Card
from .events import EVENTS, visible_to
from .flow import turn_options
from .frames import FRAMES, held
from .view import PlayerView, outward


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
            view.scores, view.aside, tuple(sorted(view.flags)))


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
    pile) are dealt again at random among those places, keeping every size and every
    outward face they can see (the backs of two-sided cards in hands, and of the draw
    pile's top card). Cards shown to everyone, and cards the game is in the middle of
    using (those a pending decision or a running effect holds), stay where they are."""
    g = game.clone()
    g.replayable = False
    queued = [env for _, env in g._queue]  # (a queued rule: its program, the variant's, and its variables)
    pinned = {c.id for c in _cards_in([g._stack, queued, g.decision, g.penalty_answer])}
    pinned |= {c.id for q in range(g.n) for c in g.shown(q)}  # cards shown to everyone stay where they are
    places: list[tuple[list[Card], int, str | None]] = []  # zone, index, the face it must show outward
    for q, hand in enumerate(g.hands):
        if q != player:
            places += [(hand, i, outward(c)) for i, c in enumerate(hand) if c.id not in pinned]
    pile = g.draw_pile
    places += [(pile, i, outward(c) if i == len(pile) - 1 else None)
               for i, c in enumerate(pile) if c.id not in pinned]
    cards = [zone[i] for zone, i, _ in places]
    rng.shuffle(cards)
    # A place that shows a face outward takes a card that shows it; any card fits the others.
    need = Counter(back for _, _, back in places if back is not None)
    showing: dict[str, list[Card]] = {}
    free: list[Card] = []
    for c in cards:  # in random order: each group gets a random subset, the rest a random order
        back = outward(c)
        if back is not None and len(showing.setdefault(back, [])) < need[back]:
            showing[back].append(c)
        else:
            free.append(c)
    for zone, i, back in places:
        zone[i] = free.pop() if back is None else showing[back].pop()
    g._rng = random.Random(rng.getrandbits(64))
    g._rng_shared = False
    _refresh_turn(g, player)
    return g


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
    while todo:
        x = todo.pop()
        if isinstance(x, Card):
            yield x
        elif type(x) in FRAMES:  # (its variables, not the variant's program it names)
            todo.extend(held(x))
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
        elif isinstance(x, dict):
            todo.extend(x.values())
