"""The events the engine emits, declared once: each event's fields, their types, and
who may see each field.

This table is the one source for the language checker (the names a rule's `if:`
and `do:` may read), the narrator, the generated reference, and the
information a player has seen (see `visible_to`). A test checks that what the
engine emits matches it, field for field.

Every event has `player`: the player it is about (for rules, also the player
whose `next`, `hand` and `opponents` are meant).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

EVERYONE = "everyone"


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an event: its type in the language, and who may see its value.

    `seen_by` is EVERYONE, or the names of the event's fields that hold the seats
    allowed to see it (e.g. ("player",): only the player the event is about)."""

    type: str
    doc: str
    seen_by: str | tuple[str, ...] = EVERYONE


@dataclass(frozen=True, slots=True)
class Event:
    """An event: when it fires, and its fields."""

    doc: str
    fields: Mapping[str, Field] = field(default_factory=dict)
    reserved: bool = False  # declared for variants to come; no shipped variant emits it
    # Commentary for tools: emitted only to a game that names it in `listen_to` (or
    # `watch`), never in an event log or a replay, and no rule can wait for it.
    for_tools: bool = False


def _event(doc: str, reserved: bool = False, for_tools: bool = False, **fields: Field) -> Event:
    return Event(doc, {"player": _PLAYER, **fields}, reserved, for_tools)


_PLAYER = Field("player", "the player the event is about")

EVENTS: dict[str, Event] = {
    "round_start": _event("a round begins (player: the dealer), before the set-up runs",
                          round=Field("int", "the round's number, from 1")),
    "cut": _event("a player cuts a card to choose the dealer",
                  card=Field("card", "the card cut, face up")),
    "shuffled": _event("a zone is shuffled (player: the dealer)",
                       zone=Field("str", "the zone's name: draw_pile, discard_pile, …")),
    "reshuffled": _event("the discard pile (all but its top) becomes the new draw pile",
                         count=Field("int", "the cards in the new draw pile")),
    "dealt": _event("a player has been dealt their cards (once per player, in seat order, after the whole deal)",
                    count=Field("int", "the cards in their hand")),
    "card_turned": _event("a card is turned up from the draw pile onto the discard pile (player: the dealer)",
                          card=Field("card", "the card turned up")),
    "turn_start": _event("a player's turn begins"),
    "card_played": _event("a card is played onto the discard pile, before its effect",
                          card=Field("card", "the card played")),
    "card_drawn": _event("a player draws a card",
                         card=Field("card", "the card drawn; only its drawer sees it", ("player",))),
    "draw_short": _event("a player should draw more cards than there are (COM-1)",
                         missing=Field("int", "how many cards could not be drawn")),
    "hand_changed": _event("a hand gained or lost cards (after plays, draws, swaps, gifts and moves)",
                           size=Field("int", "the cards in the hand now")),
    "color_named": _event("a player names the colour in play",
                          color=Field("color", "the colour named")),
    "direction_changed": _event("the direction of play reverses",
                                direction=Field("int", "1 for clockwise, -1 for anticlockwise")),
    "skipped": _event("a player loses their turn"),
    "penalty_added": _event("a pending draw penalty grows (a card was stacked on it)",
                            total=Field("int", "the cards the penalty now makes its taker draw")),
    "penalty_taken": _event("a player takes the pending draw penalty",
                            count=Field("int", "the cards they draw")),
    "hands_swapped": _event("two players swap hands",
                            other=Field("player", "the other player")),
    "hands_passed": _event("every hand is passed along at once (pass_hands)",
                           direction=Field("int", "how many seats along: 1 to the left, -1 to the right")),
    "hands_redealt": _event("every hand is gathered and dealt out again (redeal; player: who was dealt first)",
                            count=Field("int", "the cards dealt")),
    "card_given": _event("a player gives a card to another",
                         other=Field("player", "the player who receives it"),
                         card=Field("card", "the card given; only the two players see it", ("player", "other"))),
    "cards_moved": _event("cards move from one zone to another (move, move_all, put)",
                          source=Field("str", "the zone they leave"),
                          target=Field("str", "the zone they go to"),
                          count=Field("int", "how many cards move")),
    "card_revealed": _event("a card is shown to every player (reveal; player: who holds it, or who showed it "
                            "from a pile); a card in a hand stays known while it stays there",
                            card=Field("card", "the card shown: everyone sees it")),
    "flipped": _event("every card is turned over (two-sided decks)",
                      side=Field("str", "the name of the side now in play")),
    "flagged": _event("a flag is set on a player",
                      flag=Field("str", "the flag's name")),
    "choice": _event("a player answered a decision",
                     kind=Field("str", "the kind of decision: turn, drawn, jump, color, player, card, ask"),
                     value=Field("answer", "the answer, by kind: turn — the card played, or \"draw\" "
                                 "(or \"pass\"); drawn — the drawn card played, or \"keep\"; jump — the card "
                                 "played out of turn, or \"pass\"; color — the colour; player — the seat; card — "
                                 "the card; ask — true or false (e.g. `kind == \"turn\" and value == \"draw\"`; any "
                                 "other text never compares equal). Only the player who answered sees it",
                                 ("player",)),
                     prompt=Field("str", "the question: an ask's name (e.g. \"call_uno\"), else a short text "
                                  "such as \"name a colour\" (may be empty)")),
    "turn_end": _event("a player's turn ends"),
    "rule_fired": _event("a rule's event came and its `if:` held (player: the event's player): its `do:` runs "
                         "next. Only for tools that ask for it (`unodsl run -v`); not in event logs, and no "
                         "rule can wait for it", for_tools=True,
                         rule=Field("str", "the rule's `name:` (\"rule N\" when it has none)"),
                         event=Field("str", "the event the rule answered")),
    "eliminated": _event("a player is out of the round (eliminate); play passes over them until the next round",
                         count=Field("int", "the cards they held, which went to `zone`"),
                         zone=Field("str", "the zone their cards went to")),
    "round_end": _event("a round ends (player: its winner)",
                        points=Field("any", "the points each player gained this round, by seat (with teams, "
                                     "each player of a team gains the team's points)"),
                        team=Field("int", "the winner's team number, from 0 (without `teams:`, the winner's "
                                   "seat: each player is a team of one)")),
    "game_end": _event("the game ends (player: its winner, the first in seat order on a tie)",
                       winners=Field("players", "every winner, in seat order: more than one team on a tie "
                                     "(with teams, every player of the winning team)"),
                       scores=Field("any", "the final scores, by seat (with teams, each player's is the team's)"),
                       team=Field("int", "the winning team's number (without `teams:`, the winner's seat)")),
}


def rule_env(event: str) -> dict[str, str]:
    """The names a rule on `event` may read, with their types."""
    return {name: f.type for name, f in EVENTS[event].fields.items()}


def visible_to(event: str, data: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """The fields of one emitted event that `seat` may see."""
    fields = EVENTS[event].fields
    out = {}
    for name, value in data.items():
        seen_by = fields[name].seen_by
        if seen_by == EVERYONE or any(data.get(f) == seat for f in seen_by):
            out[name] = value
    return out
