"""The text of a variant's specialised turn loop and rule dispatch (engine/codegen.py
puts them in the variant's module).

`Game._turns` and `Game.emit` are generic: every turn they ask which events anyone
watches, whether cards have conditions, how the draw goes, and each event looks
its rules up and copies its fields for each. What the variant fixes is known here
once: the events its rules wait for, the draw rule, must-play, whether any card
has a `legal_if`, so the loop written for it keeps only the branches it can take.
It runs only while nobody but the rules watches events (no listener, no recorded
log); otherwise the generic loop runs. Where it must stop for a player it leaves
exactly the frames the generic loop leaves, so a stopped game is the same value.
"""

from __future__ import annotations

import re

from ..lang.compile import Origins
from ..lang.emit import ExprEmitter, Namespace, literal
from ..model import Rule, Variant
from .game import _AFTER_DRAW as AFTER_DRAW
from .game import _DRAWN as WAIT_DRAWN
from .game import _MOVE_ON as MOVE_ON
from .game import _PROGRAM as PROGRAM
from .game import _TURN as WAIT_TURN
from .game import _TURN_ASK as TURN_ASK
from .game import _TURN_END as TURN_END
from .game import _TURNS as TURNS


def turn_loop(variant: Variant, ns: Namespace, name: str, fires: dict[str, str]) -> str | None:
    """`def NAME(g, resume=None)`: Game._turns for this variant, or None where the generic loop is as good
    (a match that reads more than the faces, the top and the colour). `fires`: the name of
    each event's rule dispatch (see fire), called directly (no one else watches)."""
    turn = variant.turn
    if not turn.match_is_pure:
        return None
    watched = {rule.event for rule in variant.rules}
    rules = bool(watched)
    legal_ifs = any(kind.legal_if is not None for kind in variant.kinds.values())
    one_side = len(variant.sides) == 1
    draw = turn.draw
    L = _Lines()
    L.add(0, f"def {name}(g, resume=None):")
    L.add(1, f"# The turns of a round of {_comment(variant.name)}: Game._turns for this variant, with")
    L.add(1, f"# rules on {', '.join(sorted(watched)) or 'no event'}; must play if able: {turn.must_play_if_able};"
             f" cards with legal_if: {legal_ifs}.")
    L.add(1, "# resume: (player, action), the action of a turn that stopped for it (see Game._w_turn).")
    L.add(1, "queue, hands, pile, n = g._queue, g.hands, g.discard_pile, g.n")
    L.add(1, "memo, max_turns, env, answered = g._memo, g.max_turns, g._legal_env, g._answers.append")
    if one_side:
        L.add(1, "plays = g._plays")
    # The agents attached now stay until a turn stops (an agent refused) or the round ends.
    L.add(1, "agents = g._agents")
    L.add(1, "choosers = None if agents is None else [None if a is None else a.choose for a in agents]")
    L.add(1, "while g.round_winner is None:")
    L.add(2, "if resume is not None:")
    L.add(3, "p, action = resume")
    L.add(3, "resume = None")
    L.add(3, "hand = hands[p]")
    if not draw.until_playable:  # the draw below reads the turn's faces
        L.add(3, "faces = g._matching_faces()")
    L.add(2, "else:")
    L.shift = 1
    L.add(2, "turns = g.turns")
    L.add(2, "if turns >= max_turns:")
    L.add(3, "g._runaway()")
    L.add(2, "p = g.current")
    L.add(2, "g.turns = turns + 1")
    if "turn_start" in watched:
        L.add(2, f"{fires['turn_start']}(g, {{'player': p}})")
    if rules:
        L.add(2, "if queue and g._drain():")
        L.add(3, f"g._paused += (({TURN_ASK}, p), ({TURN_END}, p), ({TURNS},))")
        L.add(3, "return True")
    L.add(2, "hand = hands[p]")
    _options(L, variant, legal_ifs, one_side)
    _decide(L, "choice" in watched)
    L.shift = 0
    _act(L, variant, fires)
    # The rules the action queued (a penalty's draws …) are part of the turn, before its end.
    L.add(2, "if paused or queue and g._drain():" if rules else "if paused:")
    L.add(3, f"g._paused += (({TURN_END}, p), ({TURNS},))")
    L.add(3, "return True")
    if "turn_end" in watched:  # Game._turn_end, inline
        L.add(2, f"{fires['turn_end']}(g, {{'player': p}})")
        L.add(2, "if queue and g._drain():")
        L.add(3, f"g._paused += (({MOVE_ON},), ({TURNS},))")
        L.add(3, "return True")
    L.add(2, "if g.emptied is not None and g._went_out():")
    L.add(3, "pass")
    if fires:
        L.add(2, "elif g.skips or g.again or g.next_override is not None or g.out:")
        L.add(3, "g._advance()")
    else:
        L.add(2, "elif ran and (g.skips or g.again or g.next_override is not None) or g.out:")
        L.add(3, "if g.out or g.again or g.next_override is not None:")  # Game._advance's skip inline:
        L.add(4, "g._advance()")  # no one is told `skipped` (no rule waits for it)
        L.add(3, "else:")
        L.add(4, "g.current = (g.current + (g.skips + 1) * g.direction) % n")
        L.add(4, "g.skips = 0")
    L.add(2, "else:")
    L.add(3, "g.current = (g.current + g.direction) % n")
    L.add(1, "return g._end_round()")
    return L.text()


