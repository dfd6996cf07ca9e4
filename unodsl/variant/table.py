"""The table a variant declares: its zones (`zones:`) and the plays its turn offers
(`turn: plays:`), read from the merged file and checked; their expressions compiled.

Zones are read first (every expression may name them); plays after the cards, since
their expressions read cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.primitives import REGISTRY
from ..errors import did_you_mean
from ..lang.signature import PLAYER_ATTRS
from ..lang.static import OPTION
from ..model import BUILTIN_ZONES, PlayWay, Zone
from .expressions import Expressions

# What a play's expressions may read, besides the language's names.
PLAY_ENV = {"player": "player", "cards": "cards", "target": "card"}
SAME_ENV = {"player": "player", "card": "card"}
ENGINE_WORDS = frozenset({"player", "card", "cards", "target", "event", "value", "choice"})
BUILTIN = {z.name: z for z in BUILTIN_ZONES}


def read_zones(x: Expressions, raw: Mapping[str, Any]) -> tuple[Zone, ...]:
    """The built-in zones, then the declared ones (a name taken by the language refused);
    each declared name is made known to the expressions checked after."""
    zones = list(BUILTIN_ZONES)
    for name, spec in raw.items():
        key = ("zones", name)
        taken = ("a built-in zone" if name in BUILTIN else "a name of the language"
                 if name in REGISTRY.names or name in REGISTRY.primitives or name in (OPTION, *ENGINE_WORDS)
                 else "a player's attribute" if name in PLAYER_ATTRS else None)
        if taken is not None:
            x.error(key, f"zones: {name!r} is {taken}", "give the zone another name, e.g. center_row",
                    on_key=True)
            continue
        zone = Zone(name, spec.get("owner", "table"), spec.get("shows", "all"), spec.get("shape", "pile"),
                    spec.get("capacity"), description=spec.get("description", ""))
        zones.append(zone)
        x.zones[name] = zone.owner == "player"
    return tuple(zones)


def read_plays(x: Expressions, raw: list[dict[str, Any]], zones: tuple[Zone, ...]) -> tuple[PlayWay, ...]:
    """The declared plays of a turn, each checked: its size, where it goes, its expressions."""
    by_name = {z.name: z for z in zones}
    plays: list[PlayWay] = []
    seen: set[str] = set()
    for i, spec in enumerate(raw):
        key = ("turn", "plays", i)
        name = spec["name"]
        if name in seen:
            x.error((*key, "name"), f"turn.plays: two plays are named {name!r}", "give each play its own name")
        seen.add(name)
        size = spec.get("cards", 1)
        least, most = (size, size) if isinstance(size, int) else (size.get("min", 1), size["max"])
        if least > most:
            x.error((*key, "cards"), f"play {name}: cards min ({least}) is more than max ({most})",
                    "swap the two numbers")
        onto = _table_zone(x, (*key, "onto"), spec.get("onto", "discard_pile"), by_name)
        to = _table_zone(x, (*key, "to"), spec.get("to", onto), by_name)
        plays.append(PlayWay(
            name=name, least=least, most=most, onto=onto, to=to, row=by_name[onto].shape == "row",
            legal=x.condition((*key, "legal"), PLAY_ENV),
            same=x.condition((*key, "same"), SAME_ENV, want=("any",)),
            then=x.program((*key, "then"), PLAY_ENV),
            text=spec.get("legal", ""), description=spec.get("description", "")))
    return tuple(plays)


def _table_zone(x: Expressions, key: tuple[Any, ...], name: str, zones: Mapping[str, Zone]) -> str:
    """A zone of the table by name (a player's zone, or an unknown name, reported)."""
    zone = zones.get(name)
    if zone is None:
        x.error(key, f"unknown zone {name!r}", did_you_mean(name, zones) or "zones: " + ", ".join(zones))
        return "discard_pile"
    if zone.owner == "player":
        x.error(key, f"{name} is one zone per player: a play goes onto a zone of the table",
                "declare a zone with owner: table")
        return "discard_pile"
    return name
