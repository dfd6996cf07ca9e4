"""Choices: questions put to a player's agent (`choose_color`, `ask`, …).

Each docstring is the function's entry in the generated language reference.
"""

from __future__ import annotations

from ...errors import RuntimeFault
from ...lang.signature import Says
from ..actions import Decision
from ..cards import Card
from ..reach import Game, decision
from .registry import REGISTRY

choice = REGISTRY.choice
CARD_PROMPT = "pick a card"  # a card choice's prompt; its `for` follows it
MOST_NUMBERS = 1_000  # the most numbers one choose_number may offer (a wider range is a mistake)


@choice("by: player = player", returns="color",
        says=Says(noun="a colour of {by:poss} choice", clause=("{by}", "name{s} a colour")))
def choose_color(g: Game, by: int) -> Decision:
    """`by` names one of the colours of the side in play (a player out of the round
    cannot be asked: that is an error)."""
    if by in g.out:
        raise RuntimeFault(f"player {by} is out of the round and cannot name a colour")
    return decision((by, "color", g.variant.sides[g.side].colors, "name a colour", None))  # (Decision, made fast)


@choice("options: players, by: player = player", returns="player", none=True,
        says=Says(noun="{options:one_of} of {by:poss} choice", clause=("{by}", "choose{s} {options:one_of}")))
def choose_player(g: Game, options: list[int], by: int) -> Decision | None:
    """`by` picks one of `options` who is still in the round (none if there is no one to
    pick, or `by` is out of the round)."""
    seats = tuple(q for q in options if g.seated(q))
    return Decision(by, "player", seats, "pick a player") if seats and g.seated(by) else None


@choice("options: cards, by: player = player, for: str = none", returns="card", none=True,
        says=Says(noun="a card of {by:poss} choice from {options:zone}{for:purpose}",
                  clause=("{by}", "choose{s} a card from {options:zone}{for:purpose}")))
def choose_card(g: Game, options: list[Card], by: int, for_: str | None) -> Decision | None:
    """`by` picks one of the cards `options` (none if there is none, or `by` is out of the round).
    `for` says what the card is for, in the player's words after "pick a card": `choose_card(hand,
    for: "to give away")` asks "pick a card to give away"."""
    if not options or by in g.out:
        return None
    return Decision(by, "card", tuple(options), f"{CARD_PROMPT} {for_}" if for_ else CARD_PROMPT)


@choice("lo: int, hi: int, by: player = player", returns="int",
        says=Says(noun="a number from {lo} to {hi} of {by:poss} choice",
                  clause=("{by}", "choose{s} a number from {lo} to {hi}")))
def choose_number(g: Game, lo: int, hi: int, by: int) -> Decision:
    """`by` picks a whole number from `lo` to `hi`, both included (for example a wild card
    naming its number: `n = choose_number(0, 9)`). An empty range (`hi` below `lo`), one of
    more than 1,000 numbers, or a player out of the round is an error."""
    if hi < lo:
        raise RuntimeFault(f"choose_number({lo}, {hi}) has no number to choose: {hi} is below {lo}")
    if hi - lo >= MOST_NUMBERS:
        raise RuntimeFault(f"choose_number({lo}, {hi}) offers {hi - lo + 1:,} numbers; "
                           f"at most {MOST_NUMBERS:,} can be offered")
    if by in g.out:
        raise RuntimeFault(f"player {by} is out of the round and cannot choose a number")
    return Decision(by, "int", tuple(range(lo, hi + 1)), "pick a number")


@choice("who: player, question: str, about: card = none", returns="bool",
        says=Says(act=("{who}", "decide{s} whether to {question:question}{about:looking_at}"),
                  clause=("{who}", "choose{s} to {question:question}"),
                  negative=("{who}", "{do} not {question:question}")))
def ask(g: Game, who: int, question: str, about: Card | None) -> Decision | bool:
    """`who` answers yes or no to `question` (for example "challenge" or "call_uno");
    `about` is a card shown to them with the question. A player out of the round is
    not asked: the answer is false."""
    if who in g.out:
        return False
    return Decision(who, "ask", (True, False), question, about)
