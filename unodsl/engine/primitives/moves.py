"""Moves: effects that move many cards at once (`pass_hands`, `redeal`) or one
card without playing it (`put`).

A move made of many steps tells its events when it is complete: one
`hand_changed` per hand, after every hand has moved, so no rule asks a player
about a hand they held only halfway through (rules run after the effect anyway).

Each docstring is the function's entry in the generated language reference.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...errors import RuntimeFault
from ..cards import Card
from ..reach import Game
from .registry import AT, REGISTRY, place

effect = REGISTRY.effect


@effect("direction: int = direction", says=("every player", "pass{es} {their} hand {direction:way}, all at once"))
def pass_hands(g: Game, direction: int) -> None:
    """Every player still in passes their whole hand `direction` places along at once,
    among the players still in (1: to the left, -1: to the right; by default the
    direction of play). One `hand_changed` per hand, when all have moved."""
    seats = g.in_order(0, 1)
    if direction % len(seats) == 0:
        return
    old = [g.hands[q] for q in seats]
    for i, hand in enumerate(old):
        g.hands[seats[(i + direction) % len(seats)]] = hand
    g.hands_moved({q: seats[(i + direction) % len(seats)] for i, q in enumerate(seats)})
    if g.watching("hands_passed"):
        g.emit("hands_passed", {"player": g.current, "direction": direction})
    _hands_changed(g, seats)


@effect("first: player = player, pile: zone = none, direction: int = direction",
        says=("", "gather every hand{pile:and_zone}, shuffle them and deal them out again one at a time"
                  "{direction:toward}, starting with {first}"))
def redeal(g: Game, first: int, pile: list[Card] | None, direction: int) -> None:
    """Every hand still in (and the cards of `pile`, if given) is gathered, shuffled and
    dealt out again one card at a time among the players still in, from `first` on in
    `direction` (by default the direction of play; 1: to the left, -1: to the right),
    until none are left. One `hand_changed` per hand, when all are dealt."""
    seats = [q for q in range(g.n) if g.seated(q)]
    cards = [c for q in seats for c in g.hands[q]]
    if pile is not None:
        if any(pile is h for h in g.hands):
            raise RuntimeFault("redeal(): pile is a hand; every hand is gathered already")
        cards += pile
        pile.clear()
    g.shuffle(cards)
    for q in seats:
        g.hands[q].clear()
    g.hands_moved(dict.fromkeys(seats))  # dealt face down: what was shown is private again
    order = g.in_order(first, 1 if direction >= 0 else -1)
    for i, card in enumerate(cards):
        g.hands[order[i % len(order)]].append(card)
    if g.watching("hands_redealt"):
        g.emit("hands_redealt", {"player": order[0], "count": len(cards)})
    _hands_changed(g, seats)


@effect(f"card: card, zone: zone, at: {AT} = 'top'", says=("", "put {card} {zone:onto} without playing it"))
def put(g: Game, card: Card | None, zone: list[Card], at: str) -> None:
    """Move `card`, wherever it is (a hand, a pile), to the top (or `at: "bottom"`) of
    `zone`, without playing it: no card_played, the colour in play stays."""
    if card is not None:
        put_all(g, [card], zone, at)


@effect(f"cards: cards, zone: zone, at: {AT} = 'top'",
        says=("", "put {cards} {zone:onto} all at once, without playing them"))
def put_all(g: Game, cards: list[Card], zone: list[Card], at: str) -> None:
    """Move every card of `cards`, wherever each is, to the top (or `at: "bottom"`) of
    `zone` at once, in their order (the last ends topmost), without playing them. One
    `hand_changed` per hand, when all have moved: a hand emptied this way goes out
    once, with no UNO call on the way down (e.g. `put_all(filter(hand, c -> c.color
    == card.color), discard_pile, at: "bottom")`)."""
    wanted = {c.id for c in cards}
    zones = [z for z in g.zones().values() if any(c.id in wanted for c in z)]
    shown = {c.id: c for z in zones for c in z}  # each card as it shows now, even if read before a flip
    moved = list({c.id: shown[c.id] for c in cards if c.id in shown}.values())
    room = g.room(zone)
    if room is not None:
        moved = [c for c in moved if c not in zone][:room]  # (those already there stay, and take no room)
        wanted = {c.id for c in moved}
    if not moved:
        return
    taken = []  # the ids each zone gives
    for source in zones:
        taken.append({c.id for c in source if c.id in wanted})
        source[:] = [c for c in source if c.id not in wanted]
    place(zone, moved, at)
    if g.watching("cards_moved"):  # told once every card is in its place
        for source, ids in zip(zones, taken, strict=True):
            g.emit("cards_moved", {"player": g.current, "source": g.zone_name(source), "target": g.zone_name(zone),
                                   "count": len(ids), "cards": [c for c in moved if c.id in ids]})
    _hands_changed(g, [p for p, h in enumerate(g.hands) if h is zone or any(h is z for z in zones if z is not zone)])


def _hands_changed(g: Game, players: Iterable[int]) -> None:
    """One hand_changed for each of `players`, once their hands are final."""
    for p in players:
        g.took_from_hand(p)
        if g.watching("hand_changed"):
            g.emit("hand_changed", {"player": p, "size": len(g.hands[p])})
