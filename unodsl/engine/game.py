"""The game: a value that holds everything needed to go on, and the interpreter
that runs it until a player must decide.

`decision` is the pending question and `apply` answers it. The state is plain
data: zones of immutable cards, scores, flags, counters, the generator's state,
and the continuation, a stack of frames (tuples naming a program and a step, a
loop and its position, the turn that waits for its action …). Programs, steps
and cards belong to the variant and are shared, never copied. So a game can be
cloned at any decision (`clone`), pickled, and rebuilt from its seed and the
answers given (`from_actions`).

Most of a game runs as plain calls: a program's steps, a turn, a round. Only
when a player must be asked does the running code stop, and each level it
returns through adds the frame that goes on from where it stood (see `_pause`);
`apply` then gives the answer to the top frame and runs the stack down.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from operator import attrgetter
from typing import Any, Protocol

from ..errors import GameError, IllegalAction, Pos, RunawayRound, RuntimeFault, UnoDslError, VariantRuntimeError
from ..lang.compile import MAX_INT
from ..lang.program import CHOOSE, DO, FOR, IF, LET, WHILE, Lambda, Program, Step
from ..model import Face, Rule, Variant
from .actions import (
    ANSWER_TYPES,
    DRAW,
    KEEP,
    PASS,
    Decision,
    Play,
    answer_value,
    decode_answer,
    encode_answer,
    is_answer,
)
from .cards import Card, make_deck
from .view import OpponentView, PlayerView, outward

Listener = Callable[["Game", str, dict[str, Any]], None]
Frame = tuple[Any, ...]


class Chooser(Protocol):
    """Anything that answers decisions: the agents, a person at a terminal …

    `autoplay` asks agents inside the engine's step, where the game is not whole:
    an agent that clones, pickles or resamples the game it is asked about sets a
    class attribute `searches = True`, and is asked where the game has stopped."""

    def choose(self, game: Game, decision: Decision) -> Any: ...


class _Paused:
    """What an effect returns when the program it started must wait for a player."""

    def __repr__(self) -> str:
        return "PAUSED"


PAUSED = _Paused()
_ASK = object()  # "the player must be asked": no agent is attached, or it failed

MAX_TURNS = 5_000  # a round's turns before it is a runaway (the default)
WHILE_GUARD = 10_000  # iterations of one while or repeat loop
NESTING_GUARD = 100  # effect programs running inside one another (apply within apply …)
WORK_BUDGET = 1_000_000  # loop iterations × steps, and programs run, in one turn (nested loops included)

# The frames of the continuation. Each is a tuple: its kind, then its data.
# Waiting frames are on top of the stack while a decision is pending, and take the answer.
_PROGRAM = 0  # (_PROGRAM, program, pc, env, leave): run from step pc; leave=1 ends a nesting level
_FOR = 1  # (_FOR, step, items, k, env): the for loop's iterations from item k
_WHILE = 2  # (_WHILE, step, env, left): at most `left` more iterations
_REPEAT = 3  # (_REPEAT, step, env, left)
_DRAIN = 4  # (_DRAIN,): the rules queued by events
_CHOOSE = 5  # (_CHOOSE, var, decision, env): put a program's decision (its rules have run)
_ROUNDS = 6  # (_ROUNDS,): the next round, and those after it, until someone wins
_SETUP_END = 7  # (_SETUP_END,): a set-up has run: the first player
_TURNS = 8  # (_TURNS,): the turns of the round in play, then its scoring
_TURN_ASK = 9  # (_TURN_ASK, p): put p's turn (the rules before it have run)
_AFTER_DRAW = 10  # (_AFTER_DRAW, p, drawn): offer the card p drew for the turn
_TURN_END = 11  # (_TURN_END, p): p's turn is over: turn_end, then whose turn is next
_MOVE_ON = 12  # (_MOVE_ON,): whose turn is next
_BIND = 13  # waiting: (_BIND, var, env, decision): a program's variable takes the answer
_TURN = 14  # waiting: (_TURN, p, decision): p's action for the turn
_DRAWN = 15  # waiting: (_DRAWN, p, card, decision): play the card drawn, or keep it
_OFFER = 16  # (_OFFER, test, seats, k): offer out-of-turn plays to seats[k:] (see jump_in)
_JUMP = 17  # waiting: (_JUMP, test, seats, k, decision): seats[k] plays out of turn, or passes
_GAME_OVER = 18  # (_GAME_OVER,): a round's round_end rules have run: has someone won the game?
WAITING = (_BIND, _TURN, _DRAWN, _JUMP)


class Game:
    """One game of a variant: zones, turn order, scores, one seeded RNG."""

    def __init__(self, variant: Variant, players: int, seed: int = 0, *,
                 max_turns: int = MAX_TURNS, max_rounds: int = 1_000, record: bool = False,
                 stacked: Sequence[str] | None = None, listeners: Sequence[Listener] = (),
                 listen_to: Iterable[str] | None = None) -> None:
        if not variant.min_players <= players <= variant.max_players:
            raise UnoDslError(f"{variant.name} is for {variant.min_players}–{variant.max_players} "
                              f"players, not {players}")
        if variant.teams == "opposite" and players % 2:
            raise UnoDslError(f"{variant.name} pairs partners opposite: it needs an even number of players, "
                              f"not {players}")
        start = variant.cache.get(f"start {players}")
        if start is None:
            self._first_start(variant, players, seed)
        else:  # the values every new game of this table starts with, as the first one set them
            self.__dict__.update(start)
            self._rng = random.Random(seed)
        self.seed = seed
        self._stacked = stacked
        self.max_turns = max_turns
        self.max_rounds = max_rounds
        self.draw_pile: list[Card] = []
        self.discard_pile: list[Card] = []
        self.aside: list[Card] = []
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.flags: list[set[str]] = [set() for _ in range(players)]
        self.revealed: dict[int, int] = {}  # cards shown to everyone (reveal), by id: the seat holding each
        self.scores = [0] * players
        self.round_turns: list[int] = []
        self.events: list[tuple[str, dict[str, Any]]] | None = [] if record else None
        self.listeners: list[Listener] = list(listeners)
        self._legal_env: dict[str, Any] = {}
        # Events are only built when someone listens: rules, listeners (all events, or
        # just `listen_to`), or a recorded log.
        self._watch: set[str] | _All = set(self._subs)
        if record or (listeners and listen_to is None):
            self._watch = _ALL
        elif listen_to is not None:
            self._watch |= set(listen_to)
        # rule_fired is told only when asked for by name (never to a recorded log)
        self._tell_rules = listen_to is not None and "rule_fired" in listen_to
        if start is None or record or listeners or listen_to is not None:
            self._rewatch()
        self._queue: deque[tuple[Program, dict[str, Any]]] = deque()
        self._answers: list[Any] = []  # every answer given to a decision with a choice in it
        self._stack: list[Frame] = [(_ROUNDS,)]  # the continuation; its top is the last frame
        self._paused: list[Frame] = []  # the frames of a pause, innermost first (see _pause)
        shared = variant.cache.get("deck")
        if start is None and shared is not None and shared[1] is self._decks and not (record or listeners or listen_to):
            variant.cache[f"start {players}"] = {k: v for k, v in self.__dict__.items() if k in _START}
        self._go(None)

    def _first_start(self, variant: Variant, players: int, seed: int) -> None:
        """The start of a game whose values are not known yet for this variant and table
        (they are kept for the next, when the deck is the variant's own: see _START)."""
        self.variant = variant
        self.n = players
        self._rng = random.Random(seed)
        self._rng_shared = False  # shared with a clone: copied before its next use
        self._depth = 0
        self._work = WORK_BUDGET  # what is left of the budget of the turn in _work_turn
        self._work_turn = (0, 0)  # (round, turn): the budget is renewed lazily, off the hot loop
        deck: Deck | None = variant.cache.get("deck")  # (pairing, cards by side, plays by side), when fixed
        if deck is None:
            deck = self._make_deck()
        self._pairing, self._decks, self._all_plays = deck
        self.side = 0
        self.direction = 1
        self.current = 0
        self.dealer = 0
        self.round = 0
        self.turns = 0
        self.current_color: str | None = None
        self.previous_top: Card | None = None
        self.penalty = 0
        self.penalty_answer: Lambda | None = None
        self.skips = 0
        self.again = False
        self.next_override: int | None = None
        self.offered: int | None = None  # the top card last offered for out-of-turn plays (its id)
        self.round_winner: int | None = None
        self.out: frozenset[int] = frozenset()  # the players out of the round (see eliminate)
        self.out_of_game: frozenset[int] = frozenset()  # those out of every round to come too
        self._newly_out: frozenset[int] = frozenset()  # those put out since the turn began
        self.emptied: int | None = None  # the first hand emptied since the last check (see went_out)
        self.winner: int | None = None  # the game's winner (the first in seat order when several tie)
        self.winners: tuple[int, ...] = ()  # every winner: more than one team on a tie (see _winners)
        self.replayable = True  # the seed and the answers tell the game (not after arrange or resample)
        self._agents: Sequence[Chooser | None] | None = None  # attached by autoplay (None: asked at a stop)
        self._running = False  # a step is running (agents answer inside it): the state is not whole
        self._agent_error: Exception | None = None
        self._stop_after: int | None = None  # autoplay detaches after this many rounds
        self.decision: Decision | None = None
        self._derive()

    def _derive(self) -> None:
        """The fields that follow from the variant and the side in play (remade, not
        pickled): the cards shown, the rules by event, the match and its memo."""
        variant = self.variant
        self.cards = self._decks[self.side]
        self._plays = self._all_plays[self.side]
        subs = variant.cache.get("rules_by_event")
        self._subs: dict[str, tuple[Rule, ...]] = _rules_by_event(variant) if subs is None else subs
        self._legal_env = {}
        self._match = variant.turn.match
        # A pure match depends on faces and the colour only: memoised for the variant.
        self._memo: dict[int, dict[str | None, frozenset[int]]] | None = (
            variant.cache.setdefault("matching", {}) if variant.turn.match_is_pure else None)
        self._last_face: int | None = None  # the last lookup in _memo: top face, colour -> faces
        self._last_color: str | None = None
        self._last_faces: frozenset[int] = frozenset()
        self._must_play = variant.turn.must_play_if_able
        self._draw_rule = variant.turn.draw
        # The compiled backend's generated code: each program's runner, the rules of each
        # event, and the turn loop (used while only the rules watch events: see _rewatch).
        self._runners = variant.runners
        self._fires = variant.fires
        self._turn_loop = variant.turn_loop
        self.team_of, self.teams = _team_tables(variant, self.n)

    @classmethod
    def _restore(cls, variant: Variant, pairing: list[tuple[Face, ...]] | None, check: tuple[str, int],
                 payload: bytes) -> Game:
        """Unpickle a game (see engine/snapshot.py); no `pairing`: the variant's own deck."""
        from .snapshot import load_state
        game = cls.__new__(cls)
        game.variant = variant
        if pairing is None:
            game._rng = random.Random()
            deck: Deck = variant.cache.get("deck") or game._make_deck()
            pairing = deck[0]
            game._decks, game._all_plays = deck[1], deck[2]
        else:
            game._decks, game._all_plays = _decks(variant, pairing)
        game._pairing = pairing
        game.__dict__.update(load_state(game, check, payload))
        game._derive()
        return game

    # -- the public contract ---------------------------------------------
    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def rng(self) -> random.Random:
        """The game's own generator (deals, shuffles, cuts); a clone copies it on first use."""
        if self._rng_shared:
            rng = random.Random()
            rng.setstate(self._rng.getstate())
            self._rng, self._rng_shared = rng, False
        return self._rng

    @property
    def actions(self) -> list[Any]:
        """The answers given so far, encoded as plain data (ints, strings, booleans):
        with the variant, the players and the seed, they make the game again."""
        return [encode_answer(a) for a in self._answers]

    @classmethod
    def from_actions(cls, variant: Variant, players: int, seed: int, actions: Iterable[Any],
                     **options: Any) -> Game:
        """The game `variant` with `players` and `seed` after the answers `actions` (as
        given by `game.actions`). An answer that does not fit is an IllegalAction."""
        game = cls(variant, players, seed, **options)
        for k, action in enumerate(actions):
            d = game.decision
            if d is None:
                raise IllegalAction(f"answer {k + 1} ({action!r}) comes after the game has ended")
            game.apply(decode_answer(d, action))
        return game

    def apply(self, choice: Any) -> None:
        """Answer the pending decision; an illegal choice changes nothing. An answer is
        checked by what it is (a Play of a card offered, a colour offered, a seat
        offered, true or false …), never by what it says it equals."""
        d = self.decision
        if d is None:
            raise IllegalAction("the game is over; there is nothing to choose")
        if not is_answer(d, choice):
            raise _illegal(d, choice)
        self._answers.append(choice)
        self._go(choice)

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
        # An agent that searches (clones or resamples the game) is asked only where the
        # game has stopped and is a value: its seat is left empty for the inline answers.
        inline: Sequence[Chooser | None] = agents
        for agent in agents:
            if getattr(agent, "searches", False):
                inline = [None if getattr(a, "searches", False) else a for a in agents]
                break
        try:
            while self.decision is not None and (stop is None or len(self.round_turns) < stop):
                d = self.decision
                choice = agents[d.player].choose(self, d)
                self._agents = inline
                self.apply(choice)
                if self._agent_error is not None:
                    error, self._agent_error = self._agent_error, None
                    raise error
        finally:
            self._agents = None
            self._stop_after = None

    def clone(self) -> Game:
        """An independent copy: given the same answers, it plays on exactly as this game
        would. The variant and the cards are shared; listeners are not copied (a clone
        records events only if this game does)."""
        self._whole("clone")
        new = Game.__new__(Game)
        state = self.__dict__.copy()
        new.__dict__ = state
        zones: dict[int, list[Card]] = {}
        for name in ("draw_pile", "discard_pile", "aside"):
            old = state[name]
            state[name] = zones[id(old)] = old[:]
        hands = state["hands"] = [h[:] for h in self.hands]
        for old, copy in zip(self.hands, hands, strict=True):
            zones[id(old)] = copy
        state["flags"] = [set(f) for f in self.flags]
        state["revealed"] = dict(self.revealed)
        state["scores"] = self.scores[:]
        state["round_turns"] = self.round_turns[:]
        state["_answers"] = self._answers[:]
        state["listeners"] = []
        state["_legal_env"] = {}
        state["_agents"] = state["_stop_after"] = state["_agent_error"] = None
        if self.events is not None:
            state["events"] = self.events[:]
        self._rng_shared = new._rng_shared = True
        envs: dict[int, dict[str, Any]] = {}
        if self._queue:
            state["_queue"] = deque((body, _copy_env(env, envs, zones)) for body, env in self._queue)
        else:
            state["_queue"] = deque()
        state["_stack"] = [_copy_frame(f, envs, zones) for f in self._stack]
        state["_paused"] = []
        if self.listeners or self._tell_rules:
            new._watch = _ALL if self.events is not None else set(self._subs)
            new._tell_rules = False
            new._rewatch()
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        self._whole("pickle")
        from .snapshot import dump_state  # the pickling format, kept out of the hot module
        check, payload = dump_state(self)
        shared = self.variant.cache.get("deck")
        pairing = None if shared is not None and shared[1] is self._decks else self._pairing
        return (Game._restore, (self.variant, pairing, check, payload))

    def _whole(self, what: str) -> None:
        """Refuse to copy a game in the middle of a step (an agent answering inside
        autoplay sees a decision, but the engine's place is in Python's stack then)."""
        if self._running:
            raise GameError(f"cannot {what} a game in the middle of a step: an agent that copies the game it "
                            "is asked about must say so (`searches = True`), and autoplay then asks it where "
                            "the game has stopped")

    def observation(self, player: int) -> PlayerView:
        """What `player` sees now: their hand, the public piles, the others' hand sizes
        and outward faces, the colour, side, scores (the same as view)."""
        return self.view(player)

    def information_state(self, player: int) -> tuple[Any, ...]:
        """Everything `player` has seen so far, as hashable data: each event as they saw
        it (its fields they may see) and what they see now. Two histories that they
        cannot tell apart give equal information states."""
        from .information import information_state
        return information_state(self, player)

    def resample(self, player: int, rng: random.Random) -> Game:
        """A clone in which every card `player` cannot see has been dealt again at random
        among the places they cannot see, with the same sizes and the same outward faces;
        the clone's generator is reseeded from `rng` (its future shuffles are unknown too)."""
        from .information import resample
        clone: Game = resample(self, player, rng)
        return clone

    def _answer(self, d: Decision, types: frozenset[type] | None = None) -> Any:
        """The attached agent's answer to `d` (whose answers have one of `types`, by
        default those of its kind); _ASK if it failed or chose illegally (it is then
        detached, and the decision left pending for autoplay to report)."""
        agent = self._agents[d.player]  # type: ignore[index]  # (called only while agents are attached)
        if agent is None:
            return _ASK  # an agent that searches: asked by autoplay once the game has stopped
        self.decision = d
        try:
            choice = agent.choose(self, d)
        except Exception as err:  # the agent's own error, reported by autoplay
            return self._refused(err)
        if type(choice) in (types or ANSWER_TYPES[d.kind]) and choice in d.options:  # is_answer, inline
            self._answers.append(choice)
            return choice
        return self._refused(_illegal(d, choice))

    def _refused(self, error: Exception) -> Any:
        """An agent failed, or chose illegally: it is detached and its decision left
        pending, for autoplay to report `error`. Gives _ASK."""
        self._agent_error = error
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
        self._plain = type(watch) is set and watch == set(self._subs)  # only the rules watch
        self._hooked = "turn_start" in watch or "turn_end" in watch or "choice" in watch
        self._loud_play = "card_played" in watch or "hand_changed" in watch
        self._loud_draw = "card_drawn" in watch or "hand_changed" in watch

    def call(self, fn: Lambda | Callable[[Any], Any], value: Any) -> Any:
        """Apply a lambda given to an effect (or a Python callable) to `value`."""
        if type(fn) is not Lambda:
            return fn(value)  # type: ignore[operator]
        env = dict(fn.env)
        env[fn.param] = value
        return fn.body(self, env)

    def playable(self, card: Card, by: int) -> bool:
        """True if `by` could legally play `card` now."""
        # This is also the language's `playable`. Its conditions get their own variables:
        # a card's legal_if may ask whether other cards are playable.
        try:  # free unless a condition fails
            if self._memo is not None:
                pile = self.discard_pile  # _matching_faces, its last answer inline
                if ((pile[-1].face_id if pile else -1) == self._last_face
                        and self.current_color == self._last_color):
                    faces = self._last_faces
                else:
                    faces = self._matching_faces()
                if card.face_id not in faces:
                    return False
                test = card.legal_if
                if test is None:
                    return True
                return bool(test(self, {"player": by, "card": card}))
            env = {"player": by, "card": card}
            if not self._match(self, env):
                return False
            test = card.legal_if
            return test is None or bool(test(self, {"player": by, "card": card}))
        except (VariantRuntimeError, RecursionError):
            raise
        except Exception as err:
            raise self._blame(err, {"player": by, "card": card}) from err

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
            for card in {c.face_id: c for d in self._decks for c in d}.values():
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
                         score=self.scores[q], flags=frozenset(self.flags[q]),
                         shown=tuple(sorted(c.label for c in self.shown(q))))
            for q in range(self.n) if q != player)
        return PlayerView(
            player=player, hand=tuple(self.hands[player]), opponents=opponents,
            discard_pile=tuple(c.label for c in self.discard_pile), draw_pile_size=len(self.draw_pile),
            draw_pile_back=outward(self.draw_pile[-1]) if self.draw_pile else None,
            current_color=self.current_color, side=self.variant.sides[self.side].name,
            direction=self.direction, current=self.current, dealer=self.dealer, penalty=self.penalty,
            scores=tuple(self.scores), aside=tuple(c.label for c in self.aside),
            flags=frozenset(self.flags[player]))

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
        self.revealed.clear()
        self.current = current
        self.dealer = self.dealer if dealer is None else dealer
        self.direction = direction
        top_card = self.discard_pile[-1] if self.discard_pile else None
        self.current_color = color if color is not None else (top_card.color if top_card else None)
        self.penalty, self.penalty_answer, self.round_winner, self.emptied = 0, None, None, None
        self.previous_top = None  # no card has been played on the arranged pile
        self.skips, self.again, self.next_override, self.offered = 0, False, None, None
        self.out, self._newly_out = self.out_of_game, frozenset()
        self._queue.clear()
        self._depth = 0
        self.replayable = False
        if self.events is not None:
            self.events.clear()  # the recorded log starts at the arranged position
        self._went_out()  # an arranged position may hold an empty hand
        self._stack = [(_ROUNDS,), (_TURNS,)]
        self._go(None)

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

    # -- running the stack --------------------------------------------------
    def _go(self, answer: Any) -> None:
        """Give `answer` to the waiting frame on top (None: nothing waits, at the
        start), then run the frames below until a player must be asked."""
        stack = self._stack
        self.decision = None
        self._running = True
        try:
            paused = False
            if stack and stack[-1][0] in WAITING:
                frame = stack.pop()
                paused = _HANDLERS[frame[0]](self, frame, answer)
            while not paused and stack:
                frame = stack.pop()
                paused = _HANDLERS[frame[0]](self, frame)
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
            raise self._fault(err, None) from err
        except Exception as err:  # a fault outside any program or known condition
            self.decision = None
            raise self._fault(err, None) from err
        finally:
            self._running = False

    def _pause(self, program: Program, pc: int, env: dict[str, Any], leave: int) -> bool:
        """The step before `pc` waits: once it is done, the rules it queued run, then
        the program goes on from `pc`. (Each level a pause returns through adds the
        frames that go on from where it stood, innermost first.)"""
        self._paused += ((_DRAIN,), (_PROGRAM, program, pc, env, leave))
        return True

    def _ask(self, d: Decision, waiting: Frame) -> Any:
        """The answer to `d` now (its only option, or the attached agent's), told to
        watchers; or _ASK: `d` is pending and `waiting` will take its answer."""
        options = d.options  # _now, inline
        if len(options) == 1:
            answer = options[0]
        elif self._agents is None or (answer := self._answer(d)) is _ASK:
            self.decision = d
            self._paused.append(waiting)
            return _ASK
        if "choice" in self._watch:
            self._chosen(d, answer)
        return answer

    def _chosen(self, d: Decision, answer: Any) -> None:
        if "choice" in self._watch:
            self.emit("choice", {"player": d.player, "kind": d.kind, "value": answer_value(answer),
                                 "prompt": d.prompt})

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

    def _blame(self, err: Exception, env: dict[str, Any] | None = None) -> VariantRuntimeError:
        """`err` came from the match, a card's legal_if or the draw rule's allowed_if
        (conditions have no effects), given `env` (by default the turn's): the first
        that fails again is to blame."""
        env = self._legal_env if env is None else env
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
        fire = self._fires.get(name)
        if fire is not None:  # the variant's generated code for these rules
            fire(self, data)
            return
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

    # -- effect programs ------------------------------------------------------
    def run(self, program: Program, env: dict[str, Any]) -> bool:
        """Run `program` as one more level of nesting (a rule's body, a card applied):
        cards applying cards, or rules triggering rules, stop at NESTING_GUARD.
        True if it paused (see perform)."""
        if self._depth >= NESTING_GUARD:
            raise GameError(f"effects nested {NESTING_GUARD} deep in round {self.round} (a card that "
                            "applies cards that apply cards …); the variant never stops")
        self._work -= 1
        if self._work < 0:
            self._charge(0)  # renews a stale budget, or ends a runaway turn
        self._depth += 1
        try:
            return self.perform(program, env, 0, 1)
        except BaseException:
            self._depth -= 1
            raise

    def perform(self, program: Program, env: dict[str, Any], start: int = 0, leave: int = 0) -> bool:
        """Run `program` from step `start` to its end (False), or until a player must
        be asked (True: the frames that finish it are in the pause). Rules queued by
        a step run after it. `leave`: finishing ends a level of nesting (see run).
        A program the variant compiled runs as its generated code, which does the same."""
        if not start:
            runner = self._runners.get(id(program))
            if runner is not None:
                return runner(self, env, leave)  # type: ignore[no-any-return]
        i = start - 1
        step: Any = None
        try:  # free unless something fails: then the failing step is known
            for step in program[start:] if start else program:
                i += 1  # this step's index (cheaper than range and indexing)
                op = step[0]
                if op == DO:
                    if step[1](self, env) is PAUSED:  # an effect that runs a program (play, apply)
                        return self._pause(program, i + 1, env, leave)
                elif op == LET:
                    env[step[1]] = step[2](self, env)
                elif op == CHOOSE:
                    asked = step[2](self, env)
                    if type(asked) is Decision:
                        if self._queue and self._drain():  # the rules queued so far run first
                            self._paused.append((_CHOOSE, step[1], asked, env))
                            return self._pause(program, i + 1, env, leave)
                        asked = self._ask(asked, (_BIND, step[1], env, asked))
                        if asked is _ASK:
                            return self._pause(program, i + 1, env, leave)
                    env[step[1]] = asked
                elif op == IF:
                    body = step[2] if step[1](self, env) else step[3]
                    if body and self.perform(body, env):
                        return self._pause(program, i + 1, env, leave)
                elif self._loop(step, env):
                    return self._pause(program, i + 1, env, leave)
                if self._queue and self._drain():
                    return self._pause(program, i + 1, env, leave)
        except (VariantRuntimeError, RecursionError):
            raise
        except Exception as err:
            raise self._fault(err, step[-1] if step else None) from err
        if leave:
            self._depth -= 1
        return False

    def _loop(self, step: Step, env: dict[str, Any]) -> bool:
        """A FOR, WHILE or REPEAT step, charged to the turn's work budget; True if an
        iteration paused (its loop frame is then in the pause)."""
        op = step[0]
        if op == FOR:
            return self._for(step, self._for_items(step[2](self, env), len(step[3]) or 1), 0, env)
        if op == WHILE:
            return self._while(step, env, WHILE_GUARD)
        return self._repeat(step, env, self._repeats(step[1](self, env), len(step[2]) or 1))  # REPEAT

    def _for_items(self, items: Iterable[Any], work: int) -> tuple[Any, ...]:
        """A for loop's items, its work charged (`work`: steps per iteration)."""
        items = tuple(items)
        self._charge(len(items) * work)
        return items

    def _repeats(self, times: Any, work: int) -> Any:
        """A repeat's count, checked and its work charged."""
        if times > WHILE_GUARD:
            raise RuntimeFault(f"repeat {times:,} times: more than the {WHILE_GUARD:,} a loop may run")
        self._charge(max(times, 0) * work)
        return times

    @staticmethod
    def _endless() -> None:
        raise RuntimeFault(f"a while loop ran {WHILE_GUARD:,} times; its condition never became false")

    def _for(self, step: Step, items: tuple[Any, ...], k: int, env: dict[str, Any]) -> bool:
        var, body = step[1], step[3]
        for j in range(k, len(items)):
            env[var] = items[j]
            if self.perform(body, env):
                self._paused.append((_FOR, step, items, j + 1, env))
                return True
        return False

    def _while(self, step: Step, env: dict[str, Any], left: int) -> bool:
        cond, body = step[1], step[2]
        work = len(body) or 1
        for k in range(left):
            if not cond(self, env):
                return False
            self._charge(work)
            if self.perform(body, env):
                self._paused.append((_WHILE, step, env, left - k - 1))
                return True
        self._endless()
        return False  # (never: _endless raises)

    def _repeat(self, step: Step, env: dict[str, Any], left: int) -> bool:
        for k in range(left):
            if self.perform(step[2], env):
                self._paused.append((_REPEAT, step, env, left - k - 1))
                return True
        return False

    def _drain(self) -> bool:
        """Run the queued rules, each as a level of nesting; True if one paused."""
        queue = self._queue
        while queue:
            body, env = queue.popleft()
            if self.run(body, env):
                self._paused.append((_DRAIN,))
                return True
        return False

    # -- the game -------------------------------------------------------------
    def _make_deck(self) -> Deck:
        """The faces of each physical card, one per side, and the cards of each side
        with a Play for each. Cards never change, so a game and its clones share them,
        and a deck paired in order is made once for the variant; a shuffled pairing
        (the faces of the other sides shuffled) is drawn once per game, even when stacked."""
        variant = self.variant
        columns = [list(side.faces) for side in variant.sides]
        shuffled = variant.pairing == "shuffled" and len(columns) > 1
        if shuffled:
            for column in columns[1:]:
                self._rng.shuffle(column)
        pairing = list(zip(*columns, strict=True))
        deck = (pairing, *_decks(variant, pairing))
        if not shuffled:
            variant.cache["deck"] = deck
        return deck

    def _rounds(self) -> bool:
        """Rounds until someone wins: set up, then its turns (the _ROUNDS frame)."""
        while self.winner is None:
            self.round += 1
            if self.round > self.max_rounds:
                target = self.variant.scoring.target
                goal = "the game never ended" if target is None else f"no one reached the target score of {target:,}"
                raise GameError(f"{self.max_rounds:,} rounds and {goal}; the variant never ends")
            if self._setup_round():
                self._paused += ((_SETUP_END,), (_TURNS,), (_ROUNDS,))
                return True
            self._setup_end()
            if self._turns():
                self._paused.append((_ROUNDS,))
                return True
        return False

    def _turns(self) -> bool:
        """The turns of the round in play until it ends, then its scoring (the
        _TURNS frame). A turn runs inline here, and its common paths make nothing
        but the Decision they ask. (What never changes during a round is read once.)"""
        if self._plain and self._turn_loop is not None:
            return self._turn_loop(self)  # the variant's own loop, which does the same
        queue, turn_options, draw_turn, play, n = self._queue, self._turn_options, self._draw_turn, self.play, self.n
        while self.round_winner is None:
            # -- one player's turn: play a card, draw, or pass; then check for a winner
            turns = self.turns
            if turns >= self.max_turns:
                self._runaway()
            p = self.current
            self.turns = turns + 1
            hooked = self._hooked
            if hooked and "turn_start" in self._watch:
                self.emit("turn_start", {"player": p})
            if queue and self._drain():
                self._paused += ((_TURN_ASK, p), (_TURN_END, p), (_TURNS,))
                return True
            options = turn_options(p)
            if hooked:
                d = _decision((p, "turn", options, "", None))
                action = self._ask(d, (_TURN, p, d))
            elif len(options) == 1:
                action = options[0]
            else:
                d = _decision((p, "turn", options, "", None))
                agents = self._agents
                agent = None if agents is None else agents[p]
                if agent is None:
                    action = _ASK
                else:  # _answer, inline: the turn is the decision most often put to an agent
                    self.decision = d
                    try:
                        action = agent.choose(self, d)
                    except Exception as err:  # the agent's own error, reported by autoplay
                        action = self._refused(err)
                    else:
                        if type(action) in _TURN_TYPES and action in options:
                            self._answers.append(action)
                        else:
                            action = self._refused(_illegal(d, action))
                if action is _ASK:
                    self.decision = d
                    self._paused.append((_TURN, p, d))
            if action is DRAW:  # _act, inline
                paused = draw_turn(p)
            elif action is PASS:
                paused = False
            elif action is _ASK:
                paused = True
            else:
                paused = play(p, action.card, True)
            if paused or (queue and self._drain()):  # the rules the action queued are part of the turn
                self._paused += ((_TURN_END, p), (_TURNS,))
                return True
            if hooked and self._turn_end(p):
                self._paused.append((_TURNS,))
                return True
            if self.emptied is not None and self._went_out():
                pass  # a hand was emptied during the turn (by a play, an effect, a rule …)
            elif self.skips or self.again or self.next_override is not None or self.out:
                self._advance()
            else:  # the common case of _advance
                self.current = (self.current + self.direction) % n
        return self._end_round()

    def _end_round(self) -> bool:
        """Score the round in play; its round_end rules run, then the game may be over.
        True if a rule paused."""
        self.round_turns.append(self.turns)
        self._score()
        if self._queue and self._drain():
            self._paused.append((_GAME_OVER,))
            return True
        self._game_over()
        return False

    def _runaway(self) -> None:
        raise RunawayRound(f"round {self.round} passed {self.max_turns:,} turns with no "
                           "winner (raise max_turns, or check the variant's rules)")

    def _act(self, p: int, action: Any) -> bool:
        """Do the action chosen for p's turn; True if it paused."""
        if action is DRAW:
            return self._draw_turn(p)
        if action is PASS:
            return False
        return self.play(p, action.card, True)

    def _f_turn_end(self, f: Frame) -> bool:
        """A turn's end (its action is done): the rules it queued, then turn_end and the next player."""
        if self._queue and self._drain():
            self._paused.append(f)
            return True
        return self._turn_end(f[1], move_on=True)

    def _turn_end(self, p: int, move_on: bool = False) -> bool:
        """Tell turn_end and run its rules; True if one paused. `move_on`: then
        find whose turn is next (the hot loop does that inline)."""
        if "turn_end" in self._watch:
            self.emit("turn_end", {"player": p})
            if self._queue and self._drain():
                self._paused.append((_MOVE_ON,))
                return True
        if move_on:
            self._move_on()
        return False

    def _move_on(self) -> None:
        if self.emptied is not None and self._went_out():
            return
        self._advance()

    def _went_out(self) -> bool:
        """End the round if a hand is empty, once the step that emptied it is over
        (a set-up, a turn with its effects and rules): the winner is the first hand
        emptied since the last check, or else the first empty hand in seat order.
        The turn loop calls it only when `emptied` is set, so it scans no hands."""
        first, self.emptied = self.emptied, None
        if self.round_winner is not None:  # already won (win_round, or the last player left)
            return True
        hands, out = self.hands, self.out
        if first is not None and not hands[first] and first not in out:
            self.round_winner = first
        elif not all(hands):
            self.round_winner = next((q for q, h in enumerate(hands) if not h and q not in out), None)
        return self.round_winner is not None

    def took_from_hand(self, p: int) -> None:
        """Note that cards left `p`'s hand (every primitive that takes cards from a
        hand calls this): an empty hand ends the round after the current step, and a
        card shown to everyone that left it is private again wherever it goes."""
        if self.emptied is None and not self.hands[p]:
            self.emptied = p
        if self.revealed:
            self._still_shown(p)

    def reveal(self, card: Card, holder: int | None) -> None:
        """Show `card` to every player (card_revealed); held by `holder`, it stays known
        while it stays in their hand (a hand passed or swapped whole keeps it known)."""
        if holder is not None:
            self.revealed[card.id] = holder
        if "card_revealed" in self._watch:
            self.emit("card_revealed", {"player": self.current if holder is None else holder, "card": card})

    def shown(self, p: int) -> list[Card]:
        """The cards of `p`'s hand that everyone has seen (see reveal)."""
        revealed = self.revealed
        return [c for c in self.hands[p] if revealed.get(c.id) == p] if revealed else []

    def hands_moved(self, to: Mapping[int, int | None]) -> None:
        """Whole hands moved (old seat → new seat): cards shown stay shown in their new seat;
        a hand sent to None (a pile, a deal face down) is private again."""
        if self.revealed:
            moved = {c: to.get(q, q) for c, q in self.revealed.items()}
            self.revealed = {c: q for c, q in moved.items() if q is not None}

    def _still_shown(self, p: int) -> None:
        held = {c.id for c in self.hands[p]}
        self.revealed = {c: q for c, q in self.revealed.items() if q != p or c in held}

    def _reset_round(self) -> None:
        if self.round == 1:  # a new game: everything is as __init__ left it but the draw pile
            self.draw_pile[:] = self.cards if self._stacked is None else self._by_labels(
                {"draw": self._stacked})["draw"]
            return
        if self.side != 0:
            self.turn_over(0)
        for zone in (self.discard_pile, self.aside, *self.hands):
            zone.clear()
        self.draw_pile[:] = self.cards
        for flags in self.flags:
            flags.clear()
        self.revealed.clear()
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
        self.offered = None
        self.turns = 0
        self.out, self._newly_out = self.out_of_game, frozenset()

    def _setup_round(self) -> bool:
        """A new round's deal and first card; True if the set-up paused."""
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
        if self.perform(v.setup, {"player": self.dealer}):
            self._paused.append((_DRAIN,))
            return True
        return bool(self._queue) and self._drain()

    def _setup_end(self) -> None:
        if not self._went_out():  # a hand may be empty after set-up (a first card's effect)
            self._advance()

    def _advance(self) -> None:
        if self.out:
            self._advance_in()
            return
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

    def _advance_in(self) -> None:
        """_advance when players are out. A skip passes over the seats of the players
        who were in when the turn began (one put out during the turn, e.g. by the draw
        that came with the skip, still counts), and the turn lands on the next player
        still in from there."""
        out, gone = self.out, self._newly_out
        p, d, n = self.current, self.direction, self.n
        if self.next_override is not None:
            q = self.next_override
        elif self.again:
            q = p
        else:
            seats = [s for s in ((p + i * d) % n for i in range(1, n + 1)) if s not in out or s in gone]
            k = self.skips
            q = seats[k % len(seats)]
            if k and "skipped" in self._watch:
                for s in seats[:min(k, len(seats))]:  # each player still in is told once
                    if s not in out:
                        self.emit("skipped", {"player": s})
        self.current = self.next_in(q, 0) if q in out else q
        self.skips = 0
        self.again = False
        self.next_override = None
        self._newly_out = frozenset()

    def seated(self, p: int) -> bool:
        """True if `p` takes part in the round: not out (see put_out). Every primitive that
        walks the table, deals, passes, gives or asks goes by this (or in_order/next_in)."""
        return p not in self.out

    def next_in(self, p: int, step: int = 1, direction: int | None = None) -> int:
        """The player `step` places after `p` among those still in (in the current
        direction, or `direction`); step 0: `p` if they are in, else the next one in."""
        d = self.direction if direction is None else direction
        n, out = self.n, self.out
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

    def seats_from(self, p: int) -> Sequence[int]:
        """Every player still in, in turn order from `p` (as in_order), for reading only:
        without players out, a tuple shared by all games of as many players."""
        if self.out:
            return self.in_order(p)
        orders = _ORDERS.get((self.n, self.direction))
        if orders is None:
            n, d = self.n, self.direction
            orders = _ORDERS[(n, d)] = tuple(tuple((q + i * d) % n for i in range(n)) for q in range(n))
        return orders[p]

    def in_order(self, p: int, direction: int | None = None) -> list[int]:
        """Every player still in, in turn order from `p` (first, if `p` is in)."""
        d = self.direction if direction is None else direction
        n, out = self.n, self.out
        return [q for q in ((p + i * d) % n for i in range(n)) if q not in out]

    def team(self, p: int) -> int:
        """`p`'s team number (with `teams:`), else `p`: each player is a team of one."""
        return p if self.team_of is None else self.team_of[p]

    def put_out(self, p: int, for_game: bool = False) -> None:
        """`p` is out of the round (see the effect eliminate), and of every later round
        `for_game`: play passes over them. When one player, or the players of one team,
        are left, the first of them wins the round. The last player in is never put out."""
        if p in self.out or len(self.out) >= self.n - 1:
            return
        self.out |= {p}
        if for_game:
            self.out_of_game |= {p}
        self._newly_out |= {p}
        left = [q for q in range(self.n) if q not in self.out]
        if len({self.team(q) for q in left}) == 1:
            self.win_round(left[0])

    def win_round(self, p: int) -> None:
        """The round ends with `p` its winner once the step in progress is over (the
        turn, with its effects and rules); a round already won keeps its winner, and a
        player who is out never wins it."""
        if self.round_winner is None and p not in self.out:
            self.round_winner = p

    def _team_gains(self, w: int, held: list[int]) -> list[int]:
        """What each seat gains this round with teams: all of a team gains its total."""
        team_of = self.team_of
        assert team_of is not None
        won = team_of[w]
        totals: dict[int, int] = {}
        for q, points in enumerate(held):
            totals[team_of[q]] = totals.get(team_of[q], 0) + points
        if self.variant.scoring.round == "winner_scores_others":
            others = sum(v for t, v in totals.items() if t != won)
            return [others if team_of[q] == won else 0 for q in range(self.n)]
        return [0 if team_of[q] == won else totals[team_of[q]] for q in range(self.n)]

    def add_score(self, p: int, points: int) -> None:
        """Add `points` to `p`'s score: with teams, to every score of `p`'s team. A score
        past MAX_INT is a runaway (it doubled every play) and stops the game."""
        for q in range(self.n) if self.team_of is not None else (p,):
            if self.team(q) == self.team(p):
                score = self.scores[q] + points
                if not -MAX_INT <= score <= MAX_INT:
                    raise RuntimeFault(f"a score grew past {MAX_INT:,} (the most a game may count)")
                self.scores[q] = score

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
            options = [plays[c.id] for c in hand
                       if answer is not None and self.call(answer, c) and playable(c, p)]
            options.append(DRAW)
            return tuple(options)
        except (VariantRuntimeError, RecursionError):
            raise
        except Exception as err:
            raise self._blame(err) from err

    def _draw_turn(self, p: int) -> bool:
        """Draw for the turn (or take the pending penalty); a drawn card may then be
        played. True if it paused."""
        if self.penalty:
            count, self.penalty, self.penalty_answer = self.penalty, 0, None
            self.draw(p, count)
            if "penalty_taken" in self._watch:
                self.emit("penalty_taken", {"player": p, "count": count})
            return False
        rule = self._draw_rule
        if rule.until_playable:
            drawn: list[Card] = []
            cap = self._amount(rule.max, p)
            while cap is None or len(drawn) < cap:
                got = self.draw(p, 1)
                if not got:
                    break
                drawn += got
                if self.playable(got[0], p):
                    break
        else:
            drawn = self.draw(p, self._amount(rule.count, p))
        if self._queue:
            if self._drain():  # the rules the draw queued; then the drawn card
                self._paused.append((_AFTER_DRAW, p, tuple(drawn)))
                return True
            return self._offer_drawn(p, drawn)
        if rule.then == "may_play":
            return self._offer_drawn(p, drawn)
        if drawn and rule.then == "must_play" and self.playable(drawn[-1], p):
            return self.play(p, drawn[-1], True)
        return False

    def _amount(self, amount: Any, p: int) -> Any:
        """A number of the turn's draw rule: written, or its expression's value for `p`."""
        if amount is None or type(amount) is int:
            return amount
        value = self._value(amount, p)
        if value is None or value < 0:
            raise self._fault(RuntimeFault(f"the number of cards to draw is {value}; it must be 0 or more"),
                              amount)
        return value

    def _offer_drawn(self, p: int, drawn: Sequence[Card]) -> bool:
        """The card drawn for the turn: offered, played or kept. True if it paused."""
        rule = self._draw_rule
        if not drawn or rule.then == "keep":
            return False
        card = drawn[-1]
        if card not in self.hands[p] or not self.playable(card, p):
            return False
        if rule.then == "may_play":
            offer = _decision((p, "drawn", (self._plays[card.id], KEEP), "", None))
            answer = self._ask(offer, (_DRAWN, p, card, offer))
            if answer is _ASK:
                return True
            if answer is KEEP:
                return False
        return self.play(p, card, True)

    def play(self, p: int, card: Card, effect: bool = True) -> bool:
        """`p` plays `card`: put down, the rules that queued, then its on_play; True
        if a player must be asked before it is all done. Not counted as nesting:
        each play takes a card from a hand, so plays end."""
        hand = self.hands[p]
        hand.remove(card)
        if not hand and self.emptied is None:  # took_from_hand, inline: this is the hot path
            self.emptied = p
        if self.revealed:
            self._still_shown(p)
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
        if self._queue and self._drain():
            if effect and card.on_play:
                self._paused.append((_PROGRAM, card.on_play, 0, {"player": p, "card": card}, 0))
            return True
        if effect and card.on_play:
            return self.perform(card.on_play, {"player": p, "card": card})
        return False

    def draw(self, p: int, count: int) -> list[Card]:
        """`p` draws up to `count` cards; an empty pile is refilled (COM-1)."""
        pile = self.draw_pile
        if count == 1 and pile and not self._loud_draw:  # the common draw, told to no one
            card = pile.pop()
            self.hands[p].append(card)
            return [card]
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
        """Show face `side` of every card: the other side's cards take their places;
        piles turn over as a whole (FLIP-8)."""
        self.side = side
        cards = self.cards = self._decks[side]
        self._plays = self._all_plays[side]
        for zone in (self.draw_pile, self.discard_pile, self.aside, *self.hands):
            zone[:] = [cards[c.id] for c in zone]
        self.draw_pile.reverse()
        self.discard_pile.reverse()
        self.aside.reverse()
        if self.previous_top is not None:
            self.previous_top = cards[self.previous_top.id]

    def _score(self) -> None:
        w = self.round_winner
        assert w is not None
        scoring = self.variant.scoring
        held = [sum(map(_points, hand)) for hand in self.hands]
        if self.team_of is not None:
            gained = self._team_gains(w, held)
        elif scoring.round == "winner_scores_others":
            gained = [0] * self.n
            gained[w] = sum(held) - held[w]
        else:
            gained = held[:]
            gained[w] = 0
        for q in range(self.n):
            self.scores[q] += gained[q]
        if max(map(abs, self.scores)) > MAX_INT:
            raise GameError(f"a score grew past {MAX_INT:,} (the most a game may count) in round {self.round}")
        if "round_end" in self._watch:
            self.emit("round_end", {"player": w, "points": gained, "team": self.team(w)})

    def _game_over(self) -> None:
        """After a round and its round_end rules: the game ends when a score reaches the
        target or `game_over` holds; then autoplay's rounds may be done."""
        scoring = self.variant.scoring
        target = scoring.target
        w = self.round_winner
        assert w is not None
        if ((target is not None and max(self.scores) >= target)
                or (scoring.game_over is not None and self._holds(scoring.game_over, w))):
            self.winners = self._winners()
            self.winner = self.winners[0]
            if "game_end" in self._watch:
                self.emit("game_end", {"player": self.winner, "winners": list(self.winners),
                                       "scores": list(self.scores), "team": self.team(self.winner)})
        if self._stop_after is not None and len(self.round_turns) >= self._stop_after:
            self._agents = None  # autoplay's rounds are done: the next decision waits

    def _winners(self) -> tuple[int, ...]:
        """The seats with the best total among the teams still in (a team is out when all
        its players are), in seat order; the variant's tie-break, if any, settles a tie
        between teams (the highest value wins). More than one team left: a tie."""
        scoring = self.variant.scoring
        teams_in = {self.team(q) for q in range(self.n) if q not in self.out}
        seats = [q for q in range(self.n) if self.team(q) in teams_in]
        pick = max if scoring.winner == "highest" else min
        best = pick(self.scores[q] for q in seats)
        tied = [q for q in seats if self.scores[q] == best]
        if scoring.tie_break is not None and len({self.team(q) for q in tied}) > 1:
            values = {q: self._value(scoring.tie_break, q) for q in tied}
            top = max(values.values())
            tied = [q for q in tied if values[q] == top]
        return tuple(tied)

    def _value(self, expr: Callable[[Game, dict[str, Any]], Any], p: int) -> Any:
        """An expression of the variant's outside any program (`player`: `p`), its error positioned."""
        try:
            return expr(self, {"player": p})
        except Exception as err:
            raise self._fault(err, expr) from err

    def _holds(self, test: Callable[[Game, dict[str, Any]], Any], p: int) -> bool:
        """A condition of the variant's outside any program (`player`: `p`), its error positioned."""
        return bool(self._value(test, p))

    def jump_in(self, test: Lambda, after: int) -> bool:
        """Offer out-of-turn plays on the top card: each other player in turn order
        from the one after `after` who holds cards passing `test` may play one of them
        or pass (a "jump" decision). The first who plays takes the turn over (see
        _take_over); the offer then goes round again from them, on their card. A top
        card is offered once. True if a player must be asked."""
        top = self.discard_pile[-1] if self.discard_pile else None
        if top is None or top.id == self.offered:
            return False
        self.offered = top.id
        return self._offer(test, tuple(q for q in self.in_order(after) if q != after), 0)

    def _offer(self, test: Lambda, seats: tuple[int, ...], k: int) -> bool:
        for j in range(k, len(seats)):
            q = seats[j]
            plays = [self._plays[c.id] for c in self.hands[q] if self.call(test, c)]
            if not plays:
                continue
            d = _decision((q, "jump", (*plays, PASS), "jump in", self.discard_pile[-1]))
            answer = self._ask(d, (_JUMP, test, seats, j, d))
            if answer is _ASK:
                return True
            if answer is not PASS:
                return self._take_over(test, q, answer.card)
        return False

    def _take_over(self, test: Lambda, q: int, card: Card) -> bool:
        """`q` plays `card` out of turn: it becomes q's turn (what the turn they jumped
        into had pending — skips, an extra turn, a next player — is dropped), the card
        is played with its effect, and play goes on from q."""
        self.current = q
        self.skips, self.again, self.next_override = 0, False, None
        if self.play(q, card, True):
            self._paused.append((_OFFER, test, (), -1))
            return True
        return self.jump_in(test, q)

    # -- what each frame does when it comes to the top ----------------------------
    def _f_program(self, f: Frame) -> bool:
        return self.perform(f[1], f[3], f[2], f[4])

    def _f_for(self, f: Frame) -> bool:
        return self._for(f[1], f[2], f[3], f[4])

    def _f_while(self, f: Frame) -> bool:
        return self._while(f[1], f[2], f[3])

    def _f_repeat(self, f: Frame) -> bool:
        return self._repeat(f[1], f[2], f[3])

    def _f_drain(self, f: Frame) -> bool:
        return bool(self._queue) and self._drain()

    def _f_choose(self, f: Frame) -> bool:
        _, var, asked, env = f
        answer = self._ask(asked, (_BIND, var, env, asked))
        if answer is _ASK:
            return True
        env[var] = answer
        return False

    def _f_rounds(self, f: Frame) -> bool:
        return self._rounds()

    def _f_setup_end(self, f: Frame) -> bool:
        self._setup_end()
        return False

    def _f_turns(self, f: Frame) -> bool:
        return self._turns()

    def _f_turn_ask(self, f: Frame) -> bool:
        p = f[1]
        d = _decision((p, "turn", self._turn_options(p), "", None))
        action = self._ask(d, (_TURN, p, d))
        return action is _ASK or self._act(p, action)

    def _f_after_draw(self, f: Frame) -> bool:
        return self._offer_drawn(f[1], f[2])

    def _f_move_on(self, f: Frame) -> bool:
        self._move_on()
        return False

    def _f_game_over(self, f: Frame) -> bool:
        self._game_over()
        return False

    def _f_offer(self, f: Frame) -> bool:
        _, test, seats, k = f
        if k < 0:  # a card played out of turn has done its effect: offer again, from its player
            return self.jump_in(test, self.current)
        return self._offer(test, seats, k)

    def _w_jump(self, f: Frame, answer: Any) -> bool:
        _, test, seats, j, d = f
        self._chosen(d, answer)
        if answer is PASS:
            return self._offer(test, seats, j + 1)
        return self._take_over(test, d.player, answer.card)

    def _w_bind(self, f: Frame, answer: Any) -> bool:
        _, var, env, d = f
        self._chosen(d, answer)
        env[var] = answer
        return False

    def _w_turn(self, f: Frame, answer: Any) -> bool:
        self._chosen(f[2], answer)
        p, stack = f[1], self._stack
        if self._plain and self._turn_loop is not None and stack[-2:] == [(_TURNS,), (_TURN_END, p)]:
            del stack[-2:]  # the variant's loop ends this turn and plays the next (what the frames would do)
            return self._turn_loop(self, (p, answer))
        return self._act(p, answer)

    def _w_drawn(self, f: Frame, answer: Any) -> bool:
        self._chosen(f[3], answer)
        return answer is not KEEP and self.play(f[1], f[2], True)


