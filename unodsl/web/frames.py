"""What a page is sent: the one function that makes a state frame, `state_frame`.

A frame is made of two things only: what the page's seat knows of the game
(`Knowledge`, knowledge.py: made from `Game.observation(seat)` and the seat's own
decision; never a Game) and the table's public facts (`TableFacts`: its seats with
their labels and names, the notice, the host's possible actions, the timer, the
scores of rounds gone). Neither holds a seed, a server path, another hand or the
draw pile's order, so no frame can. The fields are described in docs/serve.md
("The protocol").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from ..engine.actions import Decision, Lay, Play
from ..engine.cards import Card
from ..model import Variant
from ..players.human import kind_help, option_text, question
from ..variant.asks import questions_asked
from .knowledge import Knowledge

# The asks a page answers with its UNO button (engine asks named in variant files;
# any other ask is a yes/no question): prompt → what the button does.
UNO_ASKS = {"call_uno": "call", "catch_uno": "catch"}


def has_uno_button(variant: Variant) -> bool:
    """Does a table of `variant` show the UNO button: does its file ask one of UNO_ASKS
    (or a question it names otherwise than by a text, which may be one)?"""
    asked = questions_asked(variant)
    return asked is None or not asked.isdisjoint(UNO_ASKS)


@dataclass(frozen=True, slots=True)
class FaceLook:
    color: str
    wild: bool


def face_looks(variant: Variant) -> dict[str, FaceLook]:
    """Each face's label → its colour ("" for none) and whether it is wild: to draw a
    label the view gives as text (the top card, a back, a discard)."""
    looks: dict[str, FaceLook] = {}
    for side in variant.sides:
        for face in side.faces:
            looks.setdefault(face.label, FaceLook(face.color or "", face.wild))
    return looks


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """A seat as every page is told it: `label` ("P2") and `name` (what its person
    typed, may be empty) apart, so that no name can pass for another seat."""

    seat: int
    label: str
    name: str
    person: bool
    bot: str
    connected: bool
    bot_plays: bool


@dataclass(frozen=True, slots=True)
class Notice:
    """A short notice for every page (an undo, a new game, a seat handed to a bot …):
    `id` grows with each notice; the page hides it after `seconds`, and the table
    drops it at the next change a person makes."""

    id: int
    kind: str
    text: str
    seconds: float


@dataclass(frozen=True, slots=True)
class RoundResult:
    round: int
    winner: int
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What the table tells a page besides the game: nothing here is secret."""

    status: str  # lobby, playing, over, failed
    game: int  # games started at this table
    seats: tuple[SeatFacts, ...]
    notice: Notice | None = None
    failure: str = ""  # why the game stopped (status failed), without the seed or a path
    host: dict[str, Any] | None = None  # the host's actions possible now (a host's page only)
    again: tuple[int, ...] = ()  # seats that asked for another game
    rounds: tuple[RoundResult, ...] = ()  # the rounds of this game so far
    winners: tuple[int, ...] = ()  # the game's winners, once it is over
    seconds_left: float | None = None  # the pending decision's time left (--turn-seconds), if a person's
    decision_id: str | None = None
    looks: dict[str, FaceLook] = field(default_factory=dict)
    uno_button: bool = True  # the variant asks what the UNO button answers (has_uno_button)


def state_frame(known: Knowledge | None, facts: TableFacts, seat: int | None) -> dict[str, Any]:
    """The state frame of a page at `seat` (None: a spectator): the one function every
    frame is made by. `known` is what that seat knows of the game (None: no game yet)."""
    labels = [s.label for s in facts.seats]
    timer = None
    if known is not None and facts.seconds_left is not None and (known.turn is not None or known.decision):
        timer = {"seconds": round(facts.seconds_left, 1), "mine": known.decision is not None}
    frame: dict[str, Any] = {
        "type": "state", "status": facts.status, "game": facts.game,
        "notice": _notice(facts.notice), "failure": facts.failure,
        "seats": [{"seat": s.seat, "label": s.label, "name": s.name, "person": s.person, "bot": s.bot,
                   "connected": s.connected, "bot_plays": s.bot_plays, "you": s.seat == seat} for s in facts.seats],
        "host": facts.host,
        "uno_button": facts.uno_button,  # (the page shows its UNO button only where the variant has the call)
        "again": list(facts.again),
        "scores": {"rounds": [{"round": r.round, "winner": r.winner, "points": list(r.points),
                               "totals": list(r.totals)} for r in facts.rounds],
                   "winners": list(facts.winners) if facts.status == "over" else None},
        "timer": timer,
        "table": public_data(known, facts.looks) if known is not None else None,
        "you": (seat_data(known, facts.decision_id, labels)
                if seat is not None and known is not None else None),
    }
    if seat is not None:
        frame["bot_plays"] = facts.seats[seat].bot_plays
        if frame["bot_plays"] and frame["you"] is not None:
            frame["you"]["uno"] = None  # its bot answers: the button cannot act
    return frame


