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
from .actions import DRAW, KEEP, PASS, Decision, Lay, Play
from .machine import PAUSED, _value, call, decision, emit, perform, run
from .plays import lays
from .state import State
from .table import advance, in_order, play, reset_round, went_out
from .template import Template, function

Env = dict[str, Any]
HERE = (None, "")  # where a flow step stands in the variant file: nowhere (its faults name their cause)


def _step(t: Template) -> Any:
    """A template of a program's step, as the function its programs hold."""
    return function(t, __name__)


# -- rounds ---------------------------------------------------------------------------
game_on = _step(Template("game_on", step=True, doc="The game goes on until someone has won it.", body="",
                         value="g.winner is None"))


def begin_round(g: State, e: Env) -> None:
    """A round begins: the table is reset, the dealer chosen, round_start told."""
    g.round += 1
    if g.round > g.max_rounds:
        target = g.variant.scoring.target
        goal = "the game never ended" if target is None else f"no one reached the target score of {target:,}"
        raise GameError(f"{g.max_rounds:,} rounds and {goal}; the variant never ends")
    reset_round(g)
    v = g.variant
    pick = v.first_dealer if g.round == 1 else v.next_dealer
    if pick is not None:
        g.dealer = _value(g, pick, g.dealer) % g.n
    g.current = g.dealer
    if "round_start" in g._watch:
        emit(g, "round_start", {"player": g.dealer, "round": g.round})


def setup(g: State, e: Env) -> Any:
    """The variant's set-up program, run by the dealer (`player`)."""
    return PAUSED if perform(g, g.variant.setup, {"player": g.dealer}) else None


def end_setup(g: State, e: Env) -> None:
    """After the set-up (a hand may be empty: a first card's effect), the first player."""
    if not went_out(g):
        advance(g)


round_on = _step(Template("round_on", step=True, doc="The round goes on until it has a winner.", body="",
                          value="g.round_winner is None"))


end_round = _step(Template("end_round", step=True, doc=(
    "The round is scored (round_end); its rules run before the game-end check."), body="""
    g.score_round()
"""))

end_game = _step(Template("end_game", step=True, doc="Has someone won the game (a target reached, `game_over`)?",
                          body="""
    g.game_over()
"""))


# -- a turn ---------------------------------------------------------------------------
# The steps every turn runs are templates (template.py): one text, called by the
# interpreter and put in place, specialised for the variant, by the generated code.


begin_turn = _step(Template("begin_turn", step=True, doc=(
    "A turn begins: `player` is whose it is (turn_start); past max_turns the round is a runaway."), body="""
    if g.turns >= %max_turns:
        g.runaway()
    g.turns += 1
    @player = g.current
    #if loud_turn and watched(turn_start):
        #emit turn_start {'player': g.current}
"""))

turn_choice = _step(Template("turn_choice", step=True, doc=(
    "The turn's decision: play one of the legal cards (those that match, and pass their `legal_if`; "
    "under a pending penalty, those that answer it), draw (or take the penalty; unless must-play holds "
    "a card, or allowed_if says no), or pass when nothing else is possible. The only option is taken "
    "without asking, unless someone is told each choice."), body="""
    $p = @player
    $hand = %hands[$p]
    $options = []
    try:
        if g.penalty:
            $answer = g.penalty_answer
            for $c in $hand:
                if $answer is not None and g.call($answer, $c) and g.playable($c, $p):
                    $options.append($c.play)
            $options.append(DRAW)
        else:
            #if pure_match:
                $faces = %_memo[%discard_pile[-1].face_id if %discard_pile else -1].get(g.current_color)
                if $faces is None:
                    g._legal_env['player'] = $p
                    $faces = g.matching_faces()
                #if not rules:
                    @_faces = $faces
                for $c in $hand:
                    if $c.face_id in $faces and ($c.legal_if is None or g.allows($c, $p)):
                        $options.append($c.play)
            #else:
                $env = g._legal_env
                $env['player'] = $p
                for $c in $hand:
                    $env['card'] = $c
                    if g._match(g, $env) and ($c.legal_if is None or $c.legal_if(g, $env)):
                        $options.append($c.play)
            #if declared_plays:
                $options += g.lays($p)
            #if not must_play or not $options:
                #if draw_allowed_if:
                    if g._draw_rule.allowed_if(g, {'player': $p}):
                        $options.append(DRAW)
                    elif not $options:
                        $options.append(PASS)
                #else:
                    $options.append(DRAW)
    except (VariantRuntimeError, RecursionError):
        raise
    except Exception as $err:
        raise g.blame($err) from $err
""", takes=("len($options) == 1 and not loud_turn", "$options[0]"),
    asks="decision(($p, 'turn', tuple($options), '', None))",
    globals={"DRAW": DRAW, "PASS": PASS, "decision": decision, "VariantRuntimeError": VariantRuntimeError}))


