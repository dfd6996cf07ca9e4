"""The events the engine emits, declared once: what each one means and who may know it.

Each event declares
- its fields, their types, and who may see each field (`Field.seen_by`, read by
  `visible_to`);
- its English for the rulebook (`english`: "a card is played", for `on: card_played`;
  `player_is`: who `player` is when it is not simply "the player");
- its narration (`narration`): sentence templates naming the player and the cards,
  told by `narrate` (the first template whose fields a reader may see);
- which zones and hands it moves cards between (`moves`, as `Move`s), and what it
  makes unknown again (`forgets`, besides the hands it moves whole): see
  `zones_moved`, `arrivals` and `forgotten`.

This table is the one source for the language checker (the names a rule's `if:` and
`do:` may read), the rulebook, the narrator and the web's narration, ISMCTS's
inference from what opponents drew, the checks that cards are conserved, the
generated reference, and the information a player has seen. Tests check that what
the engine emits matches it, field for field, and that every card that changes zone
does so in an event that declares the move. Everything here is static data: nothing
is done per event on a game's own path.

Every event has `player`: the player it is about (for rules, also the player
whose `next`, `hand` and `opponents` are meant).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

EVERYONE = "everyone"


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an event: its type in the language, and who may see its value.

    `seen_by` is EVERYONE, or the names of the event's fields that hold the seats
    allowed to see it (e.g. ("player",): only the player the event is about), or that
    name zones: whoever sees that zone may see it (everyone for a face-up zone, FACE_UP;
    its owner for a hand; no one for the draw pile).
    `zone`: the value is a zone's name (see `hand_zone`), told as one ("the discard
    pile", "Ann's hand"). `words`: how some values are told in a narration ({1: "to
    the left"}); the key None, if there, is a format for the others ("{} seats along")."""

    type: str
    doc: str
    seen_by: str | tuple[str, ...] = EVERYONE
    zone: bool = False
    words: Mapping[Any, str] = field(default_factory=dict)


# -- where cards are, and how they move -------------------------------------------------
PlaceKind = Literal["pile", "hand", "named", "hands", "piles", "zones"]
Told = Literal["always", "verbose", "never"]