def _options(L: _Lines, variant: Variant, legal_ifs: bool, one_side: bool) -> None:
    """The turn's options: Game._turn_options's pure-match path, inline."""
    turn = variant.turn
    L.add(2, "if g.penalty:")
    L.add(3, "options = g._turn_options(p)")
    L.add(2, "else:")
    if not one_side:
        L.add(3, "plays = g._plays")
    L.add(3, "face = pile[-1].face_id if pile else -1")
    L.add(3, "by_color = memo.get(face)")
    L.add(3, "faces = None if by_color is None else by_color.get(g.current_color)")
    L.add(3, "if faces is None:")
    L.add(4, "faces = g._matching_faces()")
    L.add(3, "options = []")
    L.add(3, "try:")
    if legal_ifs:
        L.add(4, "env['player'] = p")
    L.add(4, "for c in hand:")
    L.add(5, "if c.face_id in faces:")
    if legal_ifs:
        L.add(6, "test = c.legal_if")
        L.add(6, "if test is not None:")
        L.add(7, "env['card'] = c")
        L.add(7, "g._last_face, g._last_color, g._last_faces = face, g.current_color, faces  # for playable")
        L.add(7, "if not test(g, env):")
        L.add(8, "continue")
    L.add(6, "options.append(plays[c.id])")
    allowed = turn.draw.allowed_if is not None
    if turn.must_play_if_able:
        L.add(4, "if options:")
        L.add(5, "options = tuple(options)")
        L.add(4, "else:")
        if allowed:
            L.add(5, "options = (DRAW,) if g._draw_rule.allowed_if(g, {'player': p}) else (PASS,)")
        else:
            L.add(5, "options = (DRAW,)")
    elif allowed:
        L.add(4, "if g._draw_rule.allowed_if(g, {'player': p}):")
        L.add(5, "options.append(DRAW)")
        L.add(4, "options = tuple(options) if options else (PASS,)")
    else:
        L.add(4, "options.append(DRAW)")
        L.add(4, "options = tuple(options)")
    L.add(3, "except (VariantRuntimeError, RecursionError):")
    L.add(4, "raise")
    L.add(3, "except Exception as err:")
    L.add(4, "raise g._blame(err) from err")


def _decide(L: _Lines, told: bool) -> None:
    """The player's action: the only option, or the attached agent's answer (checked
    as Game._answer checks it), or a pause with the decision pending."""
    if told:  # someone's rule wants every choice: the generic way, which tells it
        L.add(2, "d = decision((p, 'turn', options, '', None))")
        L.add(2, f"action = g._ask(d, ({WAIT_TURN}, p, d))")
        return
    L.add(2, "if len(options) == 1:")
    L.add(3, "action = options[0]")
    L.add(2, "else:")
    L.add(3, "d = decision((p, 'turn', options, '', None))")
    L.add(3, "agent = None if choosers is None else choosers[p]")
    L.add(3, "if agent is None:")
    L.add(4, "action = ASK")
    L.add(3, "else:")
    L.add(4, "g.decision = d")
    L.add(4, "try:")
    L.add(5, "action = agent(g, d)")
    L.add(4, "except Exception as err:")
    L.add(5, "action = g._refused(err)")
    L.add(4, "else:")
    L.add(5, "if type(action) in TURN_TYPES and action in options:")
    L.add(6, "answered(action)")
    L.add(5, "else:")
    L.add(6, "action = g._refused(illegal(d, action))")
    L.add(3, "if action is ASK:")
    L.add(4, "g.decision = d")
    L.add(4, f"g._paused.append(({WAIT_TURN}, p, d))")


