"""The stack machine: it runs programs step by step, stops when a player must be asked,
and goes on from the frames it left once the answer comes.

Code runs as plain calls for as long as no player must be asked. A function that may
have to stop returns True when it did; every level the stop returns through appends
the frame that goes on from where it stood (`pause`: "once the step before `pc` is
done, run the queued rules, then this program from `pc`"), and `go` gives the answer
to the waiting frame on top and runs the stack down. A program the variant compiled
runs as its generated code, from its first step or from any step it stopped before
(engine/codegen.py), and leaves the same frames.

The machine is a part of the game, not a class it descends from: each operation is a
function of the game's state (`g`, state.State) and engine/game.py binds it to the
game as a member of the same name (`g.emit`, `g.run` …). Its functions call one another
directly, and reach the table only through the game's members.
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
MAX_TURNS = 5_000  # a round's turns before it is a runaway (the default)
WORK_BUDGET = 1_000_000  # loop iterations × steps, and programs run, in one turn (nested loops included)


def illegal(d: Decision, choice: Any) -> IllegalAction:
    legal = ", ".join(str(o) for o in d.options[:12])
    try:
        shown = f"{choice}"
    except Exception:  # an object that cannot even say what it is
        shown = f"a {type(choice).__name__}"
    return IllegalAction(f"{shown[:80]} is not a legal choice for player {d.player} ({d.kind}); legal: {legal}")


# -- running the stack ------------------------------------------------------
def go(g: State, answer: Any) -> None:
    """Give `answer` to the waiting frame on top (None: nothing waits, at the
    start), then run the frames below until a player must be asked."""
    stack = g._stack
    g.decision = None
    g._running = True
    try:
        paused = False
        if stack and type(stack[-1]) is Bind:
            frame: Any = stack.pop()
            if "choice" in g._watch:
                _chosen(g, frame.decision, answer)
            frame.env[frame.var] = answer
        pop, queue, perform, backend = stack.pop, g._queue, g._perform, g._backend
        while stack:
            frame = pop()
            if frame is DRAIN:  # (the most frequent: after each step that paused, no rules of its own)
                if queue:
                    paused = drain(g, ())
                    if paused:
                        break
                continue
            kind = type(frame)  # what each kind of frame does when it comes to the top:
            if kind is Run:
                program, pc, env, leave = frame
                if pc == len(program):  # (it paused at its last step: only its level of nesting is left)
                    if leave:
                        g._depth -= 1
                    continue
                paused = perform(g, program, env, pc, leave)
            elif kind is While:
                paused = backend.resume_while(g, frame.step, frame.env, frame.left, frame.pc)
            elif kind is Drain:
                paused = bool(queue or frame.rules) and drain(g, frame.rules)
            elif kind is For:
                paused = backend.resume_for(g, frame.step, frame.items, frame.k, frame.env)
            elif kind is Repeat:
                paused = backend.resume_repeat(g, frame.step, frame.env, frame.left)
            elif kind is Ask:  # a choice put off until the rules queued before it had run
                given = ask(g, frame.decision, frame.var, frame.env)
                paused = given is ASK
                if not paused:
                    frame.env[frame.var] = given
            else:  # (a Bind waits only on top)
                raise TypeError(f"a {kind.__name__} frame below the top of the stack")
            if paused:
                break
        if paused:
            frames = g._paused
            frames.reverse()  # innermost first → the top of the stack
            stack += frames
            frames.clear()
        else:
            g.decision = None  # the game is over (an agent may have seen the last decision)
    except RecursionError:
        _runaway_nesting(g)
    except _ListenerFailed as failed:
        raise failed.error from None
    except UnoDslError as err:
        g.decision = None
        if isinstance(err, (VariantRuntimeError, RunawayRound)) or type(err) is UnoDslError:
            raise
        raise fault(g, err, None) from err
    except Exception as err:  # a fault outside any program or known condition
        g.decision = None
        raise fault(g, err, None) from err
    finally:
        g._running = False


def pause(g: State, program: Program, pc: int, env: Env, leave: int) -> bool:
    """The step before `pc` waits: once it is done, the rules it queued run, then
    the program goes on from `pc`. (Each level a pause returns through adds the
    frames that go on from where it stood, innermost first.)"""
    g._paused += (DRAIN, new_run((program, pc, env, leave)))
    return True


# -- asking ---------------------------------------------------------------
ask = function(Template("ask", doc=(
    "The answer to `d` now — its only option, or the attached agent's — told to watchers; or ASK: "
    "`d` is pending (or the agent failed, or chose illegally: it is then detached, for autoplay to "
    "report), and its answer will be bound to `var` in `env`."), params=("d", "var", "env"), body="""
    $options = $d.options
    $agents = g._agents
    $agent = None if $agents is None else $agents[$d.player]
    if len($options) == 1:
        $answer = $options[0]
    elif $agent is None:
        $answer = ASK
    else:
        g.decision = $d
        try:
            $answer = $agent.choose(g, $d)
            if type($answer) in ANSWER_TYPES[$d.kind] and $answer in $options:
                g._answers.append($answer)
            else:
                $answer = g._refused(illegal($d, $answer))
        except Exception as $err:
            $answer = g._refused($err)
    if $answer is ASK:
        g.decision = $d
        g._paused.append(new_bind(($var, $env, $d)))
    elif 'choice' in %_watch:
        g._chosen($d, $answer)