def _notice(n: Notice | None) -> dict[str, Any] | None:
    return None if n is None else {"id": n.id, "kind": n.kind, "text": n.text, "seconds": n.seconds}


def card_data(card: Card) -> dict[str, Any]:
    return {"label": card.label, "color": card.color or "", "wild": card.wild}


def label_data(label: str, looks: dict[str, FaceLook]) -> dict[str, Any]:
    look = looks.get(label)
    return {"label": label, "color": look.color if look else "", "wild": look.wild if look else False}


def public_data(k: Knowledge, looks: dict[str, FaceLook]) -> dict[str, Any]:
    """What everyone at the table sees (each seat's own backs only to the others)."""
    top = None
    if k.top is not None:
        top = {**label_data(k.top, looks), "in_play": k.color or ""}
    return {
        "round": k.round, "turns": k.turns, "top": top,
        "discards": [label_data(c, looks) for c in k.discards],
        "color": k.color, "side": k.side, "direction": k.direction,
        "draw_pile": k.draw_pile,
        "draw_back": label_data(k.draw_back, looks) if k.draw_back else None,
        "aside": [label_data(c, looks) for c in k.aside],
        "penalty": k.penalty, "dealer": k.dealer, "current": k.current,
        "seats": [{"seat": s.seat, "size": s.size, "score": s.score, "out": s.out,
                   "backs": [label_data(b, looks) for b in s.backs], "shown": list(s.shown), "flags": list(s.flags)}
                  for s in k.seats],
        # whose turn it is; any other question is "someone is deciding", without a name
        "turn": k.turn, "deciding": k.deciding,
        "over": k.over, "winner": k.winner, "two_sided": k.two_sided,
        # the zones of `zones:`: a row's cards, a pile's top; cards None when this page may not see them;
        # each card with what was said of it where it lies ("said": "7", "red"; "" for nothing)
        "zones": [{"name": z.name, "title": z.name.replace("_", " "), "seat": z.seat, "row": z.row, "size": z.size,
                   "cards": None if z.cards is None else _zone_cards(z.cards, z.said, looks), "about": z.about}
                  for z in k.zones],
    }


def _zone_cards(cards: Sequence[str], said: Sequence[str] | None, looks: dict[str, FaceLook]) -> list[dict[str, Any]]:
    said = said or ("",) * len(cards)
    return [{**label_data(c, looks), "said": s} for c, s in zip(cards, said, strict=True)]


def seat_data(k: Knowledge, decision_id: str | None, labels: Sequence[str]) -> dict[str, Any]:
    """What only the seat sees: its hand (each card with the option that plays it, if
    legal now), its own decision, and whether its UNO button calls or catches now."""
    d = k.decision
    uno = None
    if d is not None and d.kind == "ask" and d.prompt in UNO_ASKS:
        uno = {"action": UNO_ASKS[d.prompt], "decision": decision_id,
               "yes": d.options.index(True), "no": d.options.index(False)}
    me = k.seats[k.seat] if k.seat is not None else None
    return {"seat": k.seat,
            "hand": [{"label": c.label, "color": c.color, "wild": c.wild, "option": c.option} for c in k.hand],
            "flags": list(me.flags) if me else [],
            "uno": uno,
            "decision": decision_data(d, decision_id, labels, k.penalty) if d is not None else None}


def decision_data(d: Decision, decision_id: str | None, labels: Sequence[str], penalty: int) -> dict[str, Any]:
    """A decision as a page shows it: the question, its help, and each option with
    what it is (a card to play, an action word, a colour, a seat, a card, yes or no, a number)."""
    return {"id": decision_id, "kind": d.kind, "prompt": d.prompt,
            "question": Text.from_markup(question(d, labels)).plain,
            "help": kind_help(d),
            "about": card_data(d.about) if d.about is not None else None,
            "penalty": penalty,
            "options": [option_data(o, d, labels) for o in d.options]}


def option_data(option: Any, d: Decision, labels: Sequence[str]) -> dict[str, Any]:
    text = option_text(option, d, labels)
    if type(option) is Play:
        return {"what": "play", "text": text, "card": card_data(option.card)}
    if type(option) is Lay:  # a declared play: its name, its cards in order, the card played onto
        return {"what": "lay", "text": text, "play": option.way, "cards": [card_data(c) for c in option.cards],
                "target": card_data(option.target)}
    if type(option) is Card:
        return {"what": "card", "text": text, "card": card_data(option)}
    if type(option) is bool:
        return {"what": "yes" if option else "no", "text": text}
    if d.kind == "color":
        return {"what": "color", "text": text, "color": option}
    if d.kind == "player":
        return {"what": "player", "text": text, "seat": option}
    if d.kind == "int":
        return {"what": "int", "text": text, "value": option}
    return {"what": "word", "text": text}