def _act(L: _Lines, variant: Variant, fires: dict[str, str]) -> None:
    """Do the action: draw (Game._draw_turn, inline for a plain draw), pass, or play
    the card (Game.play, inline), which may be the card just drawn."""
    draw = variant.turn.draw
    ran = "" if fires else "; ran = True"  # (with rules, the turn's end checks everything anyway)
    if not fires:
        L.add(2, "ran = False  # no effect ran: nothing can have asked to skip, repeat or choose the next turn")
    L.add(2, "if action is DRAW:")
    L.add(3, "card = None")
    if draw.until_playable:
        L.add(3, "paused = g._draw_turn(p)" + ran)
    else:
        L.add(3, "paused = False")
        L.add(3, "if g.penalty:")
        L.add(4, "paused = g._draw_turn(p)" + ran)
        L.add(3, "else:")
        _drawn(L, draw.count, draw.then, fires)
    L.add(2, "elif action is PASS:")
    L.add(3, "card = None")
    L.add(3, "paused = False")
    L.add(2, "elif action is ASK:")
    L.add(3, "card = None")
    L.add(3, "paused = True")
    L.add(2, "else:")
    L.add(3, "card = action.card")
    L.add(3, "paused = False")
    L.add(2, "if card is not None:")
    L.add(3, "hand.remove(card)")
    L.add(3, "if not hand and g.emptied is None:")
    L.add(4, "g.emptied = p")
    L.add(3, "g.previous_top = pile[-1] if pile else None")
    L.add(3, "pile.append(card)")
    L.add(3, "if card.color is not None:")
    L.add(4, "g.current_color = card.color")
    if "card_played" in fires:
        L.add(3, f"{fires['card_played']}(g, {{'player': p, 'card': card}})")
    if "hand_changed" in fires:
        L.add(3, f"{fires['hand_changed']}(g, {{'player': p, 'size': len(hand)}})")
    L.add(3, "program = card.on_play")
    if fires:
        L.add(3, "if queue and g._drain():")
        L.add(4, "if program:")
        L.add(5, f"g._paused.append(({PROGRAM}, program, 0, {{'player': p, 'card': card}}, 0))")
        L.add(4, "paused = True")
        L.add(3, "elif program:")
    else:
        L.add(3, "if program:")
    if not fires:
        L.add(4, "ran = True")
    L.add(4, "run = card.run")
    L.add(4, "if run is None:")
    L.add(5, "paused = g.perform(program, {'player': p, 'card': card})")
    L.add(4, "else:")
    L.add(5, "paused = run(g, {'player': p, 'card': card}, 0)")


