"""The plays a variant declares (`turn: plays:`): which can be made now, and making one.

A play is a set of cards from the hand onto a target: the top of a pile, or any card of
a row. Its legal options are found without trying every subset of the hand:

- cards of one face (and back) are interchangeable: a set is a multiset of faces, made
  with the first cards of each face held;
- with `same:`, only cards that share its value go together (a card for which it is
  none is in no such play);
- a play takes at most 4 cards (the schema's bound).

So for one target the sets tried are at most C(f + k - 1, k) for k up to the play's
`max` and f the faces held (of one `same` group, with `same:`), times the orders of a
set (at most 4! = 24) when the cards go down one by one onto the discard pile; put in
another zone they go together, in the order held. A decision that
would try more than MAX_TRIES sets in all is a runtime error placed at the play: a
variant that needs it should say `same:`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement, permutations
from typing import Any

from ..errors import VariantRuntimeError
from ..lang.program import DO, FOR, Program
from ..model import PlayWay
from .actions import Lay
from .cards import Card
from .machine import PAUSED, emit, fault, perform, replay_of, run
from .state import State
from .table import play, took_from_hand

MAX_TRIES = 20_000  # sets of cards tested for the plays of one decision
HERE = (None, "")


def ways(g: State) -> tuple[PlayWay, ...]:
    return g.variant.turn.plays


def zone(g: State, name: str) -> list[Card]:
    """A zone of the table by name (a play's `onto` or `to`)."""
    if name == "discard_pile":
        return g.discard_pile
    if name == "draw_pile":
        return g.draw_pile
    if name == "aside":
        return g.aside
    return g.places[name]


def lays(g: State, p: int) -> list[Lay]:
    """Every declared play `p` may make now, onto targets not played onto this turn yet;
    the same cards onto the same target once (by the first play declared that allows
    it), so that a play is told by its cards and target (a choice's value)."""
    hand = g.hands[p]
    options: list[Lay] = []
    made: set[tuple[tuple[Card, ...], Card]] = set()
    tries = MAX_TRIES
    for way in g.variant.turn.plays:
        onto = zone(g, way.onto)
        if not onto:
            continue
        targets = [t for t in onto if t.id not in g.laid] if way.row else (
            [onto[-1]] if way.onto not in g.laid else [])
        if not targets:
            continue
        sets: list[tuple[Card, ...]] = []  # the same for every target: made once
        for group in _groups(g, way, hand, p):
            sets += _sets(group, way.least, way.most, way.to == "discard_pile", tries - len(sets))
            if len(sets) > tries:
                raise _too_many(g, way)
        env: dict[str, Any] = {"player": p}
        for target in targets:
            tries -= len(sets)
            if tries < 0:
                raise _too_many(g, way)
            env["target"] = target
            for cards in sets:
                env["cards"] = list(cards)
                if (way.legal is None or _holds(g, way, env)) and (cards, target) not in made:
                    made.add((cards, target))  # (two plays that allow the same: the first declared)
                    options.append(Lay(way.name, cards, target))
    return options


def _too_many(g: State, way: PlayWay) -> VariantRuntimeError:
    where = g.variant.where.get(way.legal) if way.legal is not None else None
    return VariantRuntimeError(where[0] if where else None,
                               f"the plays of one turn would try more than {MAX_TRIES:,} sets of cards (play "
                               f"{way.name}); give it a `same:` (cards that share a value) to narrow them",
                               round=g.round, turn=g.turns, seed=g.seed, replay=replay_of(g))


def _holds(g: State, way: PlayWay, env: dict[str, Any]) -> bool:
    try:
        return bool(way.legal(g, env))  # type: ignore[misc]
    except (VariantRuntimeError, RecursionError):
        raise
    except Exception as err:
        raise fault(g, err, way.legal) from err


def _groups(g: State, way: PlayWay, hand: Sequence[Card], p: int) -> list[list[list[Card]]]:
    """The hand's cards that may go together in `way`, as groups (by `same`) of faces,
    each face the cards of it held, in hand order."""
    groups: dict[Any, dict[tuple[int, Any], list[Card]]] = {}
    env: dict[str, Any] = {"player": p}
    for c in hand:
        key: Any = None
        if way.same is not None:
            env["card"] = c
            try:
                key = way.same(g, env)
            except (VariantRuntimeError, RecursionError):
                raise
            except Exception as err:
                raise fault(g, err, way.same) from err
            if key is None:
                continue
        groups.setdefault(key, {}).setdefault((c.face_id, c.back), []).append(c)
    return [list(faces.values()) for faces in groups.values()]


def _sets(faces: list[list[Card]], least: int, most: int, ordered: bool, cap: int) -> list[tuple[Card, ...]]:
    """The sets of `least`..`most` cards from `faces` (cards of one face are alike), each
    once; `ordered`: the cards go down one by one, and each order of a set is its own.
    Past `cap` sets it stops (the caller refuses so many)."""
    if most == 1:
        return [(cards[0],) for cards in faces]
    out: list[tuple[Card, ...]] = []
    for k in range(least, most + 1):
        for pick in combinations_with_replacement(range(len(faces)), k):
            if len(out) > cap:
                return out
            counts: dict[int, int] = {}
            for f in pick:
                counts[f] = counts.get(f, 0) + 1
            if any(n > len(faces[f]) for f, n in counts.items()):
                continue
            if not ordered or len(counts) == 1:
                out.append(tuple(c for f, n in counts.items() for c in faces[f][:n]))
                continue
            for order in dict.fromkeys(permutations(pick)):  # each order of the faces, once
                used = dict.fromkeys(counts, 0)
                cards = []
                for f in order:
                    cards.append(faces[f][used[f]])
                    used[f] += 1
                out.append(tuple(cards))
    return out


# -- making a play ---------------------------------------------------------------------
def lay(g: State, p: int, action: Lay) -> bool:
    """`p` makes the declared play `action`: True if a player must be asked before it is
    all done (see LAY)."""
    way = next(i for i, w in enumerate(g.variant.turn.plays) if w.name == action.way)
    env = {"player": p, "cards": list(action.cards), "target": action.target, "_way": way}
    return run(g, LAY, env)


def lay_down(g: State, e: dict[str, Any]) -> None:
    """The cards leave the hand for the play's zone (onto the discard pile: one by one,
    next); the target is played onto for this turn (cards_played). A game that counts
    its plays counts the play, and each card for its kind (onto the discard pile, as
    each is played)."""
    way = g.variant.turn.plays[e["_way"]]
    p, cards, target = e["player"], e["cards"], e["target"]
    g.laid = (*g.laid, target.id if way.row else way.onto)
    hand = g.hands[p]
    played = g.played
    if played is not None:
        played[len(g.variant.kinds) + e["_way"]] += 1
    if way.to != "discard_pile":
        for c in cards:
            hand.remove(c)
            if played is not None:
                played[c.kind_id] += 1
        zone(g, way.to).extend(cards)
        took_from_hand(g, p)
    if "cards_played" in g._watch:
        emit(g, "cards_played", {"player": p, "play": way.name, "cards": list(cards), "target": target,
                                 "to": way.to, "count": len(cards)})
    if way.to != "discard_pile" and "hand_changed" in g._watch:
        emit(g, "hand_changed", {"player": p, "size": len(hand)})


def onto_pile(g: State, e: dict[str, Any]) -> list[Card]:
    """The cards played one by one (onto the discard pile), or none."""
    way = g.variant.turn.plays[e["_way"]]
    return list(e["cards"]) if way.to == "discard_pile" else []


def play_one(g: State, e: dict[str, Any]) -> Any:
    """One card of the play onto the discard pile, as a one-card play (its effect too)."""
    card = e["_card"]
    if card not in g.hands[e["player"]]:
        return None  # (an effect of an earlier card moved it)
    return PAUSED if play(g, e["player"], card, True) else None


def then(g: State, e: dict[str, Any]) -> Any:
    """The play's own effects (`then:`)."""
    way = g.variant.turn.plays[e["_way"]]
    if not way.then:
        return None
    return PAUSED if perform(g, way.then, {"player": e["player"], "cards": e["cards"], "target": e["target"]}) \
        else None


LAY: Program = (
    (DO, lay_down, HERE),
    (FOR, "_card", onto_pile, ((DO, play_one, HERE),), HERE),
    (DO, then, HERE),
)
