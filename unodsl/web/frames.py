"""What a page is sent: the table as one seat (or a spectator) sees it, as JSON data.

Everything here comes from `Game.observation(seat)` (engine/view.py), the public
piles and the seat's own pending decision. Another seat's hand is never read: the
others are hand sizes, scores, flags and, with two-sided cards, the backs they show.
Who must decide is told only for a turn (whose turn it is, public at any table):
other questions (a jump-in offer, keeping a drawn card …) would tell what a hand holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from ..engine.actions import Decision, Play
from ..engine.cards import Card
from ..engine.game import Game
from ..engine.view import OpponentView, PlayerView
from ..model import Variant
from ..players.human import KIND_HELP, option_text, question

SHOWN_DISCARDS = 6  # the top cards of the discard pile a page shows


def face_colors(variant: Variant) -> dict[str, str]:
    """Each face's label → its colour ("" for none): to colour a label the view gives
    as text (the top card, a back)."""
    colors: dict[str, str] = {}
    for side in variant.sides:
        for face in side.faces:
            colors.setdefault(face.label, face.color or "")
    return colors


def card_data(card: Card) -> dict[str, Any]:
    return {"label": card.label, "color": card.color or "", "wild": card.wild}


def label_data(label: str, colors: dict[str, str]) -> dict[str, Any]:
    return {"label": label, "color": colors.get(label, "")}


def _order(card: Card) -> tuple[Any, ...]:
    return (card.color is None, card.color or "", card.rank is None, card.rank or 0, card.label)


def public_data(game: Game | None, names: Sequence[str], colors: dict[str, str]) -> dict[str, Any] | None:
    """What everyone sees: the piles, the colour, the side, each seat's size, backs,
    score and flags, whose turn it is and whether someone else is deciding."""
    if game is None:
        return None
    view = game.observation(0)  # the public parts of any seat's view are the same
    # Each seat as the others see it: seat 0 from seat 1's view, the rest from seat 0's.
    first = game.observation(1).opponents[:1] if game.n > 1 else (_alone(view),)
    public = {o.seat: o for o in (*first, *view.opponents)}
    seats = [{"seat": p, "name": names[p], "size": public[p].hand_size, "score": public[p].score,
              "backs": [label_data(b, colors) for b in public[p].backs], "flags": sorted(public[p].flags)}
             for p in range(game.n)]
    d = game.decision
    top = view.top
    return {
        "round": game.round, "turns": game.turns,
        "top": label_data(top, colors) if top is not None else None,
        "discards": [label_data(c, colors) for c in view.discard_pile[-SHOWN_DISCARDS:]],
        "color": view.current_color, "side": view.side, "direction": view.direction,
        "draw_pile": view.draw_pile_size,
        "draw_back": label_data(view.draw_pile_back, colors) if view.draw_pile_back else None,
        "aside": [label_data(c, colors) for c in view.aside],
        "penalty": view.penalty, "dealer": view.dealer, "current": view.current, "seats": seats,
        # whose turn it is; any other question is "someone is deciding", without a name
        "turn": d.player if d is not None and d.kind == "turn" else None,
        "deciding": d is not None and d.kind != "turn",
        "over": game.over, "winner": game.winner,
        "two_sided": view.draw_pile_back is not None or any(o.backs for o in view.opponents),
    }


def _alone(view: PlayerView) -> OpponentView:
    """A table of one: the seat as others would see it."""
    backs = tuple(sorted(c.back.label for c in view.hand if c.back is not None))
    return OpponentView(view.player, len(view.hand), backs, view.scores[view.player], view.flags)


def seat_data(game: Game, seat: int, decision_id: str | None, names: Sequence[str],
              colors: dict[str, str]) -> dict[str, Any]:
    """What only `seat` sees: its hand (each card with the option that plays it, if
    legal now) and its own decision, if one is pending."""
    view = game.observation(seat)
    d = game.decision
    mine = d if d is not None and d.player == seat else None
    plays: dict[int, int] = {}
    if mine is not None:
        for i, option in enumerate(mine.options):
            if type(option) is Play:
                plays.setdefault(id(option.card), i)
    hand = [{**card_data(c), "option": plays.get(id(c)),
             "back": label_data(c.back.label, colors) if c.back is not None else None}
            for c in sorted(view.hand, key=_order)]
    return {"seat": seat, "hand": hand, "flags": sorted(view.flags),
            "decision": decision_data(mine, decision_id, names, view.penalty) if mine is not None else None}


def decision_data(d: Decision, decision_id: str | None, names: Sequence[str], penalty: int) -> dict[str, Any]:
    """A decision as a page shows it: the question, its help, and each option with
    what it is (a card to play, an action word, a colour, a seat, a card, yes or no)."""
    return {"id": decision_id, "kind": d.kind, "prompt": d.prompt,
            "question": Text.from_markup(question(d, names)).plain,
            "help": KIND_HELP.get(d.kind, "Pick one of the options."),
            "about": card_data(d.about) if d.about is not None else None,
            "penalty": penalty,
            "options": [option_data(o, d, names) for o in d.options]}


def option_data(option: Any, d: Decision, names: Sequence[str]) -> dict[str, Any]:
    text = option_text(option, d, names)
    if type(option) is Play:
        return {"what": "play", "text": text, "card": card_data(option.card)}
    if type(option) is Card:
        return {"what": "card", "text": text, "card": card_data(option)}
    if type(option) is bool:
        return {"what": "yes" if option else "no", "text": text}
    if d.kind == "color":
        return {"what": "color", "text": text, "color": option}
    if d.kind == "player":
        return {"what": "player", "text": text, "seat": option}
    return {"what": "word", "text": text}