""", value="$answer", globals={"ASK": ASK, "ANSWER_TYPES": ANSWER_TYPES, "illegal": illegal,
                                "new_bind": new_bind}), __name__)
# (An agent that searches is not attached: it is asked where the game stops. An agent's
# own error is reported by autoplay.)


def _refused(g: State, error: Exception) -> Any:
    """An agent failed, or chose illegally: it is detached and its decision left
    pending, for autoplay to report `error`. Gives ASK."""
    g._agent_error = error
    g._agents = None
    return ASK


def _chosen(g: State, d: Decision, answer: Any) -> None:
    if "choice" in g._watch:
        emit(g, "choice", {"player": d.player, "kind": d.kind, "value": answer_value(answer),
                           "prompt": d.prompt})


# -- events ---------------------------------------------------------------
def emit(g: State, name: str, data: dict[str, Any]) -> None:
    """Record an event, tell listeners, and queue the rules that subscribe."""
    if g.events is not None:
        g.events.append((name, data))
    for listener in g.listeners:
        try:
            listener(g, name, data)
        except Exception as err:  # the listener's own: it passes the variant's fault handlers
            raise _ListenerFailed(err) from err
    fire = g._fires.get(name)  # the rules that wait for it (the backend's)
    if fire is not None:
        fire(g, data)


def watching(g: State, name: str) -> bool:
    return name in g._watch


# -- programs ----------------------------------------------------------------
def run(g: State, program: Program, env: Env) -> bool:
    """Run `program` as one more level of nesting (a rule's body, a card applied):
    cards applying cards, or rules triggering rules, stop at NESTING_GUARD.
    True if it paused (see perform)."""
    if g._depth >= NESTING_GUARD:
        raise GameError(f"effects nested {NESTING_GUARD} deep in round {g.round} (a card that "
                        "applies cards that apply cards …); the variant never stops")
    g._work -= 1
    if g._work < 0:
        charge(g, 0)  # renews a stale budget, or ends a runaway turn
    g._depth += 1
    try:
        return g._perform(g, program, env, 0, 1)
    except BaseException:
        g._depth -= 1
        raise


def perform(g: State, program: Program, env: Env, start: int = 0, leave: int = 0) -> bool:
    """Run `program` from step `start` to its end (False), or until a player must be
    asked (True: the frames that finish it are in the pause), as the game's backend
    runs programs (engine/backends/). Rules queued by a step run after it. `leave`:
    finishing ends a level of nesting (see run)."""
    return g._perform(g, program, env, start, leave)


def for_items(g: State, items: Iterable[Any], work: int) -> tuple[Any, ...]:
    """A for loop's items, its work charged (`work`: steps per iteration)."""
    items = tuple(items)
    charge(g, len(items) * work)
    return items


def repeats(g: State, times: Any, work: int) -> Any:
    """A repeat's count, checked and its work charged."""
    if times > WHILE_GUARD:
        raise RuntimeFault(f"repeat {times:,} times: more than the {WHILE_GUARD:,} a loop may run")
    charge(g, max(times, 0) * work)
    return times


def endless() -> None:
    raise RuntimeFault(f"a while loop ran {WHILE_GUARD:,} times; its condition never became false")


def drain(g: State, rules: tuple[tuple[Any, Env], ...] = ()) -> bool:
    """Run the queued rules (after `rules`, the rest of a batch a pause left), each as a
    level of nesting, in the order they were queued. The queue is taken whole first: the
    rules a rule's own steps queue run within it, before the rules queued beside it. True
    if one paused: a Drain frame keeps the rest of its batch."""
    queue = g._queue
    batch = [*rules, *queue]
    queue.clear()
    while batch:
        for i, (body, env) in enumerate(batch):
            if run(g, body, env):
                g._paused.append(Drain(tuple(batch[i + 1:])) if i + 1 < len(batch) else DRAIN)
                return True
        batch = list(queue)
        queue.clear()
    return False


def call(g: State, fn: Lambda | Callable[[Any], Any], value: Any) -> Any:
    """Apply a lambda given to an effect (or a Python callable) to `value`."""
    if type(fn) is not Lambda:
        return fn(value)  # type: ignore[operator]
    env = dict(fn.env)
    env[fn.param] = value
    return fn.body(g, env)


# -- faults and guards ----------------------------------------------------------
def fault(g: State, err: BaseException, where: Any) -> VariantRuntimeError:
    """`err`, raised by the variant's expression at `where` ((file position, text),
    a condition's closure, or None), as a positioned runtime error."""
    if isinstance(err, VariantRuntimeError):
        return err
    if where is None:  # (a fault in generated code: the step it was running)
        where = g._backend.place(err)
    if callable(where):
        where = g.variant.where.get(where)
    pos, text = where if isinstance(where, tuple) and len(where) == 2 else (None, None)
    message = explain(err)
    if text:
        message = f"{message} (in `{text}`)"
    return VariantRuntimeError(pos, message, round=g.round, turn=g.turns, seed=g.seed,
                               replay=replay_of(g))


def replay_of(g: State, agents: Sequence[str] = ()) -> str:
    """The `unodsl run` command that plays game `g` again (with these agents' names)."""
    return replay_command(g.variant.file, g.seed, g.n, agents, g.max_turns,
                          [(o.name, o.value) for o in g.variant.options])


def replay_command(file: str, seed: int, players: int, agents: Sequence[str], max_turns: int,
                   options: Iterable[tuple[str, Any]], agent_seed: int | None = None) -> str:
    """The `unodsl run` command that plays a game again: every option named, a switch
    on or off and a number option at its value, and the agents' seed when it is not
    the game's (`unodsl run` seeds the agents with the game's seed by default)."""
    parts = ["unodsl", "run", file, "--seed", str(seed), "-p", str(players)]
    if agents:
        parts += ["-a", ",".join(agents)]
    if agent_seed is not None and agent_seed != seed:
        parts += ["--agent-seed", str(agent_seed)]
    if max_turns != MAX_TURNS:
        parts += ["--max-turns", str(max_turns)]
    for name, value in options:
        parts += ["-o", f"{name}={('on' if value else 'off') if isinstance(value, bool) else value}"]
    return " ".join(parts)


def _value(g: State, expr: Callable[[Any, Env], Any], p: int) -> Any:
    """An expression of the variant's outside any program (`player`: `p`), its error positioned."""
    try:
        return expr(g, {"player": p})
    except Exception as err:
        raise fault(g, err, expr) from err


def _holds(g: State, test: Callable[[Any, Env], Any], p: int) -> bool:
    """A condition of the variant's outside any program (`player`: `p`), its error positioned."""
    return bool(_value(g, test, p))


def charge(g: State, work: int) -> None:
    """Spend `work` of the turn's budget; a runaway effect ends here."""
    now = (g.round, g.turns)
    if now != g._work_turn:
        g._work_turn, g._work = now, WORK_BUDGET
    g._work -= work
    if g._work < 0:
        raise RuntimeFault(f"the effects of one turn ran more than {WORK_BUDGET:,} steps "
                           "(loops inside loops?); the variant never stops")


def _runaway_nesting(g: State) -> None:
    """A safety net: NESTING_GUARD stops nested effects long before Python does."""
    g.decision = None
    raise GameError(f"effects nested too deeply in round {g.round}; the variant never stops") from None


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


def loud_flags(watch: Container[str], counted: bool = False) -> tuple[bool, bool, bool, bool]:
    """The flags the hot paths test instead of the watch, for the events in `watch`
    (`counted`: plays are counted): are a turn's events or choices watched, is a play told
    or counted, is a draw told? In that order: `_loud_turn`, `_tell_play`, `_loud_play`,
    `_loud_draw`. Game._rewatch sets them; a variant's generated code folds in those its
    own rules make true (codegen.facts), since a rule's event is always watched."""
    tell_play = "card_played" in watch or "hand_changed" in watch
    return ("turn_start" in watch or "turn_end" in watch or "choice" in watch,  # _loud_turn
            tell_play,  # _tell_play
            tell_play or counted,  # _loud_play
            "card_drawn" in watch or "hand_changed" in watch)  # _loud_draw
