"""The table's operations: cards played, drawn and shuffled, who is seated and whose turn
comes next, and what may be played (the scores are scores.py's). The primitives of the language and the
flow of rounds and turns (flow.py) are written with these.

The table is a part of the game, not a class it descends from: each operation is a
function of the game's state (`g`, state.State), bound to the game by engine/game.py as
a member of the same name (`g.play`, `g.draw` …). It calls its own functions and the
machine's (machine.py: emit, faults) directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import floor
from typing import Any

from ..errors import RunawayRound, RuntimeFault, VariantRuntimeError
from ..lang.program import Program
from .cards import Card
from .frames import new_run
from .machine import _value, emit, fault
from .state import State, generator
from .template import Template, function
from .zones import by_labels, clear_places

# The seats in turn order from each seat, by (players, direction) (see seats_from).
_ORDERS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


# -- cards ----------------------------------------------------------------------
play = function(Template("play", doc=(
    "`p` plays `card`: put down, the rules that queued, then its on_play (unless not `effect`); "
    "True if a player must be asked before it is all done. Not counted as nesting: each play takes "
    "a card from a hand, so plays end."), params=("p", "card", "effect"), defaults=("True",), body="""
    $hand = %hands[$p]
    $hand.remove($card)
    if not $hand and g.emptied is None:
        g.emptied = $p
    if g.revealed:
        g._still_shown($p)
    $pile = %discard_pile
    g.previous_top = $pile[-1] if $pile else None
    $pile.append($card)
    if $card.color is not None:
        g.current_color = $card.color
    #if loud_play:
        if %played is not None:
            %played[$card.kind_id] += 1
        #if tell_play and watched(card_played):
            #emit card_played {'player': $p, 'card': $card}
        #if tell_play and watched(hand_changed):
            #emit hand_changed {'player': $p, 'size': len($hand)}
    #if $effect:
        $program = $card.on_play
    #else:
        $program = ()
    $paused = False
    #if rules and %_queue and g.drain():
        $paused = g.after_rules($program, $p, $card)
    #elif $program:
        $run = $card.run
        $env = {'player': $p, 'card': $card}
        $paused = $run(g, $env) if $run is not None else g.perform($program, $env)
""", value="$paused"), __name__)


def after_rules(g: State, program: Program, p: int, card: Card) -> bool:
    """The rules a play queued wait for a player: the card's effect (if it has one) runs
    after them. True: the play paused."""
    if program:
        g._paused.append(new_run((program, 0, {"player": p, "card": card}, 0)))
    return True


draw = function(Template("draw", doc="`p` draws up to `count` cards; an empty pile is refilled (COM-1).",
                         params=("p", "count"), body="""
    $pile = %draw_pile
    if $count == 1 and $pile and not %_loud_draw:
        $got = [$pile.pop()]
        %hands[$p].append($got[0])
    else:
        $got = g._draw($p, $count)
""", value="$got"), __name__)


draw_one = function(Template("draw_one", doc=(
    "`p` draws a card (draw, for one card): taken in place unless someone hears each card drawn, or the "
    "pile must be refilled first."), params=("p",), body="""
    #if not loud_draw and %draw_pile:
        $got = [%draw_pile.pop()]
        %hands[$p].append($got[0])
    #elif loud_draw and not watched(card_drawn) and %draw_pile:
        $got = [%draw_pile.pop()]
        %hands[$p].append($got[0])
        #emit hand_changed {'player': $p, 'size': len(g.hands[$p])}
    #else:
        $got = g._draw($p, 1)
