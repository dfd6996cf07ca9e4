"""The step-driven game: `decision` is the pending question, `apply` answers it.

The flow of rounds and turns is a generator that yields a Decision whenever a
player must choose; effect programs run as steps inside it, and rule handlers
queued by events run right after the step that emitted them.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from functools import partial
from operator import attrgetter
from types import GeneratorType
from typing import Any, Protocol

from ..errors import GameError, IllegalAction, Pos, RunawayRound, RuntimeFault, UnoDslError, VariantRuntimeError
from ..lang.program import CHOOSE, DO, FOR, IF, LET, WHILE, Fn, Program
from ..variant.model import Rule, Variant
from .actions import DRAW, KEEP, PASS, Decision, Play
from .cards import Card, face_table
from .view import OpponentView, PlayerView, outward

Flow = Generator[Decision, Any, Any]
Listener = Callable[["Game", str, dict[str, Any]], None]


class Chooser(Protocol):
    """Anything that answers decisions: the agents, a person at a terminal …"""

    def choose(self, game: Game, decision: Decision) -> Any: ...


_ASK = object()  # "ask through the flow": no agent is attached, or it failed

MAX_TURNS = 5_000  # a round's turns before it is a runaway (the default)
WHILE_GUARD = 10_000  # iterations of one while or repeat loop
NESTING_GUARD = 100  # effect programs running inside one another (apply within apply …)
WORK_BUDGET = 1_000_000  # loop iterations × steps, and programs run, in one turn (nested loops included)


class Game:
    """One game of a variant: zones, turn order, scores, one seeded RNG."""

    def __init__(self, variant: Variant, players: int, seed: int = 0, *,
                 max_turns: int = MAX_TURNS, max_rounds: int = 1_000, record: bool = False,
                 stacked: Sequence[str] | None = None, listeners: Sequence[Listener] = (),
                 listen_to: Iterable[str] | None = None) -> None:
        if not variant.min_players <= players <= variant.max_players:
            raise UnoDslError(f"{variant.name} is for {variant.min_players}–{variant.max_players} "
                              f"players, not {players}")
        self.variant = variant
        self.n = players
        self.seed = seed
        self.rng = random.Random(seed)
        self._stacked = stacked
        self.max_turns = max_turns
        self.max_rounds = max_rounds
        self._depth = 0
        self._work = WORK_BUDGET  # what is left of the budget of the turn in _work_turn
        self._work_turn = (0, 0)  # (round, turn): the budget is renewed lazily, off the hot loop
        self.cards, self._plays = self._make_cards()
        self.draw_pile: list[Card] = []
        self.discard_pile: list[Card] = []
        self.aside: list[Card] = []
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.flags: list[set[str]] = [set() for _ in range(players)]
        self.scores = [0] * players
        self.side = 0
        self.direction = 1
        self.current = 0
        self.dealer = 0
        self.round = 0
        self.turns = 0
        self.current_color: str | None = None
        self.previous_top: Card | None = None
        self.penalty = 0
        self.penalty_answer: Callable[[Card], Any] | None = None
        self.skips = 0
        self.again = False
        self.next_override: int | None = None
        self.round_winner: int | None = None
        self.emptied: int | None = None  # the first hand emptied since the last check (see went_out)
        self.winner: int | None = None
        self.round_turns: list[int] = []
        self.events: list[tuple[str, dict[str, Any]]] | None = [] if record else None
        self.listeners: list[Listener] = list(listeners)
        subs = variant.cache.get("rules_by_event")
        self._subs: dict[str, tuple[Rule, ...]] = _rules_by_event(variant) if subs is None else subs
        # Events are only built when someone listens: rules, listeners (all events, or
        # just `listen_to`), or a recorded log.
        self._watch: set[str] | _All = set(self._subs)
        if record or (listeners and listen_to is None):
            self._watch = _ALL
        elif listen_to is not None:
            self._watch |= set(listen_to)
        # rule_fired is told only when asked for by name (never to a recorded log)
        self._tell_rules = listen_to is not None and "rule_fired" in listen_to
        self._rewatch()
        self._queue: deque[tuple[Program, dict[str, Any]]] = deque()
        self._legal_env: dict[str, Any] = {}
        self._match = variant.turn.match
        # A pure match depends on faces and the colour only: memoised for the variant.
        self._memo: dict[int, dict[str | None, frozenset[int]]] | None = (
            variant.cache.setdefault("matching", {}) if variant.turn.match_is_pure else None)
        self._last_face: int | None = None  # the last lookup in _memo: top face, colour -> faces
        self._last_color: str | None = None
        self._last_faces: frozenset[int] = frozenset()
        self._must_play = variant.turn.must_play_if_able
        self._draw_rule = variant.turn.draw
        self._agents: Sequence[Chooser] | None = None  # attached by autoplay
        self._agent_error: Exception | None = None
        self._stop_after: int | None = None  # autoplay detaches after this many rounds
        self._flow = self._game()
        self.decision: Decision | None = None
        self._step(None)

    # -- the public contract ---------------------------------------------
    @property
    def over(self) -> bool:
        return self.winner is not None

    def apply(self, choice: Any) -> None:
        """Answer the pending decision; an illegal choice changes nothing."""
        d = self.decision
        if d is None:
            raise IllegalAction("the game is over; there is nothing to choose")
        if choice not in d.options or (d.kind == "ask" and type(choice) is not bool):
            raise _illegal(d, choice)
        self._step(choice)

    def autoplay(self, agents: Sequence[Chooser], rounds: int | None = None) -> None:
        """Let `agents` (one per seat) answer every decision until the game ends, or
        until `rounds` more rounds have ended (the next round is then set up and its
        first decision left pending). The agents are asked inside the engine's loop:
        the same game as answering each decision with apply, without the round trip.
        An agent's error, or an illegal choice, is raised here with its decision
        pending and nothing changed, as apply would."""
        if len(agents) != self.n:
            raise UnoDslError(f"{self.n} players need {self.n} agents, not {len(agents)}")
        stop = None if rounds is None else len(self.round_turns) + rounds
        self._stop_after = stop
        try:
            while self.decision is not None and (stop is None or len(self.round_turns) < stop):
                d = self.decision
                choice = agents[d.player].choose(self, d)
                self._agents = agents
                self.apply(choice)
                if self._agent_error is not None:
                    error, self._agent_error = self._agent_error, None
                    raise error
        finally:
            self._agents = None
            self._stop_after = None

    def _now(self, d: Decision) -> Any:
        """The answer to `d` without waiting: its only option (taken without asking),
        or an attached agent's; _ASK if the flow must yield it."""
        options = d.options
        if len(options) == 1:
            return options[0]
        return self._answer(d) if self._agents is not None else _ASK

    def _answer(self, d: Decision) -> Any:
        """The attached agent's answer to `d`; _ASK if it failed or chose illegally
        (it is then detached, and the flow yields `d` for autoplay to report)."""
        agents = self._agents
        assert agents is not None
        self.decision = d
        try:
            choice = agents[d.player].choose(self, d)
        except Exception as err:  # the agent's own error, reported by autoplay
            self._agent_error = err
            choice = _ASK
        else:
            if choice in d.options and (d.kind != "ask" or type(choice) is bool):
                return choice
            self._agent_error = _illegal(d, choice)
        self._agents = None
        return _ASK

    def watch(self, listener: Listener, events: Iterable[str] | None = None) -> None:
        """Call `listener(game, event, data)` after every event from now on (at least
        those named in `events`; it may also see events that rules subscribe to)."""
        self.listeners.append(listener)
        if events is None:
            self._watch = _ALL
        elif not isinstance(self._watch, _All):
            self._watch |= set(events)
        if events is not None and "rule_fired" in events:
            self._tell_rules = True
        self._rewatch()

    def _rewatch(self) -> None:
        """Flags for the hot paths: is anyone watching the events of every turn (then
        the turn takes its slow path), of a card played, of a card drawn?"""
        watch = self._watch
        self._hooked = "turn_start" in watch or "turn_end" in watch or "choice" in watch
        self._loud_play = "card_played" in watch or "hand_changed" in watch
        self._loud_draw = "card_drawn" in watch or "hand_changed" in watch

    def playable(self, card: Card, by: int) -> bool:
        """True if `by` could legally play `card` now."""
        try:  # free unless a condition fails
            env = self._legal_env  # (this is also the language's `playable`: one call fewer)
            env["player"] = by
            env["card"] = card
            if self._memo is not None:
                if card.face_id not in self._matching_faces():
                    return False
            elif not self._match(self, env):
                return False
            test = card.legal_if
            return test is None or bool(test(self, env))
        except (VariantRuntimeError, RecursionError):
            raise
        except Exception as err:
            raise self._blame(err) from err

    def _matching_faces(self) -> frozenset[int]:
        """The faces that match the top card and colour now, computed once per
        (top face, colour) for the variant: a pure match reads nothing else."""
        pile = self.discard_pile
        face = pile[-1].face_id if pile else -1
        color = self.current_color
        if face == self._last_face and color == self._last_color:
            return self._last_faces
        memo = self._memo
        assert memo is not None
        by_color = memo.get(face)  # two plain lookups: no key tuple to build and hash
        if by_color is None:
            by_color = memo[face] = {}
        faces = by_color.get(color)
        if faces is None:
            env: dict[str, Any] = {"player": self.current}
            matching = set()
            for card in {c.face_id: c for c in self.cards}.values():
                env["card"] = card
                if self._match(self, env):
                    matching.add(card.face_id)
            faces = by_color[color] = frozenset(matching)
        self._last_face, self._last_color, self._last_faces = face, color, faces
        return faces

    def view(self, player: int) -> PlayerView:
        """What `player` can see: their hand, public piles, sizes and outward faces."""
        opponents = tuple(
            OpponentView(seat=q, hand_size=len(self.hands[q]),
                         backs=tuple(sorted(b for b in map(outward, self.hands[q]) if b is not None)),
                         score=self.scores[q], flags=frozenset(self.flags[q]))
            for q in range(self.n) if q != player)
        return PlayerView(
            player=player, hand=tuple(self.hands[player]), opponents=opponents,
            discard_pile=tuple(c.label for c in self.discard_pile), draw_pile_size=len(self.draw_pile),
            draw_pile_back=outward(self.draw_pile[-1]) if self.draw_pile else None,
            current_color=self.current_color, side=self.variant.sides[self.side].name,
            direction=self.direction, current=self.current, dealer=self.dealer, penalty=self.penalty,
            scores=tuple(self.scores))

    def zones(self) -> dict[str, list[Card]]:
        """Every zone by name: the piles, the aside area and each hand."""
        zones = {"draw_pile": self.draw_pile, "discard_pile": self.discard_pile, "aside": self.aside}
        zones.update({f"hand {p}": h for p, h in enumerate(self.hands)})
        return zones

    def zone_name(self, zone: list[Card]) -> str:
        for name, z in self.zones().items():
            if z is zone:
                return name
        return "cards"

    def arrange(self, hands: Mapping[int, Sequence[str]], discard: Sequence[str] = (),
                draw: Sequence[str] = (), *, current: int = 0, color: str | None = None,
                dealer: int | None = None, direction: int = 1) -> None:
        """Set up a position by card labels ("red 7", "wild draw four") and start
        `current`'s turn there (a recorded log restarts from here). `discard` ends with the top card; `draw` starts with
        the next card drawn; every other card goes under the draw pile."""
        zones = self._by_labels({"discard": discard, "draw": draw,
                                 **{f"hand {p}": h for p, h in hands.items()}})
        for p, hand in enumerate(self.hands):
            hand[:] = zones.get(f"hand {p}", [])
        self.discard_pile[:] = zones["discard"]
        self.draw_pile[:] = zones["draw"]
        self.aside.clear()
        for flags in self.flags:
            flags.clear()
        self.current = current
        self.dealer = self.dealer if dealer is None else dealer
        self.direction = direction
        top_card = self.discard_pile[-1] if self.discard_pile else None
        self.current_color = color if color is not None else (top_card.color if top_card else None)
        self.penalty, self.penalty_answer, self.round_winner, self.emptied = 0, None, None, None
        self.skips, self.again, self.next_override = 0, False, None
        self._queue.clear()
        if self.events is not None:
            self.events.clear()  # the recorded log starts at the arranged position
        self._flow = self._game(resumed=True)
        self._step(None)

    def _by_labels(self, wanted: Mapping[str, Sequence[str]]) -> dict[str, list[Card]]:
        """Pick physical cards by label for each zone; the rest go to "draw" (under)."""
        free: dict[str, list[Card]] = {}
        for card in reversed(self.cards):
            free.setdefault(card.label, []).append(card)
        out: dict[str, list[Card]] = {}
        for zone, labels in wanted.items():
            picked = []
            for label in labels:
                if not free.get(label):
                    known = ", ".join(sorted(free)[:8])
                    raise UnoDslError(f"no card {label!r} left for {zone} (labels look like: {known} …)")
                picked.append(free[label].pop())
            out[zone] = picked
        rest = [c for cards in free.values() for c in cards]
        rest.sort(key=lambda c: c.id)
        out["draw"] = rest + out.get("draw", [])[::-1]
        return out

    # -- driving the flow ---------------------------------------------------
    #
    # An effect program runs as plain calls for as long as nothing has to wait
    # for a player: `perform` returns None when it finished, or a generator that
    # finishes it (the caller yields from it). Most programs never wait, so most
    # of a game makes no generators at all.
    def _step(self, choice: Any) -> None:
        try:
            self.decision = self._flow.send(choice)
        except StopIteration:
            self.decision = None
        except RecursionError:
            self._runaway_nesting()
        except _ListenerFailed as failed:
            raise failed.error from None
        except UnoDslError as err:
            self.decision = None
            if isinstance(err, (VariantRuntimeError, RunawayRound)) or type(err) is UnoDslError:
                raise
            raise self._fault(err, None) from err
        except Exception as err:  # a fault outside any program or known condition
            self.decision = None
            raise self._fault(err, None) from err

    def _fault(self, err: BaseException, where: Any) -> VariantRuntimeError:
        """`err`, raised by the variant's expression at `where` ((file position, text),
        a condition's closure, or None), as a positioned runtime error."""
        if isinstance(err, VariantRuntimeError):
            return err
        if callable(where):
            where = self.variant.where.get(where)
        pos, text = where if isinstance(where, tuple) and isinstance(where[0], Pos) else (None, None)
        message = _explain(err)
        if text:
            message = f"{message} (in `{text}`)"
        return VariantRuntimeError(pos, message, round=self.round, turn=self.turns, seed=self.seed,
                                   replay=self.replay_command())

    def replay_command(self, agents: Sequence[str] = ()) -> str:
        """The `unodsl run` command that plays this game again (with these agents' names)."""
        return replay_command(self.variant.file, self.seed, self.n, agents, self.max_turns,
                              [(o.name, o.value) for o in self.variant.options])

    def _blame(self, err: Exception) -> VariantRuntimeError:
        """`err` came from the match, a card's legal_if or the draw rule's allowed_if
        (conditions have no effects): the first that fails again is to blame."""
        env = self._legal_env
        card = env.get("card")
        for test in (self._match, getattr(card, "legal_if", None), self._draw_rule.allowed_if):
            if test is None:
                continue
            try:
                test(self, dict(env))
            except Exception:
                return self._fault(err, test)
        return self._fault(err, None)

    def _charge(self, work: int) -> None:
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

    def emit(self, name: str, data: dict[str, Any]) -> None:
        """Record an event, tell listeners, and queue the rules that subscribe."""
        if self.events is not None:
            self.events.append((name, data))
        for listener in self.listeners:
            try:
                listener(self, name, data)
            except Exception as err:  # the listener's own: it passes the variant's fault handlers
                raise _ListenerFailed(err) from err
        for rule in self._subs.get(name, ()):
            env = dict(data)
            try:
                if rule.cond is None or rule.cond(self, env):
                    if self._tell_rules:
                        self.emit("rule_fired", {"player": data["player"], "rule": rule.name, "event": name})
                    self._queue.append((rule.body, env))
            except VariantRuntimeError:
                raise
            except Exception as err:
                raise self._fault(err, rule.cond) from err

    def watching(self, name: str) -> bool:
        return name in self._watch

    def run(self, program: Program, env: dict[str, Any]) -> Flow:
        """Run an effect program to its end, as a generator (see _nested)."""
        rest = self._nested(program, env)
        if rest is not None:
            yield from rest

    def _nested(self, program: Program, env: dict[str, Any]) -> Flow | None:
        """perform, counted as one more level of nesting until it finishes, so that
        cards applying cards, or rules triggering rules, stop at NESTING_GUARD."""
        if self._depth >= NESTING_GUARD:
            raise GameError(f"effects nested {NESTING_GUARD} deep in round {self.round} (a card that "
                            "applies cards that apply cards …); the variant never stops")
        self._work -= 1
        if self._work < 0:
            self._charge(0)  # renews a stale budget, or ends a runaway turn
        self._depth += 1
        try:
            rest = self.perform(program, env)
        except BaseException:
            self._depth -= 1
            raise
        if rest is None:
            self._depth -= 1
            return None
        return self._leaving(rest)

    def _leaving(self, rest: Flow) -> Flow:
        try:
            yield from rest
        finally:
            self._depth -= 1

    def perform(self, program: Program, env: dict[str, Any], start: int = 0) -> Flow | None:
        """Run `program` from step `start` until it ends (None) or must wait for a
        player (the generator that finishes it). Rules queued by a step run after it."""
        i = start - 1
        step: Any = None
        try:  # free unless something fails: then the failing step is known
            for step in program[start:] if start else program:
                i += 1  # this step's index (cheaper than range and indexing)
                op = step[0]
                if op == DO:
                    result = step[1](self, env)
                    if type(result) is GeneratorType:  # an effect that runs a program (play, apply)
                        return self._resume(result, program, env, i + 1)
                elif op == LET:
                    env[step[1]] = step[2](self, env)
                elif op == CHOOSE:
                    asked = step[2](self, env)
                    if type(asked) is Decision:
                        # decide() drains the queue and tells watchers of the choice first
                        quiet = not self._queue and "choice" not in self._watch
                        answer = self._now(asked) if quiet else _ASK
                        if answer is _ASK:
                            return self._resume(self._choose(step[1], asked, env), program, env, i + 1)
                        asked = answer
                    env[step[1]] = asked
                elif op == IF:
                    body = step[2] if step[1](self, env) else step[3]
                    if body:
                        rest = self.perform(body, env)
                        if rest is not None:
                            return self._resume(rest, program, env, i + 1)
                else:
                    rest = self._loop(step, env)
                    if rest is not None:
                        return self._resume(rest, program, env, i + 1)
                if self._queue:
                    rest = self._drain_now()
                    if rest is not None:
                        return self._resume(rest, program, env, i + 1)
        except (VariantRuntimeError, RecursionError):
            raise
        except Exception as err:
            raise self._fault(err, step[-1] if step else None) from err
        return None

    def _loop(self, step: tuple[Any, ...], env: dict[str, Any]) -> Flow | None:
        """A FOR, WHILE or REPEAT step: its iterations run plainly until one must
        wait; the generator returned then finishes that one and the rest."""
        op = step[0]
        if op == FOR:
            var, body = step[1], step[3]
            items = list(step[2](self, env))
            self._charge(len(items) * (len(body) or 1))
            for k, item in enumerate(items):
                env[var] = item
                rest = self.perform(body, env)
                if rest is not None:
                    return self._then(rest, self._for(var, items[k + 1:], body, env))
            return None
        if op == WHILE:
            cond, body = step[1], step[2]
            work = len(body) or 1
            for k in range(WHILE_GUARD):
                if not cond(self, env):
                    return None
                self._charge(work)
                rest = self.perform(body, env)
                if rest is not None:
                    return self._then(rest, self._while(cond, body, env, WHILE_GUARD - k - 1))
            raise self._endless_while()
        times = step[1](self, env)  # REPEAT
        if times > WHILE_GUARD:
            raise RuntimeFault(f"repeat {times:,} times: more than the {WHILE_GUARD:,} a loop may run")
        self._charge(max(times, 0) * (len(step[2]) or 1))
        for k in range(times):
            rest = self.perform(step[2], env)
            if rest is not None:
                return self._then(rest, self._repeat(step[2], env, times - k - 1))
        return None

    def _resume(self, rest: Flow, program: Program, env: dict[str, Any], start: int) -> Flow:
        """Finish a step that had to wait, run the rules it queued, then the program
        from step `start` (plainly again, until the next wait)."""
        yield from rest
        if self._queue:
            yield from self._drain()
        more = self.perform(program, env, start)
        if more is not None:
            yield from more

    @staticmethod
    def _then(first: Flow, second: Flow) -> Flow:
        yield from first
        yield from second

    def _choose(self, var: str, asked: Decision, env: dict[str, Any]) -> Flow:
        env[var] = yield from self.decide(asked)

    def _for(self, var: str, items: list[Any], body: Program, env: dict[str, Any]) -> Flow:
        for item in items:
            env[var] = item
            yield from self.run(body, env)

    def _while(self, cond: Fn, body: Program, env: dict[str, Any], budget: int = WHILE_GUARD) -> Flow:
        for _ in range(budget):
            if not cond(self, env):
                return
            self._charge(len(body) or 1)
            yield from self.run(body, env)
        raise self._endless_while()

    def _repeat(self, body: Program, env: dict[str, Any], times: int) -> Flow:
        for _ in range(times):
            yield from self.run(body, env)

    @staticmethod
    def _endless_while() -> RuntimeFault:
        return RuntimeFault(f"a while loop ran {WHILE_GUARD:,} times; its condition never became false")

    def _drain_now(self) -> Flow | None:
        """Run the queued rules plainly; if one must wait, the generator that
        finishes it and the rest of the queue."""
        queue = self._queue
        while queue:
            body, env = queue.popleft()
            rest = self._nested(body, env)
            if rest is not None:
                return self._then(rest, self._drain())
        return None

    def _drain(self) -> Flow:
        queue = self._queue
        while queue:
            body, env = queue.popleft()
            yield from self.run(body, env)

    def decide(self, decision: Decision) -> Flow:
        """Ask a player (a single legal option is taken without asking)."""
        if self._queue:
            yield from self._drain()
        choice = self._now(decision)
        if choice is _ASK:
            choice = yield decision
        if "choice" in self._watch:
            self.emit("choice", {"player": decision.player, "kind": decision.kind,
                                 "value": choice, "prompt": decision.prompt})
        return choice

    # -- the game -------------------------------------------------------------
    def _make_cards(self) -> tuple[list[Card], list[Play]]:
        """The physical cards. One-sided cards never change, so a variant's are shared."""
        variant = self.variant
        shared = variant.cache.get("cards")
        if shared is not None:
            return shared  # type: ignore[no-any-return]
        table = face_table(variant)
        columns = [list(side.faces) for side in variant.sides]
        if variant.pairing == "shuffled":
            for column in columns[1:]:
                self.rng.shuffle(column)  # the pairing is fixed per game, even when stacked
        cards = [Card(i, tuple(col[i] for col in columns), table) for i in range(len(columns[0]))]
        made = (cards, [Play(c) for c in cards])
        if len(columns) == 1:
            variant.cache["cards"] = made
        return made

    def _game(self, resumed: bool = False) -> Flow:
        """Rounds until someone wins; `resumed` continues a round set up by arrange.
        (The answer to a decision is sent through every generator between here and
        apply(), so a turn runs inline here, and its common paths make no generators.)"""
        while self.winner is None:
            if not resumed:
                self.round += 1
                if self.round > self.max_rounds:
                    raise GameError(f"{self.max_rounds:,} rounds and no one reached the target score "
                                    f"of {self.variant.scoring.target:,}; the variant never ends")
                rest = self._setup_round()
                if rest is not None:
                    yield from rest
                if not self._went_out():  # a hand may be empty after set-up (a first card's effect)
                    self._advance()
            else:
                self._went_out()  # an arranged position may hold an empty hand
            resumed = False
            while self.round_winner is None:
                # -- one player's turn: play a card, draw, or pass; then check for a winner
                if self.turns >= self.max_turns:
                    raise RunawayRound(f"round {self.round} passed {self.max_turns:,} turns with no "
                                       "winner (raise max_turns, or check the variant's rules)")
                p = self.current
                self.turns += 1
                if self._hooked:
                    action = yield from self._hooked_decision(p)
                else:
                    if self._queue:
                        yield from self._drain()
                    options = self._turn_options(p)
                    if len(options) == 1:
                        action = options[0]
                    else:
                        d = _decision((p, "turn", options, "", None))
                        action = self._answer(d) if self._agents is not None else _ASK
                        if action is _ASK:
                            action = yield d
                if action is DRAW:
                    rest = self._draw_turn(p)
                elif action is PASS:
                    rest = None
                else:
                    rest = self._play_now(p, action.card, True)
                if rest is not None:
                    yield from rest
                if self._hooked and "turn_end" in self._watch:
                    self.emit("turn_end", {"player": p})
                    if self._queue:
                        yield from self._drain()
                if self.emptied is not None and self._went_out():
                    pass  # a hand was emptied during the turn (by a play, an effect, a rule …)
                elif self.skips or self.again or self.next_override is not None:
                    self._advance()
                else:  # the common case of _advance
                    self.current = (self.current + self.direction) % self.n
            self.round_turns.append(self.turns)
            self._score()
            if self._stop_after is not None and len(self.round_turns) >= self._stop_after:
                self._agents = None  # autoplay's rounds are done: the next decision waits

    def _went_out(self) -> bool:
        """End the round if a hand is empty, once the step that emptied it is over
        (a set-up, a turn with its effects and rules): the winner is the first hand
        emptied since the last check, or else the first empty hand in seat order.
        The turn loop calls it only when `emptied` is set, so it scans no hands."""
        first, self.emptied = self.emptied, None
        hands = self.hands
        if first is not None and not hands[first]:
            self.round_winner = first
        else:
            self.round_winner = next((q for q, h in enumerate(hands) if not h), None)
        return self.round_winner is not None

    def took_from_hand(self, p: int) -> None:
        """Note that cards left `p`'s hand (every primitive that takes cards from a
        hand calls this): an empty hand ends the round after the current step."""
        if self.emptied is None and not self.hands[p]:
            self.emptied = p

    def _hooked_decision(self, p: int) -> Flow:
        """The start of a turn while someone watches turn_start, turn_end or choice."""
        if "turn_start" in self._watch:
            self.emit("turn_start", {"player": p})
        if self._queue:
            yield from self._drain()
        return (yield from self.decide(_decision((p, "turn", self._turn_options(p), "", None))))

    def _reset_round(self) -> None:
        if self.side != 0:
            self.turn_over(0)
        for zone in (self.discard_pile, self.aside, *self.hands):
            zone.clear()
        self.draw_pile[:] = self.cards
        if self._stacked is not None and self.round == 1:
            self.draw_pile[:] = self._by_labels({"draw": self._stacked})["draw"]
        for flags in self.flags:
            flags.clear()
        self.direction = 1
        self.current_color = None
        self.previous_top = None
        self.penalty = 0
        self.penalty_answer = None
        self.skips = 0
        self.again = False
        self.next_override = None
        self.round_winner = None
        self.emptied = None
        self.turns = 0

    def _setup_round(self) -> Flow | None:
        self._reset_round()
        v = self.variant
        pick = v.first_dealer if self.round == 1 else v.next_dealer
        if pick is not None:
            try:
                self.dealer = pick(self, {"player": self.dealer}) % self.n
            except Exception as err:
                raise self._fault(err, pick) from err
        self.current = self.dealer
        if "round_start" in self._watch:
            self.emit("round_start", {"player": self.dealer, "round": self.round})
        rest = self.perform(v.setup, {"player": self.dealer})
        if rest is not None:
            return self._then(rest, self._drain())
        return self._drain() if self._queue else None

    def _advance(self) -> None:
        if self.next_override is not None:
            self.current = self.next_override
        elif not self.again:
            p, d, n = self.current, self.direction, self.n
            if self.skips and "skipped" in self._watch:
                for k in range(1, min(self.skips, n) + 1):  # each player is told once
                    self.emit("skipped", {"player": (p + k * d) % n})
            self.current = (p + (self.skips + 1) * d) % n
        self.skips = 0
        self.again = False
        self.next_override = None

    def _turn_options(self, p: int) -> tuple[Any, ...]:
        try:  # free unless a condition fails
            plays = self._plays
            hand = self.hands[p]
            if not self.penalty:
                env = self._legal_env
                env["player"] = p
                memo = self._memo
                if memo is not None:
                    pile = self.discard_pile  # _matching_faces, its common case inline
                    face = pile[-1].face_id if pile else -1
                    color = self.current_color
                    by_color = memo.get(face)
                    faces = None if by_color is None else by_color.get(color)
                    if faces is None:
                        faces = self._matching_faces()
                    else:
                        self._last_face, self._last_color, self._last_faces = face, color, faces
                    options: list[Any] = []  # a loop, not a comprehension: hands are short
                    for c in hand:
                        if c.face_id in faces:
                            test = c.legal_if
                            if test is not None:
                                env["card"] = c
                                if not test(self, env):
                                    continue
                            options.append(plays[c.id])
                else:
                    options = []
                    for c in hand:
                        env["card"] = c
                        if self._match(self, env) and (c.legal_if is None or c.legal_if(self, env)):
                            options.append(plays[c.id])
                if options and self._must_play:
                    return tuple(options)
                allowed = self._draw_rule.allowed_if
                if allowed is None or allowed(self, {"player": p}):
                    options.append(DRAW)
                return tuple(options) if options else (PASS,)
            answer, playable = self.penalty_answer, self.playable
            options = [plays[c.id] for c in hand if answer is not None and answer(c) and playable(c, p)]
            options.append(DRAW)
            return tuple(options)
        except (VariantRuntimeError, RecursionError):
            raise
        except Exception as err:
            raise self._blame(err) from err

    def _draw_turn(self, p: int) -> Flow | None:
        """Draw for the turn (or take the pending penalty); a drawn card may then be played."""
        if self.penalty:
            count, self.penalty, self.penalty_answer = self.penalty, 0, None
            self.draw(p, count)
            if "penalty_taken" in self._watch:
                self.emit("penalty_taken", {"player": p, "count": count})
            return None
        rule = self._draw_rule
        if rule.until_playable:
            drawn: list[Card] = []
            while len(drawn) < rule.max:
                got = self.draw(p, 1)
                if not got:
                    break
                drawn += got
                if self.playable(got[0], p):
                    break
        else:
            drawn = self.draw(p, rule.count)
        if self._queue or rule.then == "may_play":
            return self._after_draw(p, drawn)
        if drawn and rule.then == "must_play" and self.playable(drawn[-1], p):
            return self._play_now(p, drawn[-1], True)
        return None

    def _after_draw(self, p: int, drawn: list[Card]) -> Flow:
        """The rules the draw queued, then the drawn card: offered, played or kept."""
        if self._queue:
            yield from self._drain()
        rule = self.variant.turn.draw
        if not drawn or rule.then == "keep":
            return
        card = drawn[-1]
        if card not in self.hands[p] or not self.playable(card, p):
            return
        offer = _decision((p, "drawn", (self._plays[card.id], KEEP), "", None))
        if rule.then == "may_play" and (yield from self.decide(offer)) is KEEP:
            return
        yield from self.play(p, card)

    def play(self, p: int, card: Card, effect: bool = True) -> Flow:
        """`p` plays `card` from hand onto the discard pile; its effect runs."""
        rest = self._play_now(p, card, effect)
        if rest is not None:
            yield from rest

    def _play_now(self, p: int, card: Card, effect: bool) -> Flow | None:
        """`p` plays `card`: put down, the rules that queued, then its on_play (None
        if all of it ran without waiting; otherwise the generator that finishes it).
        Not counted as nesting: each play takes a card from a hand, so plays end."""
        hand = self.hands[p]
        hand.remove(card)
        if not hand and self.emptied is None:  # took_from_hand, inline: this is the hot path
            self.emptied = p
        pile = self.discard_pile
        self.previous_top = pile[-1] if pile else None
        pile.append(card)
        if card.color is not None:
            self.current_color = card.color
        if self._loud_play:
            if "card_played" in self._watch:
                self.emit("card_played", {"player": p, "card": card})
            if "hand_changed" in self._watch:
                self.emit("hand_changed", {"player": p, "size": len(hand)})
        rest = self._drain_now() if self._queue else None
        if not (effect and card.on_play):
            return rest
        env = {"player": p, "card": card}
        if rest is not None:
            return self._then(rest, self.run(card.on_play, env))
        return self.perform(card.on_play, env)

    def draw(self, p: int, count: int) -> list[Card]:
        """`p` draws up to `count` cards; an empty pile is refilled (COM-1)."""
        pile = self.draw_pile
        hand = self.hands[p]
        got: list[Card] = []
        for _ in range(count):
            if not pile:
                self.refill()
                if not pile:
                    if "draw_short" in self._watch:
                        self.emit("draw_short", {"player": p, "missing": count - len(got)})
                    break
            card = pile.pop()
            hand.append(card)
            got.append(card)
            if self._loud_draw and "card_drawn" in self._watch:
                self.emit("card_drawn", {"player": p, "card": card})
        if got and self._loud_draw and "hand_changed" in self._watch:
            self.emit("hand_changed", {"player": p, "size": len(hand)})
        return got

    def refill(self) -> None:
        """Shuffle all but the top of the discard pile into the draw pile (COM-1)."""
        discard = self.discard_pile
        if len(discard) <= 1:
            return
        top = discard.pop()
        self.draw_pile.extend(discard)
        discard.clear()
        discard.append(top)
        self.shuffle(self.draw_pile)
        if "reshuffled" in self._watch:
            self.emit("reshuffled", {"player": self.current, "count": len(self.draw_pile)})

    def shuffle(self, zone: list[Card]) -> None:
        """Shuffle a pile with the game's generator: Fisher–Yates, each index from
        one random() (its bias, under k / 2**53 for k cards, is far below anything a
        simulation could see; random.shuffle's exact draws cost half as much again)."""
        if self._stacked is None:
            rand = self.rng.random
            for i in range(len(zone) - 1, 0, -1):
                j = int(rand() * (i + 1))
                zone[i], zone[j] = zone[j], zone[i]

    def turn_over(self, side: int) -> None:
        """Show face `side` of every card; piles turn over as a whole (FLIP-8)."""
        self.side = side
        table = face_table(self.variant)
        for card in self.cards:
            card.show(side, table)
        self.draw_pile.reverse()
        self.discard_pile.reverse()
        self.aside.reverse()

    def _score(self) -> None:
        w = self.round_winner
        assert w is not None
        scoring = self.variant.scoring
        held = [sum(map(_points, hand)) for hand in self.hands]
        if scoring.round == "winner_scores_others":
            gained = [0] * self.n
            gained[w] = sum(held) - held[w]
        else:
            gained = held[:]
            gained[w] = 0
        for q in range(self.n):
            self.scores[q] += gained[q]
        if "round_end" in self._watch:
            self.emit("round_end", {"player": w, "points": gained})
        if max(self.scores) >= scoring.target:
            best = max(self.scores) if scoring.winner == "highest" else min(self.scores)
            self.winner = self.scores.index(best)
            if "game_end" in self._watch:
                self.emit("game_end", {"player": self.winner, "scores": list(self.scores)})


