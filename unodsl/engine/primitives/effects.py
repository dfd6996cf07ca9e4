"""Effects: functions that change the game (`draw`, `skip`, `move`, `flip`, …).

Each docstring is the function's entry in the generated language reference.
"""

from __future__ import annotations

from typing import Any

from ...errors import GameError, RuntimeFault
from ...lang.program import Lambda
from ...lang.signature import Says
from ..cards import Card
from ..reach import JUMP_IN, PAUSED, Game
from .registry import AT, REGISTRY, place, word

effect = REGISTRY.effect


@effect("who: player, count: int = 1", returns="cards", says=("{who}", "draw{s} {count:amount}"))
def draw(g: Game, who: int, count: int) -> list[Card]:
    """`who` draws `count` cards (COM-1: an empty draw pile is refilled); a player who is
    out of the round draws nothing. Gives the cards drawn (`reveal(draw(next, 2))`)."""
    count = _count(count)
    return g.draw(who, count) if g.seated(who) else []


@effect("who: player, test: fn", returns="cards", says=("{who}", "draw{s} cards until {they} draw {test:some}"))
def draw_until(g: Game, who: int, test: Lambda) -> list[Card]:
    """`who` draws one card at a time until a drawn card passes `test`, or none are left
    (a player who is out of the round draws nothing). Gives the cards drawn."""
    drawn: list[Card] = []
    while g.seated(who) and (got := g.draw(who, 1)):
        drawn += got
        if g.call(test, got[0]):
            break
    return drawn


@effect("cards: cards", says=Says(clause=("", "show {cards} to every player"), cases=(
    ("cards:drawn", Says(clause=("{cards:subject}", "{cards:verb}, face up for everyone to see"))),)))
def reveal(g: Game, cards: list[Card]) -> None:
    """Show `cards` to every player, face up (card_revealed): a card in a hand stays known
    to all while it stays there, e.g. cards turned up for everyone to see, one at a time
    until a colour shows: `reveal(draw_until(next, c -> c.color == named))`."""
    for card in cards:
        holder = next((p for p, h in enumerate(g.hands) if any(c.id == card.id for c in h)), None)
        g.reveal(g.cards[card.id], holder)


@effect("count: int = 1", says=Says(clause=("the next {count} players", "lose{s} {their} turn"), many=True, cases=(
    ("count:one", Says(clause=("the next player", "lose{s} {their} turn"))),)))
def skip(g: Game, count: int) -> None:
    """The next `count` players in turn order lose their turn."""
    g.skips += _count(count)
    g.bent = True


@effect(says=("play", "change{s} direction"))
def reverse(g: Game) -> None:
    """Play changes direction."""
    g.direction = -g.direction
    if g.watching("direction_changed"):
        g.emit("direction_changed", {"player": g.current, "direction": g.direction})


@effect(says=("{player}", "take{s} another turn"))
def play_again(g: Game) -> None:
    """The player whose turn it is takes another turn."""
    g.again = True
    g.bent = True


@effect("who: player", says=("{who}", "play{s} next"))
def start_with(g: Game, who: int) -> None:
    """The next turn is `who`'s, whatever the direction and skips say."""
    g.next_override = who
    g.bent = True


@effect("color: color, by: player = player", says=Says(clause=("the colour to play", "become{s} {color}"), cases=(
    ("color:chosen", Says(clause=("{color.by}", "name{s} the colour to play"))),)))
def set_color(g: Game, color: str, by: int) -> None:
    """The colour to match becomes `color` (as when a wild is named)."""
    if color is None:
        raise RuntimeFault("set_color() was given none, not a colour")
    g.current_color = color
    if g.watching("color_named"):
        g.emit("color_named", {"player": by, "color": color})


@effect("count: int, answer: fn",
        says=("the next player", "must draw {count:cards} unless {they} answer with {answer:some}, which passes the "
                                 "growing total on; whoever takes the draw ends their turn"))
