"""The rulebook's words for the table a variant declares: its zones (`zones:`) and the plays
its turn offers (`turn: plays:`), each said from its declaration.

A zone is said by what it is (its description), who sees it, its shape and its capacity;
a play by its size, what its cards share (`same:`), where they go, when it is legal
(`legal:`, in English by english.py) and what follows it (`then:`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..lang import ast
from ..lang.parse import parse
from ..model import PlayWay, Zone
from .english import English
from .inline import code, lit
from .wording import CARD_WORDS, capitalise, decapitalise, humanise, words

NUMBERS = ("no", "one", "two", "three", "four")  # a play takes at most 4 cards (the schema's bound)


def zone_lines(zones: tuple[Zone, ...], plays: tuple[PlayWay, ...] = ()) -> list[str]:
    """One line for each zone the variant declares: its name, what it is, who sees it, how
    many cards it holds, and whether plays are made onto it."""
    targets = {w.onto for w in plays}
    return [_zone_line(z, z.name in targets) for z in zones if not z.builtin]


def _zone_line(z: Zone, target: bool) -> str:
    head = f"**{lit(humanise(z.name))}** ({code(z.name)}): "
    what = f"{lit(z.description.rstrip('.'))}. " if z.description else ""
    shows = "none" if z.shows == "owner" and z.owner == "table" else z.shows  # (the table's: no one's)
    seen = {"all": "face up for everyone", "none": "face down: everyone sees only how many cards it holds",
            "owner": "seen only by its player: the others see how many cards it holds"}[shows]
    where = f"one {z.shape} for each player, {seen}" if z.owner == "player" else f"a {z.shape} on the table, {seen}"
    if z.shape == "row":
        where += "; its cards lie side by side" + (", and each can be played onto" if target else "")
    elif target:
        where += "; its top card is played onto"
    room = "" if z.capacity is None else f" It holds at most {_cards(z.capacity)}: a card moved to it when it " \
        "is full stays where it was."
    return f"{head}{what}{capitalise(where) if what else where}.{room}"


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def size(way: PlayWay) -> str:
    """"one card", "two to four cards", "one or two cards"."""
    lo, hi = NUMBERS[way.least], NUMBERS[way.most]
    noun = "card" if way.most == 1 else "cards"
    if way.least == way.most:
        return f"{lo} {noun}"
    return f"{lo} {'or' if way.most == way.least + 1 else 'to'} {hi} {noun}"


def _same(e: English, raw: str) -> str:
    """What the cards share: "of one number", "alike in their points"."""
    node = parse(raw)
    if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) and node.obj.id == "card" \
            and node.name in CARD_WORDS:
        return f" of one {CARD_WORDS[node.name]}"
    return f" alike in {e.with_var('card', 'they', lambda: e.value(node))}"


def _place(e: English, zone: Zone) -> str:
    """A zone of the table in words: "the discard pile", "the center row", "the bonus row"."""
    return e.value(parse(zone.name)) if zone.builtin else e.zone_name(zone, "you")


def play_lines(way: PlayWay, spec: Mapping[str, Any], zones: Mapping[str, Zone],
               english: Callable[[dict[str, str]], English], others: bool) -> str:
    """A declared play as sentences: "**Doubles**: you may play two to four cards of one
    number at once onto the discard pile, if …"."""
    onto = zones[way.onto]
    e0 = english({})
    place = _place(e0, onto)
    if way.row:
        target, where = "that card", f"onto a card of {place}"
    else:
        target = "the top card" if way.onto == "discard_pile" else f"the top card of {place}"
        where = f"onto {place}"
    e = english({"cards": "the cards played", "target": target})
    share = _same(e, spec["same"]) if spec.get("same") and way.most > 1 else ""
    at_once = " at once" if way.most > 1 else ""
    sentence = f"**{lit(humanise(way.name))}**: {'instead, ' if others else ''}you may play {size(way)}{share}" \
        f"{at_once} from your hand {where}"
    if spec.get("legal") and str(spec["legal"]).strip() != "true":
        legal = e.condition(str(spec["legal"]))  # (`first(cards)` is "the first card": of one, "your card")
        sentence += f", if {legal.replace('the first card', 'your card') if way.most == 1 else legal}"
    out = [sentence + "."]
    to = zones[way.to]
    if way.to == "discard_pile":
        go = "go down" if way.onto == "discard_pile" else "then go onto the discard pile"
        out.append(f"The cards {go} one after another, in the order you choose, each as if played alone (its "
                   "colour, its effect); the last one down is the new top card." if way.most > 1 else
                   f"The card {go.replace('go', 'goes')} as if played alone (its colour, its effect).")
    elif way.to != way.onto:
        out.append(f"The {'card goes' if way.most == 1 else 'cards go'} {'into' if to.shape == 'row' else 'onto'} "
                   f"{_place(e0, to)}.")
    elif way.row:
        out.append(f"The {'card joins' if way.most == 1 else 'cards join'} {place}.")
    if spec.get("then"):
        then = e.program(str(spec["then"]))
        out.append(f"After the play, {decapitalise(then[0])}" + "".join(f" {s}" for s in then[1:]))
    if way.description:
        said = capitalise(way.description.strip())
        out.append(f"*The variant says:* {lit(said)}{'' if said.endswith(('.', '!', '?')) else '.'}")
    return " ".join(out)


def turn_lines(plays: tuple[PlayWay, ...], raw: list[Mapping[str, Any]], zones: Mapping[str, Zone],
               english: Callable[[dict[str, str]], English], one_card: bool, per_turn: int) -> list[str]:
    """The lines of a turn's declared plays: each play, and how many a turn may hold."""
    specs = {str(s["name"]): s for s in raw}
    out = [] if one_card else ["You play in one of the ways below; there is no other play."]
    out += [play_lines(w, specs.get(w.name, {}), zones, english, one_card) for w in plays]
    if per_turn > 1:
        ways = "these plays" if len(plays) > 1 else f"{lit(words(plays[0].name))} plays"
        out.append(f"A turn may hold up to {per_turn} of {ways}, each onto another card or pile; after each "
                   "one you may stop.")
    return out