def turn_options(g: State, p: int) -> tuple[Any, ...]:
    """What `p` may do on their turn now (the options of turn_choice)."""
    asked = turn_choice(g, {"player": p})
    return asked.options if type(asked) is Decision else (asked,)  # type: ignore[no-any-return]


is_draw = _step(Template("is_draw", step=True, doc="The turn's action is a draw.", body="",
                         value="@_action is DRAW", globals={"DRAW": DRAW}))

draw_for_turn = _step(Template("draw_for_turn", step=True, doc=(
    "The turn's draw: the pending penalty (the cards drawn are not offered), or the draw rule's cards "
    "(one at a time until one can be played, when it says so). Gives what may be offered."), body="""
    $p = @player
    if g.penalty:
        $count, g.penalty, g.penalty_answer = g.penalty, 0, None
        #call draw($p, $count)
        #if watched(penalty_taken):
            #emit penalty_taken {'player': $p, 'count': $count}
        $drawn = []
    else:
        #if until_playable:
            $drawn = []
            $cap = g.amount(g._draw_rule.max, $p)
            while $cap is None or len($drawn) < $cap:
                #call $got = draw_one($p)
                if not $got:
                    break
                $drawn += $got
                #call $legal = playable($got[0], $p)
                if $legal:
                    break
        #elif draw_one:
            #call $drawn = draw_one($p)
        #else:
            $many = g._draw_rule.count
            #call $drawn = draw($p, $many if type($many) is int else g.amount($many, $p))
""", value="$drawn", globals={"int": int}))

offer_drawn = _step(Template("offer_drawn", step=True, doc=(
    "The card drawn, if it can be played: play it, or keep it (a decision); else keep it. (Still held, "
    "unless a rule moved it: it is drawn last, so looked for there first; with no rules, it is.)"), body="""
    $drawn, $p = @_drawn, @player
    $card = $drawn[-1] if $drawn else None
    $legal = False
    #if rules:
        $hand = %hands[$p]
        if $card is not None and (($hand and $hand[-1] is $card) or $card in $hand):
            #call $legal = playable($card, $p)
    #elif pure_match:
        if $card is not None:
            #call $legal = fits($card, $p, @_faces)
    #else:
        if $card is not None:
            #call $legal = playable($card, $p)
""", takes=("not $legal", "KEEP"), asks="decision(($p, 'drawn', ($card.play, KEEP), '', None))",
    globals={"KEEP": KEEP, "decision": decision}))

play_drawn = _step(Template("play_drawn", step=True, doc="The card drawn is played, unless it was kept.", body="""
    $kept = @_keep
    $paused = False
    if $kept is not KEEP:
        #call $paused = play(@player, $kept.card, True)
""", pauses="$paused", globals={"KEEP": KEEP, "PAUSED": PAUSED}))

must_play_drawn = _step(Template("must_play_drawn", step=True, doc=(
    "The card drawn is played if it can be (still held: see offer_drawn). Without rules nothing can "
    "change the top card or the colour since the turn's choice: the card is matched against the faces "
    "it found (`_faces`)."), body="""
    $drawn, $p = @_drawn, @player
    $legal = False
    #if rules:
        $hand = %hands[$p]
        if $drawn and (($hand and $hand[-1] is $drawn[-1]) or $drawn[-1] in $hand):
            #call $legal = playable($drawn[-1], $p)
    #elif pure_match:
        if $drawn:
            #call $legal = fits($drawn[-1], $p, @_faces)
    #else:
        if $drawn:
            #call $legal = playable($drawn[-1], $p)
    if $legal:
        #call $paused = play($p, $drawn[-1], True)
    else:
        $paused = False
""", pauses="$paused", globals={"PAUSED": PAUSED}))

act = _step(Template("act", step=True, doc=(
    "The card chosen is played (or, when nothing else is possible, the player passes)."), body="""
    $action = @_action
    #if declared_plays:
        if type($action) is Lay:
            $paused = g.lay(@player, $action)
        elif $action is not PASS:
            #call $paused = play(@player, $action.card, True)
        else:
            $paused = False
    #else:
        if $action is not PASS:
            #call $paused = play(@player, $action.card, True)
        else:
            $paused = False
""", pauses="$paused", globals={"PASS": PASS, "PAUSED": PAUSED, "Lay": Lay}))