def pending_draw(g: Game, count: int, answer: Lambda) -> None:
    """Add `count` to a draw the next player must take on their turn, unless they
    answer with a legal card that passes `answer` (stacking); taking it ends the turn."""
    g.penalty += _count(count)
    g.penalty_answer = answer
    if g.watching("penalty_added"):
        g.emit("penalty_added", {"player": g.current, "total": g.penalty})


@effect("a: player, b: player", says=("{a}", "swap{s} hands with {b}"))
def swap_hands(g: Game, a: int, b: int) -> None:
    """`a` and `b` exchange their whole hands (not with a player who is out of the round)."""
    if a == b or not (g.seated(a) and g.seated(b)):
        return
    g.hands[a], g.hands[b] = g.hands[b], g.hands[a]
    g.hands_moved({a: b, b: a})
    g.took_from_hand(a)
    g.took_from_hand(b)
    if g.watching("hands_swapped"):
        g.emit("hands_swapped", {"player": a, "other": b})
    for p in (a, b):
        if g.watching("hand_changed"):
            g.emit("hand_changed", {"player": p, "size": len(g.hands[p])})


@effect("giver: player, receiver: player, card: card", says=("{giver}", "give{s} {card} to {receiver}"))
def give(g: Game, giver: int, receiver: int, card: Card | None) -> None:
    """`giver` hands `card` from their hand to `receiver` (not to a player who is out of the round)."""
    card = None if card is None else g.cards[card.id]  # as it shows now, even if read before a flip
    if card is None or card not in g.hands[giver] or not g.seated(receiver):
        return
    g.hands[giver].remove(card)
    g.hands[receiver].append(card)
    g.took_from_hand(giver)
    if g.watching("card_given"):
        g.emit("card_given", {"player": giver, "other": receiver, "card": card})
    for p in (giver, receiver):
        if g.watching("hand_changed"):
            g.emit("hand_changed", {"player": p, "size": len(g.hands[p])})


@effect(f"source: zone, target: zone, count: int = 1, at: {AT} = 'top'",
        says=Says(clause=("", "put the top {count:cards} of {source:zone} {target:onto}"), cases=(
            ("count:one", Says(clause=("", "put the top card of {source:zone} {target:onto}"))),)))
def move(g: Game, source: list[Card], target: list[Card], count: int, at: str) -> None:
    """Move `count` cards from the top of `source` to the top (or `at: "bottom"`) of `target`
    (as many as there are, and as `target` has room for: see `zones:`' capacity)."""
    count = min(_count(count), len(source))
    room = g.room(target)
    moved = [source.pop() for _ in range(count if room is None else min(count, room))]
    _put(g, moved, source, target, at)


@effect(f"source: zone, target: zone, at: {AT} = 'top'", says=("", "put all of {source:zone} {target:onto}"))
def move_all(g: Game, source: list[Card], target: list[Card], at: str) -> None:
    """Move every card of `source` onto `target`, keeping their order (the top ones, as
    many as `target` has room for)."""
    room = g.room(target)
    if room is not None and room < len(source):
        moved = source[:-room - 1:-1] if room else []
        del source[len(source) - room:]
    else:
        moved = source[::-1]
        source.clear()
    _put(g, moved, source, target, at)


def _put(g: Game, moved: list[Card], source: list[Card], target: list[Card], at: str) -> None:
    place(target, moved, at)
    if moved:
        for p, h in enumerate(g.hands):
            if h is source:
                g.took_from_hand(p)
    if moved and g.watching("cards_moved"):
        g.emit("cards_moved", {"player": g.current, "source": g.zone_name(source),
                               "target": g.zone_name(target), "count": len(moved), "cards": list(moved)})
    for p, h in enumerate(g.hands):
        if moved and (h is source or h is target) and g.watching("hand_changed"):
            g.emit("hand_changed", {"player": p, "size": len(h)})


@effect("zone: zone = draw_pile", says=("", "shuffle {zone:zone}"))
def shuffle(g: Game, zone: list[Card]) -> None:
    """Shuffle a pile with the game's seeded random generator."""
    g.shuffle(zone)
    if g.watching("shuffled"):
        g.emit("shuffled", {"player": g.dealer, "zone": g.zone_name(zone)})


