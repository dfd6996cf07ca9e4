"""The flow of a game as programs: rounds, and the turns of a round, built once per variant
from its `round:` and `turn:` settings, in the same steps as every effect program (and so
run, paused, resumed, cloned and compiled the same way). The jump-in offer is a program
too. Each step is one function here; what the variant's settings fix is folded in when
the program is built (a draw that keeps the card drawn has no offer step).

    game  = LOOP while no one has won: round
    round = begin_round; setup; end_setup; LOOP while the round goes on: turn; end_round; end_game
    turn  = begin_turn; CHOOSE action; IF a draw: (draw; offer it; play it) ELSE play it;
            end_turn; next_turn

Rules queued by a step run after it, as in every program.
"""

from __future__ import annotations

from typing import Any

from ..errors import GameError, VariantRuntimeError
from ..lang.program import CHOOSE, DO, FOR, IF, LET, LOOP, Program
from ..model import Variant
from .actions import DRAW, KEEP, PASS, Decision
from .cards import Card
from .machine import PAUSED, decision
from .table import Table

Env = dict[str, Any]
HERE = (None, "")  # where a flow step stands in the variant file: nowhere (its faults name their cause)


# -- rounds ---------------------------------------------------------------------------
def game_on(g: Table, e: Env) -> bool:
    """The game goes on until someone has won it."""
    return g.winner is None


def begin_round(g: Table, e: Env) -> None:
    """A round begins: the table is reset, the dealer chosen, round_start told."""
    g.round += 1
    if g.round > g.max_rounds:
        target = g.variant.scoring.target
        goal = "the game never ended" if target is None else f"no one reached the target score of {target:,}"
        raise GameError(f"{g.max_rounds:,} rounds and {goal}; the variant never ends")
    g.reset_round()
    v = g.variant
    pick = v.first_dealer if g.round == 1 else v.next_dealer
    if pick is not None:
        g.dealer = g._value(pick, g.dealer) % g.n
    g.current = g.dealer
    if "round_start" in g._watch:
        g.emit("round_start", {"player": g.dealer, "round": g.round})


def setup(g: Table, e: Env) -> Any:
    """The variant's set-up program, run by the dealer (`player`)."""
    return PAUSED if g.perform(g.variant.setup, {"player": g.dealer}) else None


def end_setup(g: Table, e: Env) -> None:
    """After the set-up (a hand may be empty: a first card's effect), the first player."""
    if not g.went_out():
        advance(g, e)


def round_on(g: Table, e: Env) -> bool:
    """The round goes on until it has a winner."""
    return g.round_winner is None


def end_round(g: Table, e: Env) -> None:
    """The round is scored (round_end); its rules run before the game-end check."""
    g.score_round()


def end_game(g: Table, e: Env) -> None:
    """Has someone won the game (a target reached, `game_over`)?"""
    g.game_over()


# -- a turn ---------------------------------------------------------------------------
def begin_turn(g: Table, e: Env) -> None:
    """A turn begins: `player` is whose it is (turn_start); past max_turns the round is a runaway."""
    if g.turns >= g.max_turns:
        g.runaway()
    g.turns += 1
    e["player"] = g.current
    if g._loud_turn and "turn_start" in g._watch:
        g.emit("turn_start", {"player": g.current})


