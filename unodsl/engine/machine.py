"""The stack machine: it runs programs step by step, stops when a player must be asked,
and goes on from the frames it left once the answer comes.

Code runs as plain calls for as long as no player must be asked. A function that may
have to stop returns True when it did; every level the stop returns through appends
the frame that goes on from where it stood (`_pause`: "once the step before `pc` is
done, run the queued rules, then this program from `pc`"), and `_go` gives the answer
to the waiting frame on top and runs the stack down. A program the variant compiled
runs as its generated code, from its first step or from any step it stopped before
(engine/codegen.py), and leaves the same frames.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Sequence
from functools import partial
from typing import Any

from ..errors import GameError, IllegalAction, RunawayRound, RuntimeFault, UnoDslError, VariantRuntimeError
from ..lang.program import Lambda, Program
from .actions import ANSWER_TYPES, Decision, answer_value
from .frames import DRAIN, Ask, Bind, Drain, Env, For, Repeat, Run, While, new_bind, new_run
from .state import State
from .template import Template, function

Listener = Callable[[Any, str, dict[str, Any]], None]


class _Paused:
    """What an effect returns when the program it started must wait for a player."""

    def __repr__(self) -> str:
        return "PAUSED"


PAUSED = _Paused()
ASK = object()  # "the player must be asked": no agent is attached, or it failed

WHILE_GUARD = 10_000  # iterations of one while or repeat loop
NESTING_GUARD = 100  # effect programs running inside one another (apply within apply …)
WORK_BUDGET = 1_000_000  # loop iterations × steps, and programs run, in one turn (nested loops included)


def illegal(d: Decision, choice: Any) -> IllegalAction:
    legal = ", ".join(str(o) for o in d.options[:12])
    try:
        shown = f"{choice}"
    except Exception:  # an object that cannot even say what it is
        shown = f"a {type(choice).__name__}"
    return IllegalAction(f"{shown[:80]} is not a legal choice for player {d.player} ({d.kind}); legal: {legal}")


class Machine(State):
    """Programs run step by step; a pause leaves frames; `_go` runs them on."""

    # -- running the stack ------------------------------------------------------
    def _go(self, answer: Any) -> None:
        """Give `answer` to the waiting frame on top (None: nothing waits, at the
        start), then run the frames below until a player must be asked."""
        stack = self._stack
        self.decision = None
        self._running = True
        try:
            paused = False
            if stack and type(stack[-1]) is Bind:
                frame: Any = stack.pop()
                if "choice" in self._watch:
                    self._chosen(frame.decision, answer)
                frame.env[frame.var] = answer
            while stack:
                frame = stack.pop()
                kind = type(frame)  # what each kind of frame does when it comes to the top:
                if kind is Run:
                    paused = self._perform(self, frame.program, frame.env, frame.pc, frame.leave)
                elif kind is Drain:
                    paused = bool(self._queue) and self.drain()
                elif kind is While:
                    paused = self._backend.resume_while(self, frame.step, frame.env, frame.left)
                elif kind is For:
                    paused = self._backend.resume_for(self, frame.step, frame.items, frame.k, frame.env)
                elif kind is Repeat:
                    paused = self._backend.resume_repeat(self, frame.step, frame.env, frame.left)
                elif kind is Ask:  # a choice put off until the rules queued before it had run
                    given = self.ask(frame.decision, frame.var, frame.env)
                    paused = given is ASK
                    if not paused:
                        frame.env[frame.var] = given
                else:  # (a Bind waits only on top)
                    raise TypeError(f"a {kind.__name__} frame below the top of the stack")
                if paused:
                    break
            if paused:
                frames = self._paused
                frames.reverse()  # innermost first → the top of the stack
                stack += frames
                frames.clear()
            else:
                self.decision = None  # the game is over (an agent may have seen the last decision)
        except RecursionError:
            self._runaway_nesting()
        except _ListenerFailed as failed:
            raise failed.error from None
        except UnoDslError as err:
            self.decision = None
            if isinstance(err, (VariantRuntimeError, RunawayRound)) or type(err) is UnoDslError:
                raise
            raise self.fault(err, None) from err
        except Exception as err:  # a fault outside any program or known condition
            self.decision = None
            raise self.fault(err, None) from err
        finally:
            self._running = False

    def pause(self, program: Program, pc: int, env: Env, leave: int) -> bool:
        """The step before `pc` waits: once it is done, the rules it queued run, then
        the program goes on from `pc`. (Each level a pause returns through adds the
        frames that go on from where it stood, innermost first.)"""
        self._paused += (DRAIN, new_run((program, pc, env, leave)))
        return True

    # -- asking ---------------------------------------------------------------
    ask = function(Template("ask", doc=(
        "The answer to `d` now — its only option, or the attached agent's — told to watchers; or ASK: "
        "`d` is pending (or the agent failed, or chose illegally: it is then detached, for autoplay to "
        "report), and its answer will be bound to `var` in `env`."), params=("d", "var", "env"), body="""
        $options = $d.options
        $agents = g._agents
        if len($options) == 1:
            $answer = $options[0]
        elif $agents is None or $agents[$d.player] is None:
            $answer = ASK
        else:
            g.decision = $d
            try:
                $answer = $agents[$d.player].choose(g, $d)
                $legal = type($answer) in ANSWER_TYPES[$d.kind] and $answer in $options
            except Exception as $err:
                $answer, $legal = g._refused($err), None
            if $legal:
                g._answers.append($answer)
            elif $legal is not None:
                $answer = g._refused(illegal($d, $answer))
        if $answer is ASK:
            g.decision = $d
            g._paused.append(new_bind(($var, $env, $d)))
        elif 'choice' in g._watch:
            g._chosen($d, $answer)
    """, value="$answer", globals={"ASK": ASK, "ANSWER_TYPES": ANSWER_TYPES, "illegal": illegal,
                                    "new_bind": new_bind}), __name__)
    # (An agent that searches is not attached: it is asked where the game stops. An agent's
    # own error is reported by autoplay.)

    def _refused(self, error: Exception) -> Any:
        """An agent failed, or chose illegally: it is detached and its decision left
        pending, for autoplay to report `error`. Gives ASK."""
        self._agent_error = error
        self._agents = None
        return ASK

    def _chosen(self, d: Decision, answer: Any) -> None:
        if "choice" in self._watch:
            self.emit("choice", {"player": d.player, "kind": d.kind, "value": answer_value(answer),
                                 "prompt": d.prompt})

    # -- events ---------------------------------------------------------------
    def emit(self, name: str, data: dict[str, Any]) -> None:
        """Record an event, tell listeners, and queue the rules that subscribe."""
        if self.events is not None:
            self.events.append((name, data))
        for listener in self.listeners:
            try:
                listener(self, name, data)
            except Exception as err:  # the listener's own: it passes the variant's fault handlers
                raise _ListenerFailed(err) from err
        fire = self._fires.get(name)  # the rules that wait for it (the backend's)
        if fire is not None:
            fire(self, data)

    def watching(self, name: str) -> bool:
        return name in self._watch

    # -- programs ----------------------------------------------------------------
    def run(self, program: Program, env: Env) -> bool:
        """Run `program` as one more level of nesting (a rule's body, a card applied):
        cards applying cards, or rules triggering rules, stop at NESTING_GUARD.
        True if it paused (see perform)."""
        if self._depth >= NESTING_GUARD:
            raise GameError(f"effects nested {NESTING_GUARD} deep in round {self.round} (a card that "
                            "applies cards that apply cards …); the variant never stops")
        self._work -= 1
        if self._work < 0:
            self.charge(0)  # renews a stale budget, or ends a runaway turn
        self._depth += 1
        try:
            return self._perform(self, program, env, 0, 1)
        except BaseException:
            self._depth -= 1
            raise

    def perform(self, program: Program, env: Env, start: int = 0, leave: int = 0) -> bool:
        """Run `program` from step `start` to its end (False), or until a player must be
        asked (True: the frames that finish it are in the pause), as the game's backend
        runs programs (engine/backends/). Rules queued by a step run after it. `leave`:
        finishing ends a level of nesting (see run)."""
        return self._perform(self, program, env, start, leave)

    def for_items(self, items: Iterable[Any], work: int) -> tuple[Any, ...]:
        """A for loop's items, its work charged (`work`: steps per iteration)."""
        items = tuple(items)
        self.charge(len(items) * work)
        return items

    def repeats(self, times: Any, work: int) -> Any:
        """A repeat's count, checked and its work charged."""
        if times > WHILE_GUARD:
            raise RuntimeFault(f"repeat {times:,} times: more than the {WHILE_GUARD:,} a loop may run")
        self.charge(max(times, 0) * work)
        return times

    @staticmethod
    def endless() -> None:
        raise RuntimeFault(f"a while loop ran {WHILE_GUARD:,} times; its condition never became false")

    def drain(self) -> bool:
        """Run the queued rules, each as a level of nesting; True if one paused."""
        queue = self._queue
        while queue:
            body, env = queue.popleft()
            if self.run(body, env):
                self._paused.append(DRAIN)
                return True
        return False

    def call(self, fn: Lambda | Callable[[Any], Any], value: Any) -> Any:
        """Apply a lambda given to an effect (or a Python callable) to `value`."""
        if type(fn) is not Lambda:
            return fn(value)  # type: ignore[operator]
        env = dict(fn.env)
        env[fn.param] = value
        return fn.body(self, env)

    # -- faults and guards ----------------------------------------------------------
    def fault(self, err: BaseException, where: Any) -> VariantRuntimeError:
        """`err`, raised by the variant's expression at `where` ((file position, text),
        a condition's closure, or None), as a positioned runtime error."""
        if isinstance(err, VariantRuntimeError):
            return err
        if where is None:  # (a fault in generated code: the step it was running)
            where = self._backend.place(err)
        if callable(where):
            where = self.variant.where.get(where)
        pos, text = where if isinstance(where, tuple) and len(where) == 2 else (None, None)
        message = explain(err)
        if text:
            message = f"{message} (in `{text}`)"
        return VariantRuntimeError(pos, message, round=self.round, turn=self.turns, seed=self.seed,
                                   replay=self.replay_command())

    def replay_command(self, agents: Sequence[str] = ()) -> str:
        raise NotImplementedError  # (Game's)

    def _value(self, expr: Callable[[Any, Env], Any], p: int) -> Any:
        """An expression of the variant's outside any program (`player`: `p`), its error positioned."""
        try:
            return expr(self, {"player": p})
        except Exception as err:
            raise self.fault(err, expr) from err

    def _holds(self, test: Callable[[Any, Env], Any], p: int) -> bool:
        """A condition of the variant's outside any program (`player`: `p`), its error positioned."""
        return bool(self._value(test, p))

    def charge(self, work: int) -> None:
        """Spend `work` of the turn's budget; a runaway effect ends here."""
        now = (self.round, self.turns)
        if now != self._work_turn:
            self._work_turn, self._work = now, WORK_BUDGET
        self._work -= work
        if self._work < 0:
            raise RuntimeFault(f"the effects of one turn ran more than {WORK_BUDGET:,} steps "
                               "(loops inside loops?); the variant never stops")

    def _runaway_nesting(self) -> None:
        """A safety net: NESTING_GUARD stops nested effects long before Python does."""
        self.decision = None
        raise GameError(f"effects nested too deeply in round {self.round}; the variant never stops") from None


def explain(err: BaseException) -> str:
    """A Python error raised while a variant's expression ran, in the language's words."""
    if isinstance(err, UnoDslError):
        return str(err)
    text = str(err).replace("NoneType", "none")
    if isinstance(err, ZeroDivisionError):
        return "division by zero"
    if isinstance(err, IndexError):
        return f"no such seat, side or place ({text})"
    if isinstance(err, TypeError) and "none" in text:
        return f"a value is none where something is needed ({text}); test it first, e.g. x != none and …"
    if isinstance(err, (TypeError, AttributeError, KeyError, ValueError)):
        return f"a value of the wrong kind ({type(err).__name__}: {text})"
    if isinstance(err, MemoryError):
        return "out of memory"
    return f"{type(err).__name__}: {text}"


# A Decision from a 5-tuple, without the keyword-handling __new__ (a hot path).
decision: Callable[[tuple[Any, ...]], Decision] = partial(tuple.__new__, Decision)


class _ListenerFailed(BaseException):
    """A listener's error on its way out of the flow (not a fault of the variant)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


class _All:
    """A set that contains every event name (used while recording)."""

    def __contains__(self, item: object) -> bool:
        return True

    def __reduce__(self) -> str:
        return "ALL"


ALL = _All()


def loud_flags(watch: Container[str], counted: bool = False) -> dict[str, bool]:
    """The flags the hot paths test instead of the watch, for the events in `watch`
    (`counted`: plays are counted): are a turn's events or choices watched, is a play told
    or counted, is a draw told? Game._rewatch sets them; a variant's generated code folds
    in those its own rules make true (codegen.facts), since a rule's event is always watched."""
    tell_play = "card_played" in watch or "hand_changed" in watch
    return {"_loud_turn": "turn_start" in watch or "turn_end" in watch or "choice" in watch,
            "_tell_play": tell_play,
            "_loud_play": tell_play or counted,
            "_loud_draw": "card_drawn" in watch or "hand_changed" in watch}