def _team_tables(variant: Variant, n: int) -> tuple[tuple[int, ...] | None, tuple[tuple[int, ...], ...]]:
    """Each seat's team number and each team's seats (`teams:`), for `n` players;
    without teams, (None, ()). Partners opposite: seat p and seat p + n/2."""
    teams = variant.teams
    if teams is None:
        return None, ()
    if teams == "opposite":
        half = n // 2
        teams = tuple((p, p + half) for p in range(half))
    team_of = [0] * n
    for t, seats in enumerate(teams):
        for p in seats:
            if p < n:
                team_of[p] = t
    return tuple(team_of), teams


# The handler of each frame kind, by its number.
_HANDLERS: tuple[Callable[..., bool], ...] = (
    Game._f_program, Game._f_for, Game._f_while, Game._f_repeat, Game._f_drain, Game._f_choose,
    Game._f_rounds, Game._f_setup_end, Game._f_turns, Game._f_turn_ask, Game._f_after_draw,
    Game._f_turn_end, Game._f_move_on, Game._w_bind, Game._w_turn, Game._w_drawn,
    Game._f_offer, Game._w_jump, Game._f_game_over,
)

_points = attrgetter("points")
# The seats in turn order from each seat, by (players, direction) (see seats_from).
_ORDERS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}
# What every new game of a variant and table starts with (immutable values, or the
# variant's own shared tables): kept after the first game when the deck is the
# variant's own (a shuffled pairing is drawn per game), and the default watchers' flags.
_START = frozenset({
    "variant", "n", "_rng_shared", "_depth", "_work", "_work_turn", "_pairing", "_decks", "_all_plays",
    "side", "direction", "current", "dealer", "round", "turns", "current_color", "previous_top", "penalty",
    "penalty_answer", "skips", "again", "next_override", "offered", "round_winner", "out", "out_of_game", "_newly_out",
    "emptied", "winner", "winners", "replayable", "_agents", "_running", "_agent_error", "_stop_after", "decision",
    "cards", "_plays", "_subs", "_match", "_memo", "_last_face", "_last_color", "_last_faces", "_must_play",
    "_draw_rule", "_runners", "_fires", "_turn_loop", "team_of", "teams",
    "_plain", "_hooked", "_loud_play", "_loud_draw",
})
_TURN_TYPES = ANSWER_TYPES["turn"]
Decks = tuple[tuple[list[Card], ...], tuple[list[Play], ...]]
Deck = tuple[list[tuple[Face, ...]], tuple[list[Card], ...], tuple[list[Play], ...]]