@effect("count: int", says=("", "deal {count:cards} to each player, one at a time, starting on the dealer's left"))
def deal(g: Game, count: int) -> None:
    """Deal `count` cards to each player, one at a time, starting left of the dealer."""
    pile, n = g.draw_pile, g.n - len(g.out)
    count = _count(count)
    dealt = pile[:-count * n - 1:-1]  # the top count*n cards, top first
    del pile[len(pile) - len(dealt):]
    for i in range(n):  # card k goes to the (k mod n)-th player (still in) left of the dealer
        g.hands[g.next_in(g.dealer, i + 1, 1)].extend(dealt[i::n])
    if g.watching("dealt"):
        for p in range(g.n):
            g.emit("dealt", {"player": p, "count": len(g.hands[p])})


@effect(says=("", "turn the top card of the draw pile face up onto the discard pile"))
def turn_up(g: Game) -> None:
    """Turn the top card of the draw pile onto the discard pile."""
    if not g.draw_pile:
        g.refill()
    if g.draw_pile:
        card = g.draw_pile.pop()
        g.previous_top = g.discard_pile[-1] if g.discard_pile else None
        g.discard_pile.append(card)
        g.current_color = card.color
        if g.watching("card_turned"):
            g.emit("card_turned", {"player": g.dealer, "card": card})


@effect(says=(None, "every card turns over (the hands, and each pile as a whole), and the other side is now in play"))
def flip(g: Game) -> None:
    """Turn every card over: hands, and each pile as a whole; the other side is now in play."""
    if len(g.variant.sides) < 2:
        raise RuntimeFault("flip() in a variant whose cards have one side")
    g.turn_over(1 - g.side)
    top_card = g.discard_pile[-1] if g.discard_pile else None
    g.current_color = top_card.color if top_card else None
    if g.watching("flipped"):
        g.emit("flipped", {"player": g.current, "side": g.variant.sides[g.side].name})


@effect("card: card, by: player = player, effect: bool = true", says=Says(clause=("{by}", "play{s} {card}"), cases=(
    ("effect=false", Says(clause=("{by}", "play{s} {card} without its effect"))),)))
def play(g: Game, card: Card | None, by: int, effect: bool) -> Any:
    """`by` plays `card` from hand; with `effect: false` its action does not apply."""
    card = None if card is None else g.cards[card.id]  # as it shows now, even if read before a flip
    if card is not None and card in g.hands[by]:
        return PAUSED if g.play(by, card, effect) else None
    return None


@effect("card: card, by: player = player", says=(None, "{card:poss} effect applies, as if {by} had played it"))
def apply(g: Game, card: Card | None, by: int) -> Any:
    """Run `card`'s on_play as if `by` had just played it."""
    if card is not None and card.on_play:
        return PAUSED if g.run(card.on_play, {"player": by, "card": card}) else None
    return None


@effect("test: fn, after: player = player",
        says=("any other player", "may play {test:some} out of turn, in turn order from the next player; the first "
                                  "who does takes the turn over, and play goes on from them"))
def jump_in(g: Game, test: Lambda, after: int) -> Any:
    """Out-of-turn play: every other player, in turn order from the one after `after`,
    who holds cards that pass `test` may play one of them on the top card or pass.
    The first who plays takes the turn over — what the turn had pending (skips, an
    extra turn) is dropped, their card takes effect, and play goes on from them —
    and the offer goes round again from them. Each top card is offered once; e.g.
    a rule `on: turn_end` with `jump_in(c -> c.color == top.color and c.symbol == top.symbol)`."""
    return PAUSED if g.run(JUMP_IN, {"test": test, "after": after}) else None


@effect("who: player, flag: str", says=("{who}", "{is} marked {flag}"))
def flag(g: Game, who: int, flag: str) -> None:
    """Mark `who` with `flag` until unflagged or the round ends."""
    g.flags[who].add(flag)
    if g.watching("flagged"):
        g.emit("flagged", {"player": who, "flag": flag})