end_turn = _step(Template("end_turn", step=True, doc="The turn is over (turn_end).", body="""
    #if loud_turn and watched(turn_end):
        #emit turn_end {'player': @player}
"""))

next_turn = _step(Template("next_turn", step=True, doc=(
    "The round ends if a hand was emptied; else it is the next player's turn."), body="""
    if g.emptied is None or not g.went_out():
        #call advance()
"""))


# -- the declared plays (`turn: plays:`) ----------------------------------------------------
def begin_plays(g: State, e: Env) -> None:
    """No target has been played onto yet this turn."""
    g.laid = ()


def more_plays(g: State, e: Env) -> bool:
    """After a declared play, another (onto another target, up to plays_per_turn), if
    one can be made; after a draw whose card may be played, in a variant of declared
    plays only, the plays as at the turn's start."""
    action = e["_action"]
    if action is PASS or type(action) is Play or g.emptied is not None or g.winner is not None:
        return False
    if len(g.laid) >= g.variant.turn.plays_per_turn:
        return False
    if action is DRAW and (g.variant.turn.match is not None or g.variant.turn.draw.then == "keep"):
        return False  # (with a one-card play, a card drawn is offered alone: see offer_drawn)
    e["_lays"] = lays(g, e["player"])
    return bool(e["_lays"])


def more_choice(g: State, e: Env) -> Any:
    """Another declared play, or stop (pass)."""
    return decision((e["player"], "turn", (*e["_lays"], PASS), "another play", None))


# -- the jump-in offer -----------------------------------------------------------------
def jump_seats(g: State, e: Env) -> tuple[int, ...]:
    """Who may jump in on the top card, in turn order after `after` (it is offered once)."""
    top = g.discard_pile[-1] if g.discard_pile else None
    e["_jumper"] = None
    if top is None or top.id == g.offered:
        return ()
    g.offered = top.id
    after = e["after"]
    return tuple(q for q in in_order(g, after) if q != after)


def jump_choice(g: State, e: Env) -> Any:
    """`_q` may play a card passing `test` out of turn, or pass (asked only with such cards,
    and only until someone has jumped in)."""
    if e["_jumper"] is not None:
        return PASS
    q = e["_q"]
    plays = [c.play for c in g.hands[q] if call(g, e["test"], c)]
    if not plays:
        return PASS
    return decision((q, "jump", (*plays, PASS), "jump in", g.discard_pile[-1]))


def take_over(g: State, e: Env) -> Any:
    """The jumper takes the turn over: what the turn had pending (skips, another turn, a
    next player) is dropped, their card is played with its effect, play goes on from them."""
    answer = e["_answer"]
    if answer is PASS:
        return None
    q = e["_jumper"] = e["_q"]
    g.current = q
    g.skips, g.again, g.next_override, g.bent = 0, False, None, bool(g.out)
    return PAUSED if play(g, q, answer.card, True) else None


def jumped(g: State, e: Env) -> bool:
    return e["_jumper"] is not None


def jump_again(g: State, e: Env) -> Any:
    """Someone jumped in: the offer goes round again, on their card, from them."""
    return PAUSED if run(g, JUMP_IN, {"test": e["test"], "after": e["_jumper"]}) else None


def seats(g: State, e: Env) -> tuple[int, ...]:
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
    turn: Program = ((CHOOSE, "_action", turn_choice, HERE), (IF, is_draw, drawing, ((DO, act, HERE),), HERE))
    if variant.turn.plays:
        more = ((CHOOSE, "_action", more_choice, HERE), (DO, act, HERE))
        turn = ((DO, begin_plays, HERE), *turn, (LOOP, more_plays, more, HERE))
    return ((DO, begin_turn, HERE), *turn, (DO, end_turn, HERE), (DO, next_turn, HERE))


TURNS = 3  # the place of the turns' loop in a round (a position arranged by hand starts there)


def game_program(variant: Variant) -> Program:
    """The whole game: rounds until someone wins, each a set-up and turns until a hand is empty."""
    one_round = ((DO, begin_round, HERE), (DO, setup, HERE), (DO, end_setup, HERE),
                 (LOOP, round_on, turn_program(variant), HERE), (DO, end_round, HERE), (DO, end_game, HERE))
    assert one_round[TURNS][0] == LOOP
    return ((LOOP, game_on, one_round, HERE),)