def _decks(variant: Variant, pairing: list[tuple[Face, ...]]) -> Decks:
    """The cards of each side for `pairing`, and a Play for each."""
    cards = make_deck(variant, pairing)
    return cards, tuple([Play(c) for c in side] for side in cards)


def _copy_env(env: dict[str, Any], envs: dict[int, dict[str, Any]], zones: dict[int, list[Card]]
              ) -> dict[str, Any]:
    """A program's variables for a clone: each env copied once (frames share them),
    a zone held in a variable becomes the clone's zone, other lists are copied."""
    copy = envs.get(id(env))
    if copy is None:
        copy = envs[id(env)] = {}
        for name, value in env.items():
            if type(value) is list:
                value = zones.get(id(value)) or value[:]
            copy[name] = value
    return copy


def _copy_frame(frame: Frame, envs: dict[int, dict[str, Any]], zones: dict[int, list[Card]]) -> Frame:
    """A frame for a clone: the same, with its variables copied (see _copy_env)."""
    if len(frame) > 1 and any(type(x) is dict for x in frame):
        return tuple(_copy_env(x, envs, zones) if type(x) is dict else x for x in frame)
    return frame


def _rules_by_event(variant: Variant) -> dict[str, tuple[Rule, ...]]:
    """The variant's rules by the event they wait for (kept in its cache)."""
    subs: dict[str, tuple[Rule, ...]] = {}
    for rule in variant.rules:
        subs[rule.event] = (*subs.get(rule.event, ()), rule)
    variant.cache["rules_by_event"] = subs
    return subs


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
    try:
        shown = f"{choice}"
    except Exception:  # an object that cannot even say what it is
        shown = f"a {type(choice).__name__}"
    return IllegalAction(f"{shown[:80]} is not a legal choice for player {d.player} ({d.kind}); legal: {legal}")


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

    def __reduce__(self) -> str:
        return "_ALL"


_ALL = _All()
