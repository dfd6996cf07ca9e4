"""The game: a value that holds everything needed to go on, and its public contract.

`decision` is the pending question and `apply` answers it; `autoplay` lets agents answer
inside the engine's loop. The state is plain data (declared once in state.py): zones of
immutable cards, scores, flags, counters, the generator's state, and the continuation —
a stack of frames naming the variant's programs (its effects, and the flow of rounds and
turns built from its settings, flow.py) and a place in each. So a game can be cloned at
any decision (`clone`), pickled, rebuilt from its seed and answers (`from_actions`),
observed and resampled for one player's information.

A game is composed, not inherited: the state is its fields (state.py, one value); its
machine (machine.py: programs run, paused and resumed, events told) and its table
(table.py: cards, seats, legality and scores) are modules of functions of that state,
each bound here by name as one of its members (so the engine's hot code calls `g.play`
on the one object it has); and its backend (engine/backends/) is a strategy it holds,
`_backend`. The programs of the flow are in flow.py.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from ..errors import GameError, IllegalAction, UnoDslError
from ..model import BUILTIN_ZONES, Face, Rule, Variant
from . import machine, plays, scores, table
from . import zones as zoning
from .actions import Decision, Play, decode_answer, encode_answer, is_answer
from .backends import backend_of
from .cards import Card, face_table, make_deck
from .flow import TURNS
from .frames import While, copy_stack, new_run
from .machine import ALL, ASK, MAX_TURNS, PAUSED, WORK_BUDGET, Listener, go, illegal, loud_flags, replay_command
from .reach import Game as Reach
from .state import AT, COPIES, RESET, ZONES, State, generator, read_start, read_state, write_start, write_state
from .view import OpponentView, PlayerView, outward

__all__ = ["ASK", "MAX_TURNS", "PAUSED", "Chooser", "Game", "Listener", "replay_command"]


class Chooser(Protocol):
    """Anything that answers decisions: the agents, a person at a terminal …

    `autoplay` asks agents inside the engine's step, where the game is not whole:
    an agent that clones, pickles or resamples the game it is asked about sets a
    class attribute `searches = True`, and is asked where the game has stopped."""

    def choose(self, game: Game, decision: Decision) -> Any: ...


class Game(State):
    """One game of a variant: zones, turn order, scores, one seeded RNG.

    Its fields are the state (state.py); its members below are its machine's and its
    table's operations, each a function of the state bound by name (the primitives reach
    those declared in engine/reach.py); its backend is the field `_backend`."""

    __slots__ = ()  # (the state's fields are State's slots: a game has no other attribute)

    # -- its machine (machine.py): programs run, paused, resumed; events told; faults placed
    pause, ask, _refused, _chosen = machine.pause, machine.ask, machine._refused, machine._chosen
    emit, watching, drain = machine.emit, machine.watching, machine.drain
    run, perform, call = machine.run, machine.perform, machine.call
    for_items, repeats, endless = machine.for_items, machine.repeats, staticmethod(machine.endless)
    charge, fault, replay_command = machine.charge, machine.fault, machine.replay_of
    # -- its table (table.py): cards played, drawn and shuffled
    play, after_rules, draw, draw_one, _draw = table.play, table.after_rules, table.draw, table.draw_one, table._draw
    refill, shuffle, turn_over = table.refill, table.shuffle, table.turn_over
    zones, zone_name, room, reset_round = zoning.zones, zoning.zone_name, zoning.room, table.reset_round
    lays, lay = plays.lays, plays.lay
    # hands: what is shown, an emptied hand
    took_from_hand, reveal, shown, hands_moved = table.took_from_hand, table.reveal, table.shown, table.hands_moved
    _still_shown, went_out = table._still_shown, table.went_out
    # seats and whose turn is next
    seated, next_in, seats_from, in_order = table.seated, table.next_in, table.seats_from, table.in_order
    team = table.team
    put_out, win_round, advance, advance_bent = table.put_out, table.win_round, table.advance, table.advance_bent
    advance_in, tell_skipped = table.advance_in, table.tell_skipped
    # what may be played
    playable, fits, allows, matching_faces, blame = (table.playable, table.fits, table.allows, table.matching_faces,
                                                     table.blame)
    amount, runaway = table.amount, table.runaway
    # scores
    add_score, score_round, game_over = scores.add_score, scores.score_round, scores.game_over

    def __init__(self, variant: Variant, players: int, seed: int = 0, *,
                 max_turns: int = MAX_TURNS, max_rounds: int = 1_000, record: bool = False,
                 stacked: Sequence[str] | None = None, listeners: Sequence[Listener] = (),
                 listen_to: Iterable[str] | None = None, count_plays: bool = False) -> None:
        if not variant.min_players <= players <= variant.max_players:
            raise UnoDslError(f"{variant.name} is for {variant.min_players}–{variant.max_players} "
                              f"players, not {players}")
        if variant.teams == "opposite" and players % 2:
            raise UnoDslError(f"{variant.name} pairs partners opposite: it needs an even number of players, "
                              f"not {players}")
        cache = backend_of(variant).cache
        start = cache.get(f"start {players}")
        if start is None:
            self._first_start(variant, players, seed)
            shared = cache.get("deck")
            if shared is not None and shared[1] is self._decks:  # kept for the next game (see state.START)
                cache[f"start {players}"] = read_start(self)
        else:  # the values every new game of this table starts with, as the first one set them
            write_start(self, start)
            self._rng = random.Random(seed)
        self.seed = seed
        self._agents = self._agent_error = self._stop_after = None  # autoplay attaches agents
        self._stacked = stacked
        self.max_turns = max_turns
        self.max_rounds = max_rounds
        self.draw_pile = []
        self.discard_pile = []
        self.aside = []
        self.hands = [[] for _ in range(players)]
        declared = variant.zones[len(BUILTIN_ZONES):]  # (those of `zones:`)
        self.places = {z.name: [] for z in declared if z.owner == "table"} if declared else {}
        self.seat_places = {z.name: [[] for _ in range(players)] for z in declared
                            if z.owner == "player"} if declared else {}
        self.flags = [set() for _ in range(players)]
        self.named = {}  # values said for cards (naming.py), while they lie where they were said
        self.revealed = {}  # cards shown to everyone (reveal), by id: the seat holding each
        self.scores = [0] * players
        self.round_turns = []
        self.events = [] if record else None
        # count_plays: the cards of each kind played this round (by the kind's place in
        # variant.kinds), then how many times each declared play was made (by its place in
        # turn.plays), counted in place: what a tally needs of every play, without an
        # event per play (see plays_by_kind, plays_by_way)
        self.played = [0] * (len(variant.kinds) + len(variant.turn.plays)) if count_plays else None
        self.listeners = list(listeners)
        # Events are only built when someone listens: rules, listeners (all events, or
        # just `listen_to`), or a recorded log. Who listens never changes which code runs.
        self._watch = set(self._subs)
        if record or (listeners and listen_to is None):
            self._watch = ALL
        elif listen_to is not None:
            self._watch = self._watch | set(listen_to)
        # rule_fired is told only when asked for by name (never to a recorded log)
        self._tell_rules = listen_to is not None and "rule_fired" in listen_to
        if record or listeners or listen_to is not None or count_plays:  # (a bare game's flags are in its start)
            self._rewatch()
        self._queue = deque()
        self._answers = []  # every answer given to a decision with a choice in it
        self._stack = [new_run((variant.flow[0], 0, {}, 0))]  # the continuation; its top is the last frame
        self._paused = []  # the frames of a pause, innermost first (see machine.pause)
        go(self, None)

    def _first_start(self, variant: Variant, players: int, seed: int) -> None:
        """The start of a game whose values are not known yet for this variant and table
        (they are kept for the next, when the deck is the variant's own: see state.START)."""
        self.variant = variant
        self.n = players
        self._rng = random.Random(seed)
        self._rng_shared = False  # shared with a clone: copied before its next use
        self._depth = 0
        self._work = WORK_BUDGET  # what is left of the budget of the turn in _work_turn
        self._work_turn = (0, 0)  # (round, turn): the budget is renewed lazily, off the hot loop
        self._backend = backend_of(variant)
        deck: Deck | None = self._backend.cache.get("deck")  # (pairing, cards by side), when fixed
        if deck is None:
            deck = self._make_deck()
        self._pairing, self._decks = deck
        self.side = 0
        self.current = 0
        self.dealer = 0
        self.round = 0
        self.out_of_game = frozenset()  # the players out of every round to come (see eliminate)
        table.start_round(self)  # the rest of where a round starts, as every round does
        self.winner = None  # the game's winner (the first in seat order when several tie)
        self.winners = ()  # every winner: more than one team on a tie (see table._winners)
        self.replayable = True  # the seed and the answers tell the game (not after arrange or resample)
        self._running = False  # a step is running (agents answer inside it): the state is not whole
        self.decision = None
        self._derive()
        self._watch, self.played = set(self._subs), None  # a bare game's: its flags are kept in the start
        self._rewatch()

    def _derive(self) -> None:
        """The fields that follow from the variant and the side in play (remade, not
        pickled): the backend and what it built, the cards shown, the rules by event, the
        match and its memo."""
        variant = self.variant
        backend = self._backend = backend_of(variant)
        cache = backend.cache
        self._perform = backend.perform
        self._fires = backend.fires
        self.cards = self._decks[self.side]
        subs = cache.get("rules_by_event")
        self._subs = rules_by_event(variant, cache) if subs is None else subs
        self._legal_env = {}
        self._match = variant.turn.match or zoning.never  # (only the declared plays: no card matches)
        # A pure match depends on faces and the colour only: memoised for the variant, by
        # the top card's face (its id; the last entry for no top card), then by colour.
        memo = cache.get("matching")
        if memo is None and variant.turn.match_is_pure:
            memo = cache["matching"] = [{} for _ in range(len(face_table(variant, backend)) + 1)]
        self._memo = memo
        self._must_play = variant.turn.must_play_if_able
        self._ways = variant.turn.plays
        self._draw_rule = variant.turn.draw
        self.team_of, self.teams = _team_tables(variant, self.n)

    @classmethod
    def _restore(cls, variant: Variant, pairing: list[tuple[Face, ...]] | None, check: tuple[Any, ...],
                 payload: bytes) -> Game:
        """Unpickle a game (see engine/snapshot.py); no `pairing`: the variant's own deck."""
        from .snapshot import load_state
        game = cls.__new__(cls)
        game.variant = variant
        if pairing is None:
            game._rng = random.Random()
            deck: Deck = backend_of(variant).cache.get("deck") or game._make_deck()
            pairing = deck[0]
            game._decks = deck[1]
        else:
            game._decks = make_deck(variant, backend_of(variant), pairing, Play)
        game._pairing = pairing
        for name, value in load_state(game, check, payload).items():
            setattr(game, name, value)
        game._derive()
        return game

    # -- the public contract ---------------------------------------------
    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def rng(self) -> random.Random:
        """The game's own generator (deals, shuffles, cuts); a clone copies it on first use."""
        return generator(self)

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
            raise illegal(d, choice)
        self._answers.append(choice)
        go(self, choice)

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
        state, at = list(read_state(self)), AT  # every field, by its place in FIELDS
        zones: dict[int, list[Card]] = {}
        for name in ZONES:
            old = state[at[name]]
            state[at[name]] = zones[id(old)] = old[:]
        hands = state[at["hands"]] = [h[:] for h in self.hands]
        for old, copy in zip(self.hands, hands, strict=True):
            zones[id(old)] = copy
        if self.places or self.seat_places:
            places = state[at["places"]] = {name: z[:] for name, z in self.places.items()}
            seat_places = state[at["seat_places"]] = {name: [z[:] for z in zs] for name, zs in self.seat_places.items()}
            for name, z in self.places.items():
                zones[id(z)] = places[name]
            for name, zs in self.seat_places.items():
                for old, copy in zip(zs, seat_places[name], strict=True):
                    zones[id(old)] = copy
        for name, copier in COPIES.items():
            state[at[name]] = copier(state[at[name]])
        for name, fresh in RESET.items():
            state[at[name]] = fresh()
        self._rng_shared = state[at["_rng_shared"]] = True
        envs: dict[int, dict[str, Any]] = {}

        def copy_env(env: dict[str, Any]) -> dict[str, Any]:
            return _copy_env(env, envs, zones)

        state[at["_queue"]] = deque((body, copy_env(env)) for body, env in self._queue) if self._queue else deque()
        state[at["_stack"]] = copy_stack(self._stack, copy_env)
        write_state(new, state)
        if self.listeners or self._tell_rules:
            new._watch = ALL if self.events is not None else set(self._subs)
            new._tell_rules = False
            new._rewatch()
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        self._whole("pickle")
        from .snapshot import dump_state  # the pickling format, kept out of the hot module
        check, payload = dump_state(self)
        shared = self._backend.cache.get("deck")
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

    def watch(self, listener: Listener, events: Iterable[str] | None = None) -> None:
        """Call `listener(game, event, data)` after every event from now on (at least
        those named in `events`; it may also see events that rules subscribe to). Not
        while the game runs (from a listener or an agent asked inside autoplay): who
        listens is fixed from one decision to the next (state.STILL)."""
        if self._running:
            raise GameError("cannot watch a game in the middle of a step: attach the listener before the game "
                            "runs, or between decisions")
        self.listeners.append(listener)
        if events is None:
            self._watch = ALL
        elif type(self._watch) is set:
            self._watch = self._watch | set(events)
        if events is not None and "rule_fired" in events:
            self._tell_rules = True
        self._rewatch()

    def plays_by_kind(self) -> dict[str, int]:
        """How many cards of each kind were played this round (a game made with
        `count_plays=True`; else an error): the tally a simulation keeps of every play,
        at the cost of one count per play instead of a card_played event."""
        if self.played is None:
            raise UnoDslError("this game counts no plays: make it with count_plays=True")
        kinds = self.variant.kinds
        return {kind: count for kind, count in zip(kinds, self.played[:len(kinds)], strict=True) if count}

    def plays_by_way(self) -> dict[str, int]:
        """How many times each declared play (`turn: plays:`) was made this round, by its
        name (a game made with `count_plays=True`; else an error). Its cards count for
        their kinds in plays_by_kind, wherever they went."""
        if self.played is None:
            raise UnoDslError("this game counts no plays: make it with count_plays=True")
        made = self.played[len(self.variant.kinds):]
        return {way.name: count for way, count in zip(self.variant.turn.plays, made, strict=True) if count}

    def _rewatch(self) -> None:
        """Flags for the hot paths: is anyone watching the events of a turn, of a card played,
        of a card drawn? (Only faster tests of the watch: who listens changes no code.)"""
        self._loud_turn, self._tell_play, self._loud_play, self._loud_draw = loud_flags(
            self._watch, self.played is not None)

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
            flags=frozenset(self.flags[player]), zones=zoning.seen(self, player))

    def arrange(self, hands: Mapping[int, Sequence[str]], discard: Sequence[str] = (),
                draw: Sequence[str] = (), *, current: int = 0, color: str | None = None,
                dealer: int | None = None, direction: int = 1, zones: Mapping[str, Sequence[str]] = {}) -> None:
        """Set up a position by card labels ("red 7", "wild draw four") and start
        `current`'s turn there (a recorded log restarts from here). `discard` ends with the top card; `draw` starts with
        the next card drawn; `zones`: the cards of zones of `zones:` by name ("center_row", a player's "stock 1"),
        bottom to top; every other card goes under the draw pile."""
        declared = self.zones()
        for name in zones:
            if name not in declared or name in ("draw_pile", "discard_pile", "aside") or name.startswith("hand "):
                raise UnoDslError(f"arrange: {name!r} is not a zone of `zones:` (they are: "
                                  f"{', '.join(list(declared)[3 + self.n:]) or 'none'})")
        picked = zoning.by_labels(self, {"discard": discard, "draw": draw, **{f"hand {p}": h for p, h in hands.items()},
                                         **{f"zone {name}": labels for name, labels in zones.items()}})
        for p, hand in enumerate(self.hands):
            hand[:] = picked.get(f"hand {p}", [])
        self.discard_pile[:] = picked["discard"]
        self.draw_pile[:] = picked["draw"]
        self.aside.clear()
        zoning.clear_places(self)
        for name, zone in declared.items():
            zone += picked.get(f"zone {name}", [])
        for flags in self.flags:
            flags.clear()
        self.revealed.clear()
        self.named.clear()
        self.current = current
        self.dealer = self.dealer if dealer is None else dealer
        self.direction = direction
        top_card = self.discard_pile[-1] if self.discard_pile else None
        self.current_color = color if color is not None else (top_card.color if top_card else None)
        self.penalty, self.penalty_answer, self.round_winner, self.emptied = 0, None, None, None
        self.previous_top = None  # no card has been played on the arranged pile
        self.skips, self.again, self.next_override, self.offered = 0, False, None, None
        self.out, self._newly_out = self.out_of_game, frozenset()
        self.bent = bool(self.out)
        self._queue.clear()
        self._depth = 0
        self.replayable = False
        if self.events is not None:
            self.events.clear()  # the recorded log starts at the arranged position
        self.went_out()  # an arranged position may hold an empty hand
        rounds = self.variant.flow[0][0]  # the game's loop of rounds; a round, from its turns
        env: dict[str, Any] = {}
        self._stack = [While(rounds, env, None, TURNS)]
        go(self, None)

    def _make_deck(self) -> Deck:
        """The faces of each physical card, one per side, and the cards of each side
        (each with its Play). Cards never change, so a game and its clones share them,
        and a deck paired in order is made once for the variant; a shuffled pairing
        (the faces of the other sides shuffled) is drawn once per game, even when stacked."""
        variant = self.variant
        columns = [list(side.faces) for side in variant.sides]
        shuffled = variant.pairing == "shuffled" and len(columns) > 1
        if shuffled:
            for column in columns[1:]:
                self._rng.shuffle(column)
        pairing = list(zip(*columns, strict=True))
        backend = backend_of(variant)
        deck = (pairing, make_deck(variant, backend, pairing, Play))
        if not shuffled:
            backend.cache["deck"] = deck
        return deck


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


Deck = tuple[list[tuple[Face, ...]], tuple[list[Card], ...]]


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


def rules_by_event(variant: Variant, cache: dict[str, Any]) -> dict[str, tuple[Rule, ...]]:
    """The variant's rules by the event they wait for (kept in its backend's cache)."""
    subs: dict[str, tuple[Rule, ...]] = {}
    for rule in variant.rules:
        subs[rule.event] = (*subs.get(rule.event, ()), rule)
    cache["rules_by_event"] = subs
    return subs


def _fits(game: Game) -> Reach:
    """(For mypy: a game is what the primitives reach — engine/reach.py's interface.)"""
    return game