@dataclass(frozen=True, slots=True)
class Place:
    """Where an event's cards come from or go to: a pile by its name (`pile`), the hand of
    the seat in a field (`hand`), the zone whose name is in a field (`named`), every
    hand (EVERY_HAND), a pile the event does not name (SOME_PILE: any that is not a hand)
    or every zone (EVERY_ZONE)."""

    kind: PlaceKind
    name: str = ""  # the pile's name, or the field's

    def zones(self, data: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """The names of the zones this place is in one emitted event (`names`: every zone
        of the table)."""
        kind = self.kind
        if kind == "pile":
            return [self.name]
        if kind == "hand":
            return [hand_zone(data[self.name])]
        if kind == "named":
            name = data[self.name]
            return [name] if name in names else []
        if kind == "hands":
            return [z for z in names if zone_seat(z) is not None]
        if kind == "piles":
            return [z for z in names if zone_seat(z) is None]
        return list(names)

    def seats(self, data: Mapping[str, Any], n: int) -> list[int]:
        """The seats whose hands this place is in one emitted event (at a table of `n`)."""
        kind = self.kind
        if kind == "hand":
            return [data[self.name]]
        if kind == "named":
            seat = zone_seat(str(data[self.name]))
            return [] if seat is None else [seat]
        if kind in ("pile", "piles"):
            return []
        return list(range(n))

    def told(self) -> str:
        """This place in words, for the reference."""
        return {"pile": f"the {self.name.replace('_', ' ')}", "hand": f"the hand of `{self.name}`",
                "named": f"the zone named by `{self.name}`", "hands": "every hand",
                "piles": "a pile", "zones": "every zone"}[self.kind]


def pile(name: str) -> Place:
    return Place("pile", name)


def hand(field_name: str = "player") -> Place:
    return Place("hand", field_name)


def named(field_name: str) -> Place:
    return Place("named", field_name)


EVERY_HAND = Place("hands")
SOME_PILE = Place("piles")
EVERY_ZONE = Place("zones")


@dataclass(frozen=True, slots=True)
class Move:
    """Cards an event moves from `source` to `target`. `count`: the field that tells how
    many, or a number, or None when the event does not tell; `whole`: every card of the
    source moves (a hand given up whole: what was known of it no longer holds)."""

    source: Place
    target: Place
    count: str | int | None = None
    whole: bool = False

    def told(self) -> str:
        many = {None: "cards", 1: "one card"}.get(self.count, f"`{self.count}` cards") if isinstance(
            self.count, int | None) else f"`{self.count}` cards"
        what = "every card" if self.whole else many
        return f"{what} from {self.source.told()} to {self.target.told()}"


def hand_zone(seat: int) -> str:
    """The name of a seat's hand among a table's zones (`zone_name`, `cards_moved`'s fields)."""
    return f"hand {seat}"


def seat_zone(name: str, seat: int) -> str:
    """The name of a seat's zone of `zones:` among a table's zones ("stock 2")."""
    return f"{name} {seat}"


# The zones every player sees whole (engine/view.py shows them): cards that leave or reach
# one are seen by everyone.
FACE_UP = frozenset({"discard_pile", "aside"})


def zone_seat(name: str) -> int | None:
    """The seat whose hand the zone `name` is (None: not a hand)."""
    head, _, seat = name.partition(" ")
    return int(seat) if head == "hand" and seat.isdigit() else None


# -- an event ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Event:
    """An event: when it fires, its fields, its English and narration, and its moves."""

    doc: str
    fields: Mapping[str, Field] = field(default_factory=dict)
    reserved: bool = False  # declared for variants to come; no shipped variant emits it
    # Commentary for tools: emitted only to a game that names it in `listen_to` (or
    # `watch`), never in an event log or a replay, and no rule can wait for it.
    for_tools: bool = False
    english: str = ""  # the rulebook's words for `on: <event>`: "a card is played"
    player_is: str | None = None  # who `player` is, in the rulebook, when not "the player"
    # Sentence templates, the first whose fields a reader sees is told: `{field}` is the
    # field's value in words, `{field|one|many}` the word that agrees with its number.
    narration: tuple[str, ...] = ()
    # How much an account of a game tells it: "always", "verbose" (only a detailed account,
    # e.g. `unodsl run -v`) or "never" (what the account's layout shows: a turn's start and end).
    told: Told = "always"
    moves: tuple[Move, ...] = ()  # the cards it moves, once it is emitted (see zones_moved)
    forgets: tuple[Place, ...] = ()  # hands whose cards look otherwise now (besides those moved whole)

    @property
    def moves_cards(self) -> bool:
        return bool(self.moves)


def _event(doc: str, *, english: str, narration: str | tuple[str, ...], player_is: str | None = None,
           moves: tuple[Move, ...] = (), forgets: tuple[Place, ...] = (), told: Told = "always",
           reserved: bool = False, for_tools: bool = False, **fields: Field) -> Event:
    return Event(doc, {"player": _PLAYER, **fields}, reserved, for_tools, english, player_is,
                 (narration,) if isinstance(narration, str) else narration, told, moves, forgets)


_PLAYER = Field("player", "the player the event is about")
_TO_HAND = pile("draw_pile"), hand()

EVENTS: dict[str, Event] = {
    "round_start": _event("a round begins (player: the dealer), before the set-up runs",
                          english="a round starts", player_is="the dealer",
                          narration="round {round} begins: {player} deals",
                          moves=(Move(EVERY_ZONE, pile("draw_pile"), whole=True),),  # every card back in the pile
                          round=Field("int", "the round's number, from 1")),
    "cut": _event("a player cuts a card to choose the dealer",
                  english="a player cuts a card", narration="{player} cuts {card}",
                  card=Field("card", "the card cut, face up")),
    "shuffled": _event("a zone is shuffled (player: the dealer)",
                       english="a pile is shuffled", player_is="the dealer",
                       narration="{player} shuffles {zone}", told="verbose",
                       zone=Field("str", "the zone's name: draw_pile, discard_pile, …", zone=True)),
    "reshuffled": _event("the discard pile (all but its top) becomes the new draw pile",
                         english="the discard pile is shuffled into a new draw pile",
                         narration="the discard pile is shuffled into a new draw pile ({count} {count|card|cards})",
                         moves=(Move(pile("discard_pile"), pile("draw_pile")),),
                         count=Field("int", "the cards in the new draw pile")),
    "dealt": _event("a player has been dealt their cards (once per player, in seat order, after the whole deal)",
                    english="a player has been dealt their cards",
                    narration="{player} is dealt {count} {count|card|cards}",
                    moves=(Move(*_TO_HAND),),  # (count is their hand, not what the deal gave)
                    count=Field("int", "the cards in their hand")),
    "card_turned": _event("a card is turned up from the draw pile onto the discard pile (player: the dealer)",
                          english="a card is turned up", player_is="the dealer",
                          narration="{card} is turned up",
                          moves=(Move(pile("draw_pile"), pile("discard_pile"), 1),),
                          card=Field("card", "the card turned up")),
    "turn_start": _event("a player's turn begins", english="a turn starts",
                         narration="{player}'s turn begins", told="never"),
    "card_played": _event("a card is played onto the discard pile, before its effect",
                          english="a card is played", narration="{player} plays {card}",
                          moves=(Move(hand(), pile("discard_pile"), 1),),
                          card=Field("card", "the card played")),
    "cards_played": _event("a play of `turn: plays:` is made: cards from a hand onto a target, before their "
                           "effects", english="a declared play is made",
                           narration="{player} plays {cards} on {target} ({play})",
                           moves=(Move(hand(), named("to"), "count"),),
                           play=Field("str", "the play's name"),
                           cards=Field("cards", "the cards played, in order"),
                           target=Field("card", "the card played onto (a pile's top, or a card of a row)"),
                           to=Field("str", "the zone the cards go to", zone=True),
                           count=Field("int", "how many cards")),
    "card_named": _event("a card is said to count as a number or a colour while it lies where it is "
                         "(name_number, name_color)", english="a card's number or colour is said",
                         narration="{player} says {card} is {value}",
                         card=Field("card", "the card"),
                         value=Field("str", "what it counts as: a number, or a colour")),
    "card_drawn": _event("a player draws a card", english="a card is drawn",
                         narration=("{player} draws {card}", "{player} draws a card"),
                         moves=(Move(*_TO_HAND, 1),),
                         card=Field("card", "the card drawn; only its drawer sees it", ("player",))),
    "draw_short": _event("a player should draw more cards than there are (COM-1)",
                         english="a player cannot draw every card they should",
                         narration="no cards left: {player} draws {missing} fewer",
                         missing=Field("int", "how many cards could not be drawn")),
    "hand_changed": _event("a hand gained or lost cards (after plays, draws, swaps, gifts and moves)",
                           english="a player's hand changes",
                           narration="{player} holds {size} {size|card|cards}", told="never",
                           size=Field("int", "the cards in the hand now")),
    "color_named": _event("a player names the colour in play", english="a colour is named",
                          narration="{player} names {color}",
                          color=Field("color", "the colour named")),
    "direction_changed": _event("the direction of play reverses", english="play changes direction",
                                narration="play changes direction",
                                direction=Field("int", "1 for clockwise, -1 for anticlockwise",
                                                words={1: "clockwise", -1: "anticlockwise"})),
    "skipped": _event("a player loses their turn", english="a player is skipped", narration="{player} is skipped"),
    "penalty_added": _event("a pending draw penalty grows (a card was stacked on it)",
                            english="a draw waiting for the next player grows",
                            narration="the draw penalty grows to {total}",
                            total=Field("int", "the cards the penalty now makes its taker draw")),
    "penalty_taken": _event("a player takes the pending draw penalty",
                            english="a player takes the waiting draw",
                            narration="{player} takes the penalty: draws {count}",
                            # (its cards are drawn, each a card_drawn, before it is told)
                            count=Field("int", "the cards they draw")),
    "hands_swapped": _event("two players swap hands", english="two players swap hands",
                            narration="{player} and {other} swap hands",
                            moves=(Move(hand(), hand("other"), whole=True), Move(hand("other"), hand(), whole=True)),
                            other=Field("player", "the other player")),
    "hands_passed": _event("every hand is passed along at once (pass_hands)",
                           english="every hand is passed along", narration="every hand is passed {direction}",
                           moves=(Move(EVERY_HAND, EVERY_HAND, whole=True),),
                           direction=Field("int", "how many seats along: 1 to the left, -1 to the right",
                                           words={1: "to the left", -1: "to the right", None: "{} seats along"})),
    "hands_redealt": _event("every hand is gathered and dealt out again (redeal; player: who was dealt first)",
                            english="every hand is gathered and dealt out again",
                            narration="every hand is gathered and dealt out again from {player} "
                                      "({count} {count|card|cards})",
                            # every hand, and the pile redeal was given if any (its name is not told)
                            moves=(Move(EVERY_HAND, EVERY_HAND, whole=True), Move(SOME_PILE, EVERY_HAND)),
                            count=Field("int", "the cards dealt")),
    "card_given": _event("a player gives a card to another", english="a player gives a card away",
                         narration=("{player} gives {card} to {other}", "{player} gives a card to {other}"),
                         moves=(Move(hand(), hand("other"), 1),),
                         other=Field("player", "the player who receives it"),
                         card=Field("card", "the card given; only the two players see it", ("player", "other"))),
    "cards_moved": _event("cards move from one zone to another (move, move_all, put, put_all)",
                          english="cards are moved between piles",
                          narration=("{player} moves {cards} from {source} to {target}",
                                     "{player} moves {count} {count|card|cards} from {source} to {target}"),
                          told="verbose", moves=(Move(named("source"), named("target"), "count"),),
                          source=Field("str", "the zone they leave", zone=True),
                          target=Field("str", "the zone they go to", zone=True),
                          count=Field("int", "how many cards move"),
                          cards=Field("cards", "the cards moved, in the order they were put on `target`; seen by "
                                      "everyone when they leave or reach a face-up zone (the discard pile, the "
                                      "cards set aside), else only by the players whose hands they leave or reach",
                                      ("source", "target"))),
    "card_revealed": _event("a card is shown to every player (reveal; player: who holds it, or who showed it "
                            "from a pile); a card in a hand stays known while it stays there",
                            english="a card is shown to every player",
                            narration="{player} shows {card} to everyone",
                            card=Field("card", "the card shown: everyone sees it")),
    "flipped": _event("every card is turned over (two-sided decks)", english="the cards are turned over",
                      narration="everything flips: the {side} side is in play",
                      forgets=(EVERY_HAND,),  # every card shows its other face
                      side=Field("str", "the name of the side now in play")),
    "flagged": _event("a flag is set on a player", english="a player is marked",
                      narration="{player} is marked {flag}", told="verbose",
                      flag=Field("str", "the flag's name")),
    "choice": _event("a player answered a decision", english="a player makes a choice",
                     narration=("{player} answers {value}", "{player} answers"), told="verbose",
                     kind=Field("str", "the kind of decision: turn, drawn, jump, color, player, card, ask, int"),
                     value=Field("answer", "the answer, by kind: turn — the card played, the cards of a declared "
                                 "play and then the card they go onto (a list), or \"draw\" "
                                 "(or \"pass\"); drawn — the drawn card played, or \"keep\"; jump — the card "
                                 "played out of turn, or \"pass\"; color — the colour; player — the seat; card — "
                                 "the card; ask — true or false; int — the number (e.g. `kind == \"turn\" and "
                                 "value == \"draw\"`; any other text never compares equal). Only the player who "
                                 "answered sees it",
                                 ("player",)),
                     prompt=Field("str", "the question: an ask's name (e.g. \"call_uno\"), else a short text "
                                  "such as \"name a colour\" or a card choice's \"pick a card to give away\" "
                                  "(may be empty)")),
    "turn_end": _event("a player's turn ends", english="a turn ends", narration="{player}'s turn ends", told="never"),
    "rule_fired": _event("a rule's event came and its `if:` held (player: the event's player): its `do:` runs "
                         "next. Only for tools that ask for it (`unodsl run -v`); not in event logs, and no "
                         "rule can wait for it", for_tools=True, english="a rule fires",
                         narration="rule “{rule}” fires (on {event})", told="verbose",
                         rule=Field("str", "the rule's `name:` (\"rule N\" when it has none)"),
                         event=Field("str", "the event the rule answered")),
    "eliminated": _event("a player is out of the round (eliminate); play passes over them until the next round",
                         english="a player is out of the round",
                         narration="{player} is out of the round ({count} {count|card|cards} to {zone})",
                         moves=(Move(hand(), named("zone"), "count", whole=True),),
                         count=Field("int", "the cards they held, which went to `zone`"),
                         zone=Field("str", "the zone their cards went to", zone=True)),
    "round_end": _event("a round ends (player: its winner)", english="a round ends",
                        player_is="the round's winner", narration="{player} wins the round",
                        points=Field("any", "the points each player gained this round, by seat (with teams, "
                                     "each player of a team gains the team's points)"),
                        team=Field("int", "the winner's team number, from 0 (without `teams:`, the winner's "
                                   "seat: each player is a team of one)")),
    "game_end": _event("the game ends (player: its winner, the first in seat order on a tie)",
                       english="the game ends", player_is="the game's winner",
                       narration="{player} wins the game", told="never",
                       winners=Field("players", "every winner, in seat order: more than one team on a tie "
                                     "(with teams, every player of the winning team)"),
                       scores=Field("any", "the final scores, by seat (with teams, each player's is the team's)"),
                       team=Field("int", "the winning team's number (without `teams:`, the winner's seat)")),
}


def rule_env(event: str) -> dict[str, str]:
    """The names a rule on `event` may read, with their types."""
    return {name: f.type for name, f in EVENTS[event].fields.items()}


Shows = Mapping[str, str]  # a variant's zones of `zones:` by name → who sees them ("all", "none", "owner")


def visible_to(event: str, data: Mapping[str, Any], seat: int, shows: Shows | None = None) -> dict[str, Any]:
    """The fields of one emitted event that `seat` may see (-1: what everyone sees);
    `shows`: who sees the variant's declared zones (`zones:`; see `zones.shows`)."""
    fields = EVENTS[event].fields
    out = {}
    for name, value in data.items():
        seen_by = fields[name].seen_by
        if seen_by == EVERYONE or any(_sees(fields[f], data.get(f), seat, shows) for f in seen_by):
            out[name] = value
    return out


def _sees(f: Field, value: Any, seat: int, shows: Shows | None) -> bool:
    """Does `seat` see what a field of `seen_by` gives access to: its seat, or its zone?"""
    if not f.zone:
        return bool(value == seat)
    name = str(value)
    if name in FACE_UP or (zone_seat(name) == seat and seat >= 0):
        return True
    if not shows:
        return False
    head, _, number = name.rpartition(" ")
    shown = shows.get(name) or shows.get(head)  # a table's zone, or a player's ("stock 2")
    return shown == "all" or (shown == "owner" and number.isdigit() and int(number) == seat)


def who_sees(event: str, name: str) -> str | None:
    """Who may see a field, in words for the reference (None: everyone)."""
    f = EVENTS[event].fields[name]
    if f.seen_by == EVERYONE:
        return None
    fields = EVENTS[event].fields
    if all(fields[s].zone for s in f.seen_by):
        return "whoever sees " + " or ".join(f.seen_by)
    return " and ".join(f.seen_by)


# -- what an emitted event moves and makes unknown ----------------------------------------------
def zones_moved(event: str, data: Mapping[str, Any], names: Sequence[str]) -> set[str]:
    """The zones (by name, of a table whose zones are `names`) that `event`, emitted with
    `data`, says it moved cards out of or into."""
    out: set[str] = set()
    for move in EVENTS[event].moves:
        out.update(move.source.zones(data, names))
        out.update(move.target.zones(data, names))
    return out


def arrivals(event: str, data: Mapping[str, Any], n: int) -> list[tuple[int, int]]:
    """(seat, how many) for each hand that `event` says gained a told number of cards."""
    out = []
    for move in EVENTS[event].moves:
        count = move.count
        if count is None or move.whole or move.target.kind not in ("hand", "named"):
            continue
        many = count if isinstance(count, int) else data[count]
        out += [(seat, many) for seat in move.target.seats(data, n)]
    return out


def forgotten(event: str, data: Mapping[str, Any], n: int) -> set[int]:
    """The seats whose hands `event` makes unknown again: a hand that moved whole (away or
    to another seat), one that gained cards it does not count, or every hand it turns over."""
    e = EVENTS[event]
    out = {seat for place in e.forgets for seat in place.seats(data, n)}
    for move in e.moves:
        if move.whole:
            out.update(move.source.seats(data, n))
        if move.whole or move.count is None or move.target.kind not in ("hand", "named"):
            out.update(move.target.seats(data, n))
    return out


# -- narration ----------------------------------------------------------------------------------
class Words(Protocol):
    """How a reader tells values: `kind` is "player", "players", "card", "cards" (a list of
    cards), "color", "zone" (a zone's name) or "text" (a number, a word, an answer, and
    "their hand": the hand of the event's own player)."""

    def __call__(self, kind: str, value: Any) -> str: ...


_SLOT = re.compile(r"\{(\w+)(?:\|([^|}]*)\|([^}]*))?\}")
_KINDS = {"player": "player", "players": "players", "card": "card", "cards": "cards", "color": "color"}


def slots(template: str) -> list[str]:
    """The fields a narration template names."""
    return [m.group(1) for m in _SLOT.finditer(template)]


def narrate(event: str, data: Mapping[str, Any], words: Words) -> str | None:
    """`event` told in a sentence: its first narration template whose fields are all in
    `data` (a reader given only what a seat may see gets the template for that), each
    value told by `words`. None when none fits."""
    e = EVENTS[event]
    for template in e.narration:
        if all(name in data for name in slots(template)):
            return _SLOT.sub(lambda m: _told(e.fields[m.group(1)], data[m.group(1)], m.group(2), m.group(3), words,
                                             data.get("player")), template)
    return None


def _told(f: Field, value: Any, one: str | None, many: str | None, words: Words, player: Any) -> str:
    if one is not None:
        return one if value == 1 else (many or "")
    if f.words:
        said = f.words.get(value)
        if said is None and None in f.words:
            said = f.words[None].format(value)
        if said is not None:
            return words("text", said)
    if f.zone:
        seat = zone_seat(str(value))
        return words("text", "their hand") if seat is not None and seat == player else words("zone", value)
    return words(_KINDS.get(f.type, "text"), value)


def zone_words(name: str, player: Any, called: Mapping[str, str] | None = None) -> str:
    """A zone's name in words: "the discard pile", a zone of `zones:` as `called` says it
    (each one's Zone.called: "the matched row"), or "<player>'s hand", "<player>'s stock"
    with `player(seat)` telling the seat."""
    seat = zone_seat(name)
    if seat is not None:
        return f"{player(seat)}'s hand"
    called = called or {}
    head, _, number = name.rpartition(" ")
    if head and number.isdigit():  # a player's zone of `zones:` ("stock 2")
        return f"{player(int(number))}'s {called.get(head) or head.replace('_', ' ')}"
    if name in called:
        return f"the {called[name]}"
    return {"aside": "the cards set aside", "cards": "cards"}.get(name, "the " + name.replace("_", " "))


def told_moves(event: str) -> str:
    """What an event moves, in words (for the reference); "" when it moves nothing."""
    return "; ".join(m.told() for m in EVENTS[event].moves)


__all__ = [
    "EVENTS",
    "EVERYONE",
    "EVERY_HAND",
    "EVERY_ZONE",
    "FACE_UP",
    "SOME_PILE",
    "Event",
    "Field",
    "Move",
    "Place",
    "Shows",
    "Words",
    "arrivals",
    "forgotten",
    "hand",
    "hand_zone",
    "named",
    "narrate",
    "pile",
    "rule_env",
    "slots",
    "told_moves",
    "visible_to",
    "who_sees",
    "zone_seat",
    "zone_words",
    "zones_moved",
]