_points = attrgetter("points")


def _rules_by_event(variant: Variant) -> dict[str, tuple[Rule, ...]]:
    """The variant's rules by the event they wait for (kept in its cache)."""
    subs: dict[str, tuple[Rule, ...]] = {}
    for rule in variant.rules:
        subs[rule.event] = (*subs.get(rule.event, ()), rule)
    variant.cache["rules_by_event"] = subs
    return subs


def replay_command(file: str, seed: int, players: int, agents: Sequence[str], max_turns: int,
                   options: Iterable[tuple[str, Any]]) -> str:
    """The `unodsl run` command that plays a game again: every option named, a switch
    on or off and a number option at its value."""
    parts = ["unodsl", "run", file, "--seed", str(seed), "-p", str(players)]
    if agents:
        parts += ["-a", ",".join(agents)]
    if max_turns != MAX_TURNS:
        parts += ["--max-turns", str(max_turns)]
    for name, value in options:
        parts += ["-o", f"{name}={('on' if value else 'off') if isinstance(value, bool) else value}"]
    return " ".join(parts)


def _explain(err: BaseException) -> str:
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


def _illegal(d: Decision, choice: Any) -> IllegalAction:
    legal = ", ".join(str(o) for o in d.options[:12])
    return IllegalAction(f"{choice} is not a legal choice for player {d.player} ({d.kind}); legal: {legal}")


# A Decision from a 5-tuple, without the keyword-handling __new__ (a hot path).
_decision: Callable[[tuple[Any, ...]], Decision] = partial(tuple.__new__, Decision)


class _ListenerFailed(BaseException):
    """A listener's error on its way out of the flow (not a fault of the variant)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


class _All:
    """A set that contains every event name (used while recording)."""

    def __contains__(self, item: object) -> bool:
        return True


_ALL = _All()