def _drawn(L: _Lines, count: object, then: str, fires: dict[str, str]) -> None:
    """The draw of Game._draw_turn without a penalty, then what becomes of the card
    drawn: `card` is set when it is to be played."""
    if type(count) is not int:  # an expression of the variant's, read at each draw
        L.add(4, "drawn = g.draw(p, g._amount(g._draw_rule.count, p))")
    elif count == 1:  # Game.draw's one-card path, inline
        L.add(4, "draw_pile = g.draw_pile")
        L.add(4, "if draw_pile:")
        L.add(5, "got = draw_pile.pop()")
        L.add(5, "hand.append(got)")
        L.add(5, "drawn = (got,)")
        if "card_drawn" in fires:
            L.add(5, f"{fires['card_drawn']}(g, {{'player': p, 'card': got}})")
        if "hand_changed" in fires:
            L.add(5, f"{fires['hand_changed']}(g, {{'player': p, 'size': len(hand)}})")
        L.add(4, "else:")
        L.add(5, "drawn = g.draw(p, 1)")
    else:
        L.add(4, f"drawn = g.draw(p, {count})")
    if fires:
        L.add(4, "if queue:")  # the rules the draw queued, then the drawn card
        L.add(5, "if g._drain():")
        L.add(6, f"g._paused.append(({AFTER_DRAW}, p, tuple(drawn)))")
        L.add(6, "paused = True")
        L.add(5, "else:")
        L.add(6, "paused = g._offer_drawn(p, drawn)")
        L.add(4, "else:")
        at = 5
    else:
        at = 4
    # Nothing has changed the top card or the colour since the turn's options (no rule
    # ran), so the turn's faces tell whether the card drawn matches; it is in the hand.
    if then == "keep":
        L.add(at, "pass")
        return
    L.add(at, "got = drawn[-1] if drawn else None")
    L.add(at, "if got is not None and got.face_id in faces and (got.legal_if is None or g.playable(got, p)):")
    if then == "must_play":
        L.add(at + 1, "card = got")
    else:  # may_play: Game._offer_drawn, inline
        L.add(at + 1, "offer = decision((p, 'drawn', (g._plays[got.id], KEEP), '', None))")
        L.add(at + 1, f"answer = g._ask(offer, ({WAIT_DRAWN}, p, got, offer))")
        L.add(at + 1, "if answer is ASK:")
        L.add(at + 2, "paused = True")
        L.add(at + 1, "elif answer is not KEEP:")
        L.add(at + 2, "card = got")


def fire(event: str, rules: tuple[Rule, ...], ns: Namespace, defs: list[str],
         origins: Origins, name: str) -> str:
    """`def NAME(g, data)`: what Game.emit does with `event`'s rules, rule by rule: its
    condition inline, read from the event's fields (copied first if a lambda in it may
    bind a variable), and its body queued with its own copy of the fields."""
    conds = ns.add(tuple(rule.cond for rule in rules), "conds")
    L = _Lines()
    L.add(0, f"def {name}(g, data):")
    L.add(1, f"# The rules on {event}: Game.emit's loop over them, unrolled.")
    L.add(1, "queue = g._queue")
    L.add(1, "at = 0")
    L.add(1, "try:")
    for k, rule in enumerate(rules):
        body = ns.add(rule.body, "body")
        L.add(2, f"# rule {_comment(repr(rule.name))}")
        L.add(2, f"at = {k}")
        origin = origins.get(rule.cond) if rule.cond is not None else None
        pre: list[str] = []
        copy = False  # the condition binds a variable in its env: give it a copy of the fields
        if rule.cond is None:
            test = "True"
        elif origin is None:
            test, copy = f"{ns.add(rule.cond, 'cond')}(g, e)", True
        else:
            emit = ExprEmitter(ns, defs, origin)
            test = emit.expr(origin.node, pre, "        ")
            copy = emit.writes_env
        L.add(2, "e = dict(data)" if copy else "e = data")
        L.lines += pre
        L.add(2, f"if {test}:")
        L.add(3, "if g._tell_rules:")
        L.add(4, f"g.emit('rule_fired', {{'player': data['player'], 'rule': {literal(rule.name)}, "
                 f"'event': {literal(event)}}})")
        L.add(3, f"queue.append(({body}, {'e' if copy else 'dict(data)'}))")
    L.add(1, "except VariantRuntimeError:")
    L.add(2, "raise")
    L.add(1, "except Exception as err:")
    L.add(2, f"raise g._fault(err, {conds}[at]) from err")
    return L.text()


class _Lines:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.shift = 0  # levels added to every line (a block moved inside an if)

    def add(self, level: int, text: str) -> None:
        self.lines.append("    " * (level + self.shift) + text)

    def text(self) -> str:
        return "\n".join(self.lines)


# What Python reads as a source encoding declaration in a comment (PEP 263: `coding:` or
# `coding=`, as in `-*- coding: latin-1 -*-` or vim's `fileencoding=`).
_CODING = re.compile(r"(coding)([:=])", re.IGNORECASE)


def _comment(text: str) -> str:
    """A variant's text on one comment line: printable characters only, no line breaks, and
    never an encoding declaration (`coding:x` → `coding :x`), so the module printed by
    `unodsl compile` is the same code when saved to a file and run."""
    one = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    one = one if len(one) <= 100 else one[:99] + "…"
    return _CODING.sub(r"\1 \2", one)
