"""One web table: a game of a variant, its seats (each with its secret token), the
bots that play the seats nobody holds, the host's actions, the event log and saves.

A Table is plain Python and changes only when asked (`answer`, `start`, `undo`, a
bot's move through `bot_move`/`apply_bot`); hub.py drives it. Every answer goes
through `Game.apply`, so an illegal one changes nothing. The log is written as the
game goes, event by event (`tools/log.py`'s format), and rewritten after an undo,
so that `unodsl replay` checks the game as it stands.

What a page is told is `frame(seat, host)`: the one way a frame is made (from what
the seat knows, knowledge.py, and the table's public facts, `facts`). The seed and
the server's paths stay here and in the log, the save and the server's log
(`logging`, "unodsl.web"), never in a notice.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..engine.actions import decode_answer
from ..engine.events import EVENTS
from ..engine.game import MAX_TURNS, Game
from ..errors import IllegalAction, UnoDslError, VariantRuntimeError
from ..model import Variant
from ..players.bots import Agent, agents_rng, make_agent
from ..tools.log import LOG_VERSION, event_line, log_header
from ..tools.save import Save, restore, write_save
from .frames import UNO_ASKS, Notice, RoundResult, SeatFacts, TableFacts, face_looks, has_uno_button, state_frame
from .knowledge import knowledge
from .narration import SeatNarrator
from .protocol import Refused

LOG = logging.getLogger("unodsl.web")
NOTICE_SECONDS = 8.0  # how long a page shows a notice

HUMAN = "human"  # a seat's agent in logs and saves when a person played it


@dataclass
class Seat:
    index: int
    token: str
    bot: str  # the agent spec that plays the seat when no person does
    agent: Agent
    name: str = ""  # the name a person gave (empty: "P1")
    person: bool = False  # a person has taken the seat (and not handed it to a bot)
    played: bool = False  # a person answered a decision at this seat in this game
    connected: int = 0  # open connections (0 or 1)

    @property
    def bot_plays(self) -> bool:
        return not self.person


class LogFile:
    """The event log of one game, written to `path` as the events come (a listener)."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.out: IO[str] | None = path.open("w", encoding="utf-8")
        self.out.write(json.dumps({"unodsl_log": LOG_VERSION, **header}) + "\n")
        self.count = 0

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        if self.out is not None and not EVENTS[name].for_tools:
            self.out.write(event_line(name, data) + "\n")
            self.count += 1

    def flush(self) -> None:
        if self.out is not None:
            self.out.flush()

    def close(self, over: bool) -> None:
        """Write the end line ("game over" or "unfinished") and close the file."""
        if self.out is not None:
            self.out.write(json.dumps({"end": "game over" if over else "unfinished", "events": self.count}) + "\n")
            self.out.close()
            self.out = None



class Scoreboard:
    """A listener: the rounds of a game as everyone sees them (their public fields only)."""

    def __init__(self) -> None:
        self.rounds: list[RoundResult] = []
        self.winners: tuple[int, ...] = ()

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        if name == "round_end":
            points = tuple(int(x) for x in data["points"])
            before = self.rounds[-1].totals if self.rounds else (0,) * len(points)
            self.rounds.append(RoundResult(len(self.rounds) + 1, data["player"], points,
                                           tuple(a + b for a, b in zip(before, points, strict=True))))
        elif name == "game_end":
            self.winners = tuple(data["winners"])


def failure_text(err: Exception) -> str:
    """What a page is told when the game stops: what went wrong, without the seed, a
    replay command or a file's path (those go to the server's log)."""
    if isinstance(err, VariantRuntimeError):
        return f"a rule of the variant failed in round {err.round}, turn {err.turn}: {err.message}"
    if isinstance(err, IllegalAction):
        return "a bot gave an answer the rules do not allow"
    return f"{type(err).__name__}: see the server's log"