def turn_choice(g: Table, e: Env) -> Any:
    """The turn's decision: play one of the legal cards (those that match, and pass their
    `legal_if`; under a pending penalty, those that answer it), draw (or take the penalty;
    unless must-play holds a card, or allowed_if says no), or pass when nothing else is
    possible."""
    p = e["player"]
    hand = g.hands[p]
    plays = g._plays
    options: list[Any] = []
    try:
        if g.penalty:
            answer = g.penalty_answer
            for c in hand:
                if answer is not None and g.call(answer, c) and g.playable(c, p):
                    options.append(plays[c.id])
            options.append(DRAW)
        else:
            if g._memo is not None:  # a pure match: the faces that match the top and colour, memoised
                pile = g.discard_pile
                face = pile[-1].face_id if pile else -1
                color = g.current_color
                faces = g._memo[face].get(color)
                if faces is None:
                    g._legal_env["player"] = p  # (for blame: the match fails with the turn's player)
                    faces = g.matching_faces()
                for c in hand:
                    if c.face_id in faces:
                        test = c.legal_if
                        if test is not None:
                            env = g._legal_env
                            env["player"], env["card"] = p, c
                            if not test(g, env):
                                continue
                        options.append(plays[c.id])
            else:
                env = g._legal_env
                env["player"] = p
                for c in hand:
                    env["card"] = c
                    if g._match(g, env) and (c.legal_if is None or c.legal_if(g, env)):
                        options.append(plays[c.id])
            if not options or not g._must_play:
                allowed = g._draw_rule.allowed_if
                if allowed is None or allowed(g, {"player": p}):
                    options.append(DRAW)
                elif not options:
                    options.append(PASS)
    except (VariantRuntimeError, RecursionError):
        raise
    except Exception as err:
        raise g.blame(err) from err
    # (the only option is taken without asking, unless someone is told each choice)
    return options[0] if len(options) == 1 and not g._loud_turn else decision(
        (p, "turn", tuple(options), "", None))


def turn_options(g: Table, p: int) -> tuple[Any, ...]:
    """What `p` may do on their turn now (the options of turn_choice)."""
    asked = turn_choice(g, {"player": p})
    return asked.options if type(asked) is Decision else (asked,)  # type: ignore[no-any-return]


def is_draw(g: Table, e: Env) -> bool:
    return e["_action"] is DRAW


def draw_for_turn(g: Table, e: Env) -> list[Card]:
    """The turn's draw: the pending penalty (the cards drawn are not offered), or the draw
    rule's cards (one at a time until one can be played, when it says so). Gives what may
    be offered."""
    p = e["player"]
    drawn: list[Card] = []
    if g.penalty:
        count, g.penalty, g.penalty_answer = g.penalty, 0, None
        g.draw(p, count)
        if "penalty_taken" in g._watch:
            g.emit("penalty_taken", {"player": p, "count": count})
    elif not g._draw_rule.until_playable:
        many = g._draw_rule.count
        drawn = g.draw(p, many if type(many) is int else g.amount(many, p))
    else:
        cap = g.amount(g._draw_rule.max, p)
        while cap is None or len(drawn) < cap:
            got = g.draw(p, 1)
            if not got:
                break
            drawn += got
            legal = g.playable(got[0], p)
            if legal:
                break
    return drawn


def offer_drawn(g: Table, e: Env) -> Any:
    """The card drawn, if it can be played: play it, or keep it (a decision); else keep it."""
    drawn, p = e["_drawn"], e["player"]
    card = drawn[-1] if drawn else None
    offer: Any = KEEP
    hand = g.hands[p]  # (still held, unless a rule moved it: it is drawn last, so looked for there first)
    if card is not None and ((hand and hand[-1] is card) or card in hand):
        legal = g.playable(card, p)
        if legal:
            offer = decision((p, "drawn", (g._plays[card.id], KEEP), "", None))
    return offer


def play_drawn(g: Table, e: Env) -> Any:
    """The card drawn is played, unless it was kept."""
    kept = e["_keep"]
    paused = False
    if kept is not KEEP:
        paused = g.play(e["player"], kept.card, True)
    return PAUSED if paused else None


def must_play_drawn(g: Table, e: Env) -> Any:
    """The card drawn is played if it can be."""
    drawn, p = e["_drawn"], e["player"]
    paused = False
    hand = g.hands[p]  # (still held, unless a rule moved it: it is drawn last, so looked for there first)
    if drawn and ((hand and hand[-1] is drawn[-1]) or drawn[-1] in hand):
        legal = g.playable(drawn[-1], p)
        if legal:
            paused = g.play(p, drawn[-1], True)
    return PAUSED if paused else None


def act(g: Table, e: Env) -> Any:
    """The card chosen is played (or, when nothing else is possible, the player passes)."""
    action = e["_action"]
    paused = False
    if action is not PASS:
        paused = g.play(e["player"], action.card, True)
    return PAUSED if paused else None