""", value="$got"), __name__)
# (A loud draw whose cards no one hears one by one is heard as hand_changed alone.)


def _draw(g: State, p: int, count: int) -> list[Card]:
    pile = g.draw_pile
    hand = g.hands[p]
    if 0 < count <= len(pile) and not (g._loud_draw and "card_drawn" in g._watch):
        # all there, and no card told one by one: taken at once, top first
        if count == 1:
            got = [pile.pop()]
        else:
            got = pile[:-count - 1:-1]
            del pile[-count:]
        hand += got
    else:
        got = []
        for _ in range(count):
            if not pile:
                refill(g)
                if not pile:
                    if "draw_short" in g._watch:
                        emit(g, "draw_short", {"player": p, "missing": count - len(got)})
                    break
            card = pile.pop()
            hand.append(card)
            got.append(card)
            if g._loud_draw and "card_drawn" in g._watch:
                emit(g, "card_drawn", {"player": p, "card": card})
    if got and g._loud_draw and "hand_changed" in g._watch:
        emit(g, "hand_changed", {"player": p, "size": len(hand)})
    return got


def refill(g: State) -> None:
    """Shuffle all but the top of the discard pile into the draw pile (COM-1)."""
    discard = g.discard_pile
    if len(discard) <= 1:
        return
    top = discard.pop()
    g.draw_pile.extend(discard)
    discard.clear()
    discard.append(top)
    shuffle(g, g.draw_pile)
    if "reshuffled" in g._watch:
        emit(g, "reshuffled", {"player": g.current, "count": len(g.draw_pile)})


def shuffle(g: State, zone: list[Card]) -> None:
    """Shuffle a pile with the game's generator: Fisher–Yates, each index from
    one random() (its bias, under k / 2**53 for k cards, is far below anything a
    simulation could see; random.shuffle's exact draws cost half as much again)."""
    if g._stacked is None:
        rand = generator(g).random
        for i in range(len(zone) - 1, 0, -1):
            j = floor(rand() * (i + 1))  # int() for a value ≥ 0, without the call of a type
            zone[i], zone[j] = zone[j], zone[i]


def turn_over(g: State, side: int) -> None:
    """Show face `side` of every card: the other side's cards take their places;
    piles turn over as a whole (FLIP-8)."""
    g.side = side
    cards = g.cards = g._decks[side]
    for zone in (g.draw_pile, g.discard_pile, g.aside, *g.hands):
        zone[:] = [cards[c.id] for c in zone]
    g.draw_pile.reverse()
    g.discard_pile.reverse()
    g.aside.reverse()
    if g.places or g.seat_places:
        piles = {z.name for z in g.variant.zones if z.shape == "pile"}
        for name, zs in [*((n, [z]) for n, z in g.places.items()), *g.seat_places.items()]:
            for zone in zs:
                zone[:] = [cards[c.id] for c in (reversed(zone) if name in piles else zone)]
    if g.previous_top is not None:
        g.previous_top = cards[g.previous_top.id]


def reset_round(g: State) -> None:
    """A new round's table: every card back in the draw pile (the first round's are
    already there), everyone back in but those out of the game."""
    if g.round == 1:  # a new game: everything is as the start left it but the draw pile
        g.draw_pile[:] = g.cards if g._stacked is None else by_labels(g,
            {"draw": g._stacked})["draw"]
        return
    if g.side != 0:
        turn_over(g, 0)
    for zone in (g.discard_pile, g.aside, *g.hands):
        zone.clear()
    clear_places(g)
    g.draw_pile[:] = g.cards
    for flags in g.flags:
        flags.clear()
    g.revealed.clear()
    g.named.clear()
    if g.played is not None:
        g.played[:] = [0] * len(g.played)
    start_round(g)


def start_round(g: State) -> None:
    """What every round starts with (a new game's first too): play goes clockwise, no
    colour to match and no top card before it, nothing pending, no winner yet, no turn
    played, everyone in but those out of the game."""
    g.direction = 1
    g.current_color = None
    g.previous_top = None
    g.penalty = 0
    g.penalty_answer = None
    g.skips = 0
    g.again = False
    g.next_override = None
    g.round_winner = None
    g.emptied = None  # the first hand emptied since the last check (see went_out)
    g.offered = None  # the top card last offered for out-of-turn plays (its id)
    g.turns = 0
    g.laid = ()
    g.out, g._newly_out = g.out_of_game, frozenset()  # those put out since the turn began
    g.bent = bool(g.out)  # the next turn is not simply the next seat's (see flow.advance)


# -- hands ----------------------------------------------------------------------
def took_from_hand(g: State, p: int) -> None:
    """Note that cards left `p`'s hand (every primitive that takes cards from a
    hand calls this): an empty hand ends the round after the current step, and a
    card shown to everyone that left it is private again wherever it goes."""
    if g.emptied is None and not g.hands[p]:
        g.emptied = p
    if g.revealed:
        _still_shown(g, p)


def reveal(g: State, card: Card, holder: int | None) -> None:
    """Show `card` to every player (card_revealed); held by `holder`, it stays known
    while it stays in their hand (a hand passed or swapped whole keeps it known)."""
    if holder is not None:
        g.revealed[card.id] = holder
    if "card_revealed" in g._watch:
        emit(g, "card_revealed", {"player": g.current if holder is None else holder, "card": card})


def shown(g: State, p: int) -> list[Card]:
    """The cards of `p`'s hand that everyone has seen (see reveal)."""
    revealed = g.revealed
    return [c for c in g.hands[p] if revealed.get(c.id) == p] if revealed else []


def hands_moved(g: State, to: Mapping[int, int | None]) -> None:
    """Whole hands moved (old seat → new seat): cards shown stay shown in their new seat;
    a hand sent to None (a pile, a deal face down) is private again."""
    if g.revealed:
        moved = {c: to.get(q, q) for c, q in g.revealed.items()}
        g.revealed = {c: q for c, q in moved.items() if q is not None}


def _still_shown(g: State, p: int) -> None:
    held = {c.id for c in g.hands[p]}
    g.revealed = {c: q for c, q in g.revealed.items() if q != p or c in held}


def went_out(g: State) -> bool:
    """End the round if a hand is empty, once the step that emptied it is over
    (a set-up, a turn with its effects and rules): the winner is the first hand
    emptied since the last check, or else the first empty hand in seat order.
    The turn calls it only when `emptied` is set, so it scans no hands."""
    first, g.emptied = g.emptied, None
    if g.round_winner is not None:  # already won (win_round, or the last player left)
        return True
    hands, out = g.hands, g.out
    if first is not None and not hands[first] and first not in out:
        g.round_winner = first
    elif not all(hands):
        g.round_winner = next((q for q, h in enumerate(hands) if not h and q not in out), None)
    return g.round_winner is not None


# -- seats ----------------------------------------------------------------------
def seated(g: State, p: int) -> bool:
    """True if `p` takes part in the round: not out (see put_out). Every primitive that
    walks the table, deals, passes, gives or asks goes by this (or in_order/next_in)."""
    return p not in g.out


def next_in(g: State, p: int, step: int = 1, direction: int | None = None) -> int:
    """The player `step` places after `p` among those still in (in the current
    direction, or `direction`); step 0: `p` if they are in, else the next one in."""
    d = g.direction if direction is None else direction
    n, out = g.n, g.out
    if not out:
        return (p + step * d) % n
    if step == 0:
        step = 1
        p = (p - d) % n
    for _ in range(n):
        p = (p + d) % n
        if p not in out:
            step -= 1
            if step == 0:
                return p
    return p


def seats_from(g: State, p: int) -> Sequence[int]:
    """Every player still in, in turn order from `p` (as in_order), for reading only:
    without players out, a tuple shared by all games of as many players."""
    if g.out:
        return in_order(g, p)
    orders = _ORDERS.get((g.n, g.direction))
    if orders is None:
        n, d = g.n, g.direction
        orders = _ORDERS[(n, d)] = tuple(tuple((q + i * d) % n for i in range(n)) for q in range(n))
    return orders[p]


def in_order(g: State, p: int, direction: int | None = None) -> list[int]:
    """Every player still in, in turn order from `p` (first, if `p` is in)."""
    d = g.direction if direction is None else direction
    n, out = g.n, g.out
    return [q for q in ((p + i * d) % n for i in range(n)) if q not in out]


def team(g: State, p: int) -> int:
    """`p`'s team number (with `teams:`), else `p`: each player is a team of one."""
    return p if g.team_of is None else g.team_of[p]


def put_out(g: State, p: int, for_game: bool = False) -> None:
    """`p` is out of the round (see the effect eliminate), and of every later round
    `for_game`: play passes over them. When one player, or the players of one team,
    are left, the first of them wins the round. The last player in is never put out."""
    if p in g.out or len(g.out) >= g.n - 1:
        return
    g.out |= {p}
    g.bent = True
    if for_game:
        g.out_of_game |= {p}
    g._newly_out |= {p}
    left = [q for q in range(g.n) if q not in g.out]
    if len({team(g, q) for q in left}) == 1:
        win_round(g, left[0])


def win_round(g: State, p: int) -> None:
    """The round ends with `p` its winner once the step in progress is over (the
    turn, with its effects and rules); a round already won keeps its winner, and a
    player who is out never wins it."""
    if g.round_winner is None and p not in g.out:
        g.round_winner = p


advance_bent = function(Template("advance_bent", doc=(
    "Whose turn is next when the turn bent the order (see advance): the chosen next player, the same "
    "player again, or past the skipped ones (each told, skipped); with players out, see advance_in."),
    body="""
    if g.out:
        g.advance_in()
    elif g.next_override is not None:
        g.current = g.next_override
        g.skips, g.again, g.next_override = 0, False, None
    elif g.again:
        g.skips, g.again = 0, False
    else:
        #if watched(skipped):
            g.tell_skipped()
        g.current = (g.current + (g.skips + 1) * g.direction) % %n
        g.skips = 0
    g.bent = bool(g.out)
"""), __name__)


advance = function(Template("advance", doc=(
    "Whose turn is next: the next player in the direction of play, or as the turn asked (`bent`: "
    "skips, another turn, a chosen next player, players out; see advance_bent)."), body="""
    if g.bent:
        #call advance_bent()
    else:
        g.current = (g.current + g.direction) % %n
"""), __name__)


def tell_skipped(g: State) -> None:
    """Each player the turn's skips pass over is told once (skipped), before play moves on."""
    for k in range(1, min(g.skips, g.n) + 1):
        emit(g, "skipped", {"player": (g.current + k * g.direction) % g.n})


def advance_in(g: State) -> None:
    """Whose turn is next, when players are out (see advance_bent). A skip passes over the seats of the players
    who were in when the turn began (one put out during the turn, e.g. by the draw
    that came with the skip, still counts), and the turn lands on the next player
    still in from there."""
    out, gone = g.out, g._newly_out
    p, d, n = g.current, g.direction, g.n
    if g.next_override is not None:
        q = g.next_override
    elif g.again:
        q = p
    else:
        seats = [s for s in ((p + i * d) % n for i in range(1, n + 1)) if s not in out or s in gone]
        k = g.skips
        q = seats[k % len(seats)]
        if k and "skipped" in g._watch:
            for s in seats[:min(k, len(seats))]:  # each player still in is told once
                if s not in out:
                    emit(g, "skipped", {"player": s})
    g.current = next_in(g, q, 0) if q in out else q
    g.skips = 0
    g.again = False
    g.next_override = None
    g._newly_out = frozenset()


# -- what may be played -------------------------------------------------------------
fits = function(Template("fits", doc=(
    "True if `by` could legally play `card` on a table whose matching faces are `faces` (a pure "
    "match: playable, the faces found once)."), params=("card", "by", "faces"), body="""
    try:
        $test = $card.legal_if
        $legal = $card.face_id in $faces and ($test is None or bool($test(g, {'player': $by, 'card': $card})))
    except (VariantRuntimeError, RecursionError):
        raise
    except Exception as $err:
        raise g.blame($err, {'player': $by, 'card': $card}) from $err
""", value="$legal", globals={"VariantRuntimeError": VariantRuntimeError}), __name__)

playable = function(Template("playable", doc="True if `by` could legally play `card` now.", params=("card", "by"),
                             body="""
    #if pure_match:
        $faces = %_memo[%discard_pile[-1].face_id if %discard_pile else -1].get(g.current_color)
        if $faces is None:
            $faces = g.matching_faces()
        #call $legal = fits($card, $by, $faces)
    #else:
        try:
            $test = $card.legal_if
            $env = {'player': $by, 'card': $card}
            $legal = bool(g._match(g, $env)) and ($test is None or bool($test(g, {'player': $by, 'card': $card})))
        except (VariantRuntimeError, RecursionError):
            raise
        except Exception as $err:
            raise g.blame($err, {'player': $by, 'card': $card}) from $err
""", value="$legal", globals={"VariantRuntimeError": VariantRuntimeError}), __name__)
# (This is also the language's `playable`. Its conditions get their own variables: a
# card's legal_if may ask whether other cards are playable.)


def allows(g: State, card: Card, p: int) -> bool:
    """`card`'s legal_if holds for `p` now (read in the turn's variables, for blame)."""
    env = g._legal_env
    env["player"], env["card"] = p, card
    return bool(card.legal_if(g, env))  # type: ignore[misc]


def matching_faces(g: State) -> frozenset[int]:
    """The faces that match the top card and colour now, computed once per
    (top face, colour) for the variant: a pure match reads nothing else. A fault of the
    match is blamed on it."""
    pile = g.discard_pile
    face = pile[-1].face_id if pile else -1
    color = g.current_color
    memo = g._memo
    assert memo is not None
    by_color = memo[face]  # two plain lookups: no key tuple to build and hash
    faces = by_color.get(color)
    if faces is None:
        env: dict[str, Any] = {"player": g.current}
        matching = set()
        for card in {c.face_id: c for d in g._decks for c in d}.values():
            env["card"] = card
            try:
                if g._match(g, env):
                    matching.add(card.face_id)
            except (VariantRuntimeError, RecursionError):
                raise
            except Exception as err:
                raise blame(g, err, env) from err
        faces = by_color[color] = frozenset(matching)
    return faces


def blame(g: State, err: Exception, env: dict[str, Any] | None = None) -> VariantRuntimeError:
    """`err` came from the match, a card's legal_if or the draw rule's allowed_if
    (conditions have no effects), given `env` (by default the turn's): the first
    that fails again is to blame."""
    env = g._legal_env if env is None else env
    card = env.get("card")
    for test in (g._match, getattr(card, "legal_if", None), g._draw_rule.allowed_if):
        if test is None:
            continue
        try:
            test(g, dict(env))
        except Exception:
            return fault(g, err, test)
    return fault(g, err, None)


def amount(g: State, amount: Any, p: int) -> Any:
    """A number of the turn's draw rule: written, or its expression's value for `p`."""
    if amount is None or type(amount) is int:
        return amount
    value = _value(g, amount, p)
    if value is None or value < 0:
        raise fault(g, RuntimeFault(f"the number of cards to draw is {value}; it must be 0 or more"),
                    amount)
    return value


def runaway(g: State) -> None:
    raise RunawayRound(f"round {g.round} passed {g.max_turns:,} turns with no "
                       "winner (raise max_turns, or check the variant's rules)")