@effect("who: player, flag: str", says=("{who}", "{is} no longer marked {flag}"))
def unflag(g: Game, who: int, flag: str) -> None:
    """Remove `flag` from `who`."""
    g.flags[who].discard(flag)


@effect("value: fn", returns="player", says=Says(
    noun="the player who cuts {value:highest} (each player cuts a card; ties cut again)",
    act=(None, "each player cuts a card, and the one who cuts {value:highest} wins (ties cut again)")))
def cut(g: Game, value: Lambda) -> int:
    """Each player cuts a card from the shuffled draw pile; the highest `value` wins
    (ties cut again; after 100 tied cuts the first tied seat wins). The cards go
    back and the pile is shuffled. Gives the winner."""
    contenders = list(range(g.n))
    if len(g.draw_pile) < g.n:
        raise GameError(f"{g.n} players cannot cut a draw pile of {len(g.draw_pile)} cards")
    for _ in range(CUT_GUARD):
        if len(contenders) == 1:
            break
        g.shuffle(g.draw_pile)
        cut_cards = {p: g.draw_pile[-1 - i] for i, p in enumerate(contenders)}
        values = {p: _cut_value(g.call(value, c), c) for p, c in cut_cards.items()}
        for p, c in cut_cards.items():
            if g.watching("cut"):
                g.emit("cut", {"player": p, "card": c})
        best = max(values.values())
        contenders = [p for p in contenders if values[p] == best]
    g.shuffle(g.draw_pile)
    return contenders[0]


CUT_GUARD = 100


def _cut_value(v: Any, card: Card) -> int:
    if v is None or v is False:
        return 0
    if isinstance(v, bool) or not isinstance(v, int):
        raise GameError(f"cut: the value of {card.label} is {v!r}, not a number")
    return v


def _count(count: int) -> int:
    """A count given to an effect; a negative one is the variant's mistake, not "from the end"."""
    if count < 0:
        raise GameError(f"an effect was given a count of {count}; counts are 0 or more")
    return count


@effect(f"who: player, to: zone = draw_pile, at: {AT} = 'bottom', out_of: str{{round|game}} = 'round'",
        says=("{who}", "{is} out of the {out_of:round_or_game}, {their} cards going {at:onto_or_under} {to}"))
def eliminate(g: Game, who: int, to: list[Card], at: str, out_of: str) -> None:
    """`who` is out of the round: their cards go to `to` (under the draw pile unless
    told otherwise; `at: "top"` puts them on top), play passes over them, and no
    name (`next`, `players`, `opponents`, `others` …) gives them until the next round,
    when they are back in; with `out_of: "game"` they stay out of every later round
    too. When one player (with teams, one team) is left, they win the round (the first
    of them in seat order); the last player in is never put out, and a player out
    never wins the game."""
    if who in g.out or len(g.out) >= g.n - 1:
        return
    hand = g.hands[who]
    held = len(hand)
    if hand is not to:
        moved = hand[::-1]
        place(to, moved, at)
        hand.clear()
        g.hands_moved({who: None})  # what everyone had seen of it is in a pile now
    g.put_out(who, for_game=word(out_of, ("round", "game"), "out_of") == "game")
    if g.watching("eliminated"):
        g.emit("eliminated", {"player": who, "count": held, "zone": g.zone_name(to)})


@effect("who: player", says=("{who}", "win{s} the round"))
def win_round(g: Game, who: int) -> None:
    """The round ends with `who` its winner, as if they had gone out, once the turn
    (or set-up) in progress is over with its effects and rules; the round is scored
    as usual. A round already won keeps its first winner."""
    g.win_round(who)


@effect("who: player, points: int", says=("{who}", "score{s} {points:points}"))
def add_score(g: Game, who: int, points: int) -> None:
    """Add `points` (may be negative) to `who`'s game score at once; with `teams:`,
    to their team's score (every partner's `score`)."""
    g.add_score(who, points)


@effect("who: player, points: int", says=("{who:poss} score", "become{s} {points}"))
def set_score(g: Game, who: int, points: int) -> None:
    """Set `who`'s game score (with `teams:`, their team's) to `points`."""
    g.add_score(who, points - g.scores[who])
