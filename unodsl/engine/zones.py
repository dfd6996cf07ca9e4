"""The zones of a table: every zone by name (the built-in ones, each hand, and those of
`zones:`), a zone's name, the declared ones emptied, the room a zone has left; and
cards picked by label (a position arranged by hand)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import UnoDslError
from .cards import Card
from .events import hand_zone, seat_zone
from .state import State
from .view import ZoneView


def zones(g: State) -> dict[str, list[Card]]:
    """Every zone by name: the piles, the aside area, each hand, then the zones of
    `zones:` (a player's as "NAME SEAT", as hands are)."""
    zones = {"draw_pile": g.draw_pile, "discard_pile": g.discard_pile, "aside": g.aside}
    zones.update({hand_zone(p): h for p, h in enumerate(g.hands)})
    if g.places or g.seat_places:
        zones.update(g.places)
        zones.update({seat_zone(name, p): z for name, zs in g.seat_places.items() for p, z in enumerate(zs)})
    return zones


def clear_places(g: State) -> None:
    """Empty the zones of `zones:` (a new round: every card goes back to the deck)."""
    for z in g.places.values():
        z.clear()
    for zs in g.seat_places.values():
        for z in zs:
            z.clear()


def room(g: State, zone: list[Card]) -> int | None:
    """How many more cards `zone` takes (its declared capacity less what it holds), or
    None without a limit."""
    for z in g.variant.zones:
        if z.capacity is not None:
            held = [g.places[z.name]] if z.owner == "table" else g.seat_places[z.name]
            if any(h is zone for h in held):
                return max(0, z.capacity - len(zone))
    return None


def never(g: State, e: dict[str, Any]) -> bool:
    """The match of a variant that plays only its declared plays: no card matches alone."""
    return False


def zone_name(g: State, zone: list[Card]) -> str:
    for name, z in zones(g).items():
        if z is zone:
            return name
    return "cards"


def by_labels(g: State, wanted: Mapping[str, Sequence[str]]) -> dict[str, list[Card]]:
    """Pick physical cards by label for each zone; the rest go to "draw" (under)."""
    free: dict[str, list[Card]] = {}
    for card in reversed(g.cards):
        free.setdefault(card.label, []).append(card)
    out: dict[str, list[Card]] = {}
    for zone, labels in wanted.items():
        picked = []
        for label in labels:
            if not free.get(label):
                known = ", ".join(sorted(free)[:8])
                raise UnoDslError(f"no card {label!r} left for {zone} (labels look like: {known} …)")
            picked.append(free[label].pop())
        out[zone] = picked
    rest = [c for cards in free.values() for c in cards]
    rest.sort(key=lambda c: c.id)
    out["draw"] = rest + out.get("draw", [])[::-1]
    return out


def seen(g: State, player: int) -> tuple[ZoneView, ...]:
    """The zones of `zones:` as `player` sees them (PlayerView.zones)."""
    if not (g.places or g.seat_places):
        return ()
    out = []
    for z in g.variant.zones:
        if z.builtin:
            continue
        held = [(None, g.places[z.name])] if z.owner == "table" else list(enumerate(g.seat_places[z.name]))
        for seat, cards in held:
            if z.shows == "all" or (z.shows == "owner" and seat == player):
                here = z.name if seat is None else seat_zone(z.name, seat)
                said = tuple(said_of(g, c, here) for c in cards) if g.named else ("",) * len(cards)
                out.append(ZoneView(z.name, seat, tuple(c.label for c in cards), len(cards), said))
            else:
                out.append(ZoneView(z.name, seat, None, len(cards)))
    return tuple(out)


def said(g: State, card: Card, zone: str) -> tuple[Any, Any]:
    """The colour and the number said of `card` (name_color, name_number), which lies in
    the zone named `zone`, each None if none was said there: a value said elsewhere is
    forgotten."""
    color, number = g.named.get(("color", card.id)), g.named.get(("rank", card.id))
    return (color[0] if color is not None and color[1] == zone else None,
            number[0] if number is not None and number[1] == zone else None)


def said_of(g: State, card: Card, zone: str) -> str:
    """What was said of `card` lying in `zone` as a person reads it: "red", "7", "red 7", or ""."""
    return " ".join(str(v) for v in said(g, card, zone) if v is not None)


def hidden(g: State, player: int) -> list[list[Card]]:
    """The zones of `zones:` whose cards `player` may not see (face down, or another's)."""
    out = []
    for z in g.variant.zones:
        if z.builtin or z.shows == "all":
            continue
        if z.owner == "table":
            out.append(g.places[z.name])
        else:
            out.extend(zone for seat, zone in enumerate(g.seat_places[z.name])
                       if z.shows == "none" or seat != player)
    return out


def shows(g: State) -> dict[str, str]:
    """Who sees each zone of `zones:`, by name (events.visible_to's `shows`)."""
    return {z.name: z.shows for z in g.variant.zones if not z.builtin}


def called(g: State) -> dict[str, str]:
    """What each zone of `zones:` is called, by name (Zone.called: events.zone_words' `called`)."""
    return {z.name: z.called for z in g.variant.zones if not z.builtin}