@dataclass
class Table:
    """A table of `players` seats playing `variant`; `bots` are cycled over the seats
    as the agents that play them when no person does. With `turn_seconds`, a person
    who has not answered in time gets their seat's bot's answer (`clock` tells the time)."""

    id: str
    variant: Variant
    players: int
    seed: int
    bots: Sequence[str]
    games_dir: Path
    agent_seed: int | None = None
    max_turns: int = MAX_TURNS
    bot_delay: float = 0.0
    turn_seconds: float | None = None
    clock: Callable[[], float] = time.monotonic
    seats: list[Seat] = field(default_factory=list)
    status: str = "lobby"  # lobby, playing, over, failed
    notice: Notice | None = None  # the last notice for every page (an undo, a new game …)
    notice_until: float = 0.0  # when it expires (by `clock`)
    notices: int = 0  # notices given so far (each one's id)
    failure: str = ""  # why the game stopped (status failed)
    game: Game | None = None
    narrators: list[SeatNarrator] = field(default_factory=list)  # one per seat, then the spectators'
    scoreboard: Scoreboard = field(default_factory=Scoreboard)
    generation: int = 0  # a new game or an undo starts a new narration
    decision_id: str | None = None
    deadline: float | None = None  # when the pending person's time runs out (turn_seconds)
    version: int = 0  # changes with every change of the game
    deciders: list[tuple[int, bool]] = field(default_factory=list)  # per answer: (seat, by a person)
    again: set[int] = field(default_factory=set)  # seats that asked for another game
    log: LogFile | None = None
    log_path: Path | None = None
    number: int = 0  # games played at this table
    listeners: list[Any] = field(default_factory=list)  # more listeners for every game of the table
    on_change: Callable[[Table], None] | None = None  # told after every change (the hub wakes pages and bots)

    def __post_init__(self) -> None:
        if not self.variant.min_players <= self.players <= self.variant.max_players:
            raise UnoDslError(f"{self.variant.name} is for {self.variant.min_players}–"
                              f"{self.variant.max_players} players, not {self.players}")
        if self.agent_seed is None:
            self.agent_seed = self.seed
        rng = agents_rng(self.agent_seed)
        specs = list(self.bots) or ["greedy"]
        self.seats = [Seat(p, secrets.token_urlsafe(18), specs[p % len(specs)],
                           make_agent(specs[p % len(specs)], rng)) for p in range(self.players)]
        self.looks = face_looks(self.variant)
        self.uno_button = has_uno_button(self.variant)
        self.spectator_token = secrets.token_urlsafe(6)
        self._new_narrators()

    # -- names ---------------------------------------------------------------------
    def label(self, p: int) -> str:
        """The seat's label, "P1" …: what the narration and the questions call it."""
        return f"P{p + 1}"

    def labels(self) -> list[str]:
        return [self.label(p) for p in range(self.players)]

    def name(self, p: int) -> str:
        """The seat as a notice names it: "P2 · Ann", or "P2" (no name can pass for a label)."""
        seat = self.seats[p]
        return f"{self.label(p)} · {seat.name}" if seat.name else self.label(p)

    def names(self) -> list[str]:
        return [self.name(p) for p in range(self.players)]

    @property
    def message(self) -> str:
        """What the table says now: why it stopped, or its notice."""
        return self.failure or (self.notice.text if self.notice is not None else "")

    def _new_narrators(self) -> None:
        labels = self.labels()
        self.narrators = [SeatNarrator(labels, p) for p in range(self.players)] + [SeatNarrator(labels, None)]
        self.generation += 1

    def tell(self, kind: str, text: str, seconds: float = NOTICE_SECONDS) -> None:
        """A notice for every page (it replaces the last one)."""
        self.notices += 1
        self.notice = Notice(self.notices, kind, text, seconds)
        self.notice_until = self.clock() + seconds

    # -- what a page is sent ----------------------------------------------------------
    def facts(self, host: bool = False) -> TableFacts:
        """The table's public facts, for every page (`host`: with the host's possible actions)."""
        now = self.clock()
        notice = self.notice if self.notice is not None and now < self.notice_until else None
        seats = tuple(SeatFacts(s.index, self.label(s.index), s.name, s.person, s.bot, bool(s.connected),
                                s.bot_plays) for s in self.seats)
        left = max(0.0, self.deadline - now) if self.deadline is not None else None
        return TableFacts(self.status, self.number, seats, notice, self.failure,
                          self.host_actions() if host else None, tuple(sorted(self.again)),
                          tuple(self.scoreboard.rounds), self.scoreboard.winners, left, self.decision_id, self.looks,
                          self.uno_button)

    def host_actions(self) -> dict[str, bool]:
        """Which of the host's buttons can act now."""
        people = any(person for _, person in self.deciders)
        return {"start": self.status != "playing", "restart": self.game is not None,
                "undo": self.game is not None and people, "save": self.game is not None, "seats": True}

    def frame(self, seat: int | None, host: bool = False) -> dict[str, Any]:
        """The state frame of a page at `seat` (None: a spectator), without narration."""
        known = knowledge(self.game, seat) if self.game is not None else None
        return state_frame(known, self.facts(host), seat)

    # -- seats ---------------------------------------------------------------------
    def seat_for(self, seat: int, token: str) -> Seat:
        """The seat `token` opens; Refused if it is not that seat's."""
        if not 0 <= seat < self.players:
            raise Refused(f"this table has seats 0–{self.players - 1}, not {seat}")
        if not token:
            raise Refused(f"no token: a seat is opened with its own link (P{seat + 1}'s link has its token)")
        if not secrets.compare_digest(token.encode(), self.seats[seat].token.encode()):
            raise Refused(f"this is not P{seat + 1}'s token: open the link you were given for your seat")
        return self.seats[seat]

    def take(self, seat: int, name: str = "") -> None:
        """A person takes (or takes back) a seat: from now on the game waits for them."""
        s = self.seats[seat]
        was = s.person
        s.person = True
        if name:
            s.name = name
        if not was and self.status == "playing":
            self.tell("person", f"{self.name(seat)} is played by a person now")
        self._arm()
        self._changed()

    def hand_to_bot(self, seat: int, by_host: bool = False) -> None:
        """The seat's bot plays it until the person takes it back."""
        s = self.seats[seat]
        was = s.person
        s.person = False
        if was:
            self.tell("bot", f"{self.name(seat)} is played by a bot now" + (" (the host's doing)" if by_host else ""))
        self._arm()
        self._changed()

    def rename(self, seat: int, name: str) -> None:
        self.seats[seat].name = name
        self._changed()

    def ask_again(self, seat: int) -> None:
        """A player asks for another game (the host confirms with a new game)."""
        if self.status not in ("over", "failed"):
            raise Refused("the game is still on: ask for another one when it is over")
        if seat not in self.again:
            self.again.add(seat)
            self.tell("again", f"{self.name(seat)} would like another game: the host starts it")
        self._changed()

    # -- the game --------------------------------------------------------------------
    def start(self, seed: int | None = None) -> None:
        """Start a game (a new one after the first: with `seed`, or a new random seed)."""
        if self.number > 0 or seed is not None:
            self.seed = random.SystemRandom().randrange(1_000_000) if seed is None else seed
        self._close_log()
        self.number += 1
        self.deciders = []
        self.again = set()
        self.failure = ""
        for s in self.seats:
            s.played = False
        self._new_narrators()
        self._open_log()
        LOG.info("table %s: game %d, seed %d", self.id, self.number, self.seed)
        self.tell("start" if self.number == 1 else "restart",
                  "the game has started" if self.number == 1 else f"a new game has started (game {self.number})")
        self._build([])

    def resume(self, save: Save) -> None:
        """Go on with a saved game: its answers are given again (so the narration and
        the log tell the whole game), seats saved as "human" wait for a person."""
        restore(save, self.variant)  # a SaveError says what does not fit
        self.seed = save.seed
        self.number += 1
        for p, agent in enumerate(save.agents[: self.players]):
            if agent == HUMAN:
                self.seats[p].person = True
        self._new_narrators()
        self._open_log()
        self.tell("resume", f"the game goes on from a save ({len(save.actions)} answers)")
        self._build(list(save.actions))
        self.deciders = [(p, self.seats[p].person) for p in self._answerers(list(save.actions))]

    def _answerers(self, actions: list[Any]) -> list[int]:
        """The seat that gave each of `actions`."""
        game = Game(self.variant, self.players, self.seed, max_turns=self.max_turns)
        seats = []
        for action in actions:
            d = game.decision
            if d is None:
                break
            seats.append(d.player)
            game.apply(decode_answer(d, action))
        return seats

    def _build(self, actions: list[Any]) -> None:
        self.scoreboard = Scoreboard()
        listeners: list[Any] = [*self.narrators, self.scoreboard, *([self.log] if self.log is not None else []),
                                *self.listeners]
        try:
            self.game = Game.from_actions(self.variant, self.players, self.seed, actions,
                                          max_turns=self.max_turns, listeners=listeners)
        except UnoDslError as err:
            self.game = None
            self._fail(err)
            return
        self.status = "playing"
        self._after()

    def _open_log(self) -> None:
        self.games_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = self.games_dir / f"table-{self.id}-game-{self.number}-seed-{self.seed}.jsonl"
        agents = [HUMAN if s.person else s.bot for s in self.seats]
        self.log = LogFile(self.log_path, log_header(self.variant, self.players, self.seed, agents,
                                                     self.max_turns, self.agent_seed))

    def _close_log(self) -> None:
        if self.log is not None:
            self.log.close(over=self.game is not None and self.game.over)
            self.log = None

    def close(self) -> None:
        """The server stops: the log gets its end line."""
        self._close_log()

    def _after(self) -> None:
        """After every change of the game: a new decision id, the log flushed, the end noticed."""
        game = self.game
        assert game is not None
        self.decision_id = secrets.token_hex(6) if game.decision is not None else None
        if self.log is not None:
            self.log.flush()
        if game.over and self.status == "playing":
            self.status = "over"
            self._close_log()
        self._arm()
        self._changed()

    def _arm(self) -> None:
        """The pending decision's clock: running while a person must answer (turn_seconds)."""
        game = self.game
        d = game.decision if game is not None and self.status == "playing" else None
        if self.turn_seconds is None or d is None or self.seats[d.player].bot_plays:
            self.deadline = None
        elif self.deadline is None:
            self.deadline = self.clock() + self.turn_seconds

    def timed_out(self) -> bool:
        """A person's time to answer has run out (their seat's bot answers for them)."""
        return self.deadline is not None and self.clock() >= self.deadline

    def seconds_left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - self.clock())

    def _changed(self) -> None:
        self.version += 1
        if self.on_change is not None:
            self.on_change(self)

    def _fail(self, err: Exception | str) -> None:
        if not isinstance(err, str):
            LOG.error("table %s, game %d (seed %d) stopped: %s", self.id, self.number, self.seed, err)
        self.status = "failed"
        self.failure = "the game stopped: " + (err if isinstance(err, str) else failure_text(err))
        self.decision_id = None
        self.deadline = None
        self._close_log()
        self._changed()

    def bot_failed(self, seat: int, err: Exception) -> None:
        """The bot of `seat` raised: the game stops (what it raised goes to the server's log only)."""
        LOG.error("table %s: the bot at %s failed: %r", self.id, self.label(seat), err)
        self._fail(f"the bot at {self.name(seat)} failed")

    def answer(self, seat: int, decision_id: str, option: int) -> None:
        """A person's answer: option `option` of the decision `decision_id`, which must
        be pending and theirs. Refused (nothing changes) otherwise."""
        game = self.game
        if self.status != "playing" or game is None:
            raise Refused({"lobby": "the game has not started yet", "over": "the game is over"}.get(
                self.status, "the game has stopped"))
        d = game.decision
        if d is None or d.player != seat:
            raise Refused("it is not your decision now")
        if self.seats[seat].bot_plays:
            raise Refused("a bot plays your seat now: take it back first")
        if decision_id != self.decision_id:
            raise Refused("that question has been answered already: the table has moved on")
        if not 0 <= option < len(d.options):
            raise Refused(f"there is no option {option}: the options are 0–{len(d.options) - 1}")
        self.notice = None  # a person has moved on: the last notice is old news
        self._apply(d.options[option], seat, by_person=True)

    def uno(self, seat: int, action: str) -> None:
        """The UNO button: `action` "call" or "catch" answers yes to the seat's pending
        UNO question (frames.UNO_ASKS); Refused when the variant asks none now."""
        game = self.game
        d = game.decision if game is not None and self.status == "playing" else None
        if d is None or d.player != seat or d.kind != "ask" or UNO_ASKS.get(d.prompt) != action:
            raise Refused("there is no UNO to call now" if action == "call" else "there is nobody to catch now")
        self.answer(seat, self.decision_id or "", d.options.index(True))

    def bot_move(self) -> tuple[Agent, Game, int] | None:
        """The bot that must answer now (a seat's bot, or a person's whose time ran
        out), with the game and the version it answers at."""
        game = self.game
        if self.status != "playing" or game is None or game.decision is None:
            return None
        seat = self.seats[game.decision.player]
        return (seat.agent, game, self.version) if seat.bot_plays or self.timed_out() else None

    def apply_bot(self, game: Game, version: int, choice: Any) -> bool:
        """A bot's answer, if the table is still where the bot was asked (False if not)."""
        if game is not self.game or version != self.version or game.decision is None:
            return False
        seat = game.decision.player
        late = not self.seats[seat].bot_plays
        if late and not self.timed_out():
            return False
        if late:  # (a seat is named only for a turn: another question would tell what its hand holds)
            who = self.name(seat) if game.decision.kind == "turn" else "a player"
            self.tell("timer", f"{who} ran out of time: their bot answered for them")
        self._apply(choice, seat, by_person=False)
        return True

    def _apply(self, choice: Any, seat: int, by_person: bool) -> None:
        game = self.game
        assert game is not None
        try:
            game.apply(choice)
        except UnoDslError as err:  # IllegalAction (a bot's fault) or the variant's runtime error
            self._fail(err)
            return
        self.deciders.append((seat, by_person))
        if by_person:
            self.seats[seat].played = True
        self.deadline = None
        self._after()

    def undo(self) -> None:
        """Go back to before the last decision a person made (and the bots' after it);
        the log is rewritten. Refused if no person has decided anything."""
        people = [k for k, (_, person) in enumerate(self.deciders) if person]
        if self.game is None or not people:
            raise Refused("there is no decision by a person to undo")
        k = people[-1]
        seat = self.deciders[k][0]
        actions = self.game.actions[:k]
        deciders = self.deciders[:k]
        if self.log is not None and self.log.out is not None:  # rewritten whole below, without an end line
            self.log.out.close()
            self.log = None
        self._new_narrators()
        self._open_log()
        self.status = "playing"
        self.failure = ""
        self.deadline = None
        self.tell("undo", f"the host undid {self.name(seat)}'s last decision")
        self._build(actions)
        self.deciders = deciders

    def save(self) -> Path:
        """Write a save of the game (`tools/save.py`'s format) beside its log."""
        if self.game is None:
            raise Refused("there is no game to save yet")
        agents = [HUMAN if s.person or s.played else s.bot for s in self.seats]
        assert self.agent_seed is not None
        path = self.games_dir / f"table-{self.id}-game-{self.number}-save-{len(self.game.actions)}.json"
        write_save(path, self.game, agents, self.agent_seed)
        LOG.info("table %s: saved %s", self.id, path)
        self.tell("save", f"the host saved the game (after {len(self.game.actions)} answers)")
        self._changed()
        return path