def end_turn(g: Table, e: Env) -> None:
    """The turn is over (turn_end)."""
    if g._loud_turn and "turn_end" in g._watch:
        g.emit("turn_end", {"player": e["player"]})


def next_turn(g: Table, e: Env) -> None:
    """The round ends if a hand was emptied; else it is the next player's turn."""
    if g.emptied is None or not g.went_out():
        advance(g, e)


def advance(g: Table, e: Env) -> None:
    """Whose turn is next: the next player in the direction of play, or as the turn
    asked (`bent`: skips, another turn, a chosen next player, players out; see
    Table.advance_bent)."""
    if g.bent:
        g.advance_bent()
    else:
        g.current = (g.current + g.direction) % g.n


# -- the jump-in offer -----------------------------------------------------------------
def jump_seats(g: Table, e: Env) -> tuple[int, ...]:
    """Who may jump in on the top card, in turn order after `after` (it is offered once)."""
    top = g.discard_pile[-1] if g.discard_pile else None
    e["_jumper"] = None
    if top is None or top.id == g.offered:
        return ()
    g.offered = top.id
    after = e["after"]
    return tuple(q for q in g.in_order(after) if q != after)


def jump_choice(g: Table, e: Env) -> Any:
    """`_q` may play a card passing `test` out of turn, or pass (asked only with such cards,
    and only until someone has jumped in)."""
    if e["_jumper"] is not None:
        return PASS
    q = e["_q"]
    plays = [g._plays[c.id] for c in g.hands[q] if g.call(e["test"], c)]
    if not plays:
        return PASS
    return decision((q, "jump", (*plays, PASS), "jump in", g.discard_pile[-1]))


def take_over(g: Table, e: Env) -> Any:
    """The jumper takes the turn over: what the turn had pending (skips, another turn, a
    next player) is dropped, their card is played with its effect, play goes on from them."""
    answer = e["_answer"]
    if answer is PASS:
        return None
    q = e["_jumper"] = e["_q"]
    g.current = q
    g.skips, g.again, g.next_override, g.bent = 0, False, None, bool(g.out)
    return PAUSED if g.play(q, answer.card, True) else None


def jumped(g: Table, e: Env) -> bool:
    return e["_jumper"] is not None


def jump_again(g: Table, e: Env) -> Any:
    """Someone jumped in: the offer goes round again, on their card, from them."""
    return PAUSED if g.run(JUMP_IN, {"test": e["test"], "after": e["_jumper"]}) else None


def seats(g: Table, e: Env) -> tuple[int, ...]:
    return e["_seats"]  # type: ignore[no-any-return]


JUMP_IN: Program = (
    (LET, "_seats", jump_seats, HERE),
    (FOR, "_q", seats, ((CHOOSE, "_answer", jump_choice, HERE), (DO, take_over, HERE)), HERE),
    (IF, jumped, ((DO, jump_again, HERE),), (), HERE),
)


# -- the programs of a variant -----------------------------------------------------------
def turn_program(variant: Variant) -> Program:
    """One turn, for the variant's `turn:` settings."""
    then = variant.turn.draw.then
    after: Program = (() if then == "keep" else ((DO, must_play_drawn, HERE),) if then == "must_play"
                      else ((CHOOSE, "_keep", offer_drawn, HERE), (DO, play_drawn, HERE)))
    drawing = ((LET, "_drawn", draw_for_turn, HERE), *after)
    return ((DO, begin_turn, HERE), (CHOOSE, "_action", turn_choice, HERE),
            (IF, is_draw, drawing, ((DO, act, HERE),), HERE), (DO, end_turn, HERE), (DO, next_turn, HERE))


TURNS = 3  # the place of the turns' loop in a round (a position arranged by hand starts there)


def game_program(variant: Variant) -> Program:
    """The whole game: rounds until someone wins, each a set-up and turns until a hand is empty."""
    one_round = ((DO, begin_round, HERE), (DO, setup, HERE), (DO, end_setup, HERE),
                 (LOOP, round_on, turn_program(variant), HERE), (DO, end_round, HERE), (DO, end_game, HERE))
    assert one_round[TURNS][0] == LOOP
    return ((LOOP, game_on, one_round, HERE),)
