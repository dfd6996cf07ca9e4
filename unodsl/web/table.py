"""One web table: a game of a variant, its seats (each with its secret token), the
bots that play the seats nobody holds, the host's actions, the event log and saves.

A Table is plain Python and changes only when asked (`answer`, `start`, `undo`, a
bot's move through `bot_move`/`apply_bot`); hub.py drives it. Every answer goes
through `Game.apply`, so an illegal one changes nothing. The log is written as the
game goes, event by event (`tools/log.py`'s format), and rewritten after an undo,
so that `unodsl replay` checks the game as it stands.
"""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..engine.actions import decode_answer
from ..engine.events import EVENTS
from ..engine.game import MAX_TURNS, Game
from ..errors import UnoDslError
from ..model import Variant
from ..players.bots import Agent, agents_rng, make_agent
from ..tools.log import LOG_VERSION, event_line, log_header
from ..tools.save import Save, restore, write_save
from .frames import face_colors
from .narration import SeatNarrator
from .protocol import Refused

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


@dataclass
class Table:
    """A table of `players` seats playing `variant`; `bots` are cycled over the seats
    as the agents that play them when no person does."""

    id: str
    variant: Variant
    players: int
    seed: int
    bots: Sequence[str]
    games_dir: Path
    agent_seed: int | None = None
    max_turns: int = MAX_TURNS
    bot_delay: float = 0.0
    seats: list[Seat] = field(default_factory=list)
    status: str = "lobby"  # lobby, playing, over, failed
    message: str = ""  # what the last host action or failure said, for every page
    game: Game | None = None
    narrators: list[SeatNarrator] = field(default_factory=list)  # one per seat, then the spectators'
    generation: int = 0  # a new game or an undo starts a new narration
    decision_id: str | None = None
    version: int = 0  # changes with every change of the game
    deciders: list[tuple[int, bool]] = field(default_factory=list)  # per answer: (seat, by a person)
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
        self.colors = face_colors(self.variant)
        self.spectator_token = secrets.token_urlsafe(6)
        self._new_narrators()

    # -- names ---------------------------------------------------------------------
    def name(self, p: int) -> str:
        seat = self.seats[p]
        if seat.name:
            return seat.name
        return f"P{p + 1}" if seat.person else f"P{p + 1} ({seat.bot})"

    def names(self) -> list[str]:
        return [self.name(p) for p in range(self.players)]

    def _new_narrators(self) -> None:
        names = self.names()
        self.narrators = [SeatNarrator(names, p) for p in range(self.players)] + [SeatNarrator(names, None)]
        self.generation += 1

    def _rename(self) -> None:
        names = self.names()
        for n in self.narrators:
            n.names[:] = names

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
        s.person = True
        if name:
            s.name = name
        self._rename()
        self._changed()

    def hand_to_bot(self, seat: int) -> None:
        """The seat's bot plays it until the person takes it back."""
        s = self.seats[seat]
        s.person = False
        self._rename()
        self._changed()

    def rename(self, seat: int, name: str) -> None:
        self.seats[seat].name = name
        self._rename()
        self._changed()

    # -- the game --------------------------------------------------------------------
    def start(self, seed: int | None = None) -> None:
        """Start a game (a new one after the first: with `seed`, or a new random seed)."""
        if self.number > 0 or seed is not None:
            self.seed = random.SystemRandom().randrange(1_000_000) if seed is None else seed
        self._close_log()
        self.number += 1
        self.deciders = []
        for s in self.seats:
            s.played = False
        self._new_narrators()
        self._open_log()
        self._build([])
        self.message = f"game {self.number} started, seed {self.seed}"

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
        self._build(list(save.actions))
        self.deciders = [(p, self.seats[p].person) for p in self._answerers(list(save.actions))]
        self.message = f"resumed from the save ({len(save.actions)} answers)"

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
        listeners: list[Any] = [*self.narrators, *([self.log] if self.log is not None else []), *self.listeners]
        try:
            self.game = Game.from_actions(self.variant, self.players, self.seed, actions,
                                          max_turns=self.max_turns, listeners=listeners)
        except UnoDslError as err:
            self.game = None
            self._fail(f"the game stopped: {err}")
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
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        if self.on_change is not None:
            self.on_change(self)

    def _fail(self, message: str) -> None:
        self.status = "failed"
        self.message = message
        self.decision_id = None
        self._close_log()
        self._changed()

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
        self._apply(d.options[option], seat, by_person=True)

    def bot_move(self) -> tuple[Agent, Game, int] | None:
        """The bot that must answer now, with the game and the version it answers at."""
        game = self.game
        if self.status != "playing" or game is None or game.decision is None:
            return None
        seat = self.seats[game.decision.player]
        return (seat.agent, game, self.version) if seat.bot_plays else None

    def apply_bot(self, game: Game, version: int, choice: Any) -> bool:
        """A bot's answer, if the table is still where the bot was asked (False if not)."""
        if game is not self.game or version != self.version or game.decision is None:
            return False
        seat = game.decision.player
        if not self.seats[seat].bot_plays:
            return False
        self._apply(choice, seat, by_person=False)
        return True

    def _apply(self, choice: Any, seat: int, by_person: bool) -> None:
        game = self.game
        assert game is not None
        try:
            game.apply(choice)
        except UnoDslError as err:  # IllegalAction (a bot's fault) or the variant's runtime error
            self._fail(f"the game stopped: {err}")
            return
        self.deciders.append((seat, by_person))
        if by_person:
            self.seats[seat].played = True
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
        self._build(actions)
        self.deciders = deciders
        self.message = f"the host undid {self.name(seat)}'s last decision"

    def save(self) -> Path:
        """Write a save of the game (`tools/save.py`'s format) beside its log."""
        if self.game is None:
            raise Refused("there is no game to save yet")
        agents = [HUMAN if s.person or s.played else s.bot for s in self.seats]
        assert self.agent_seed is not None
        path = self.games_dir / f"table-{self.id}-game-{self.number}-save-{len(self.game.actions)}.json"
        write_save(path, self.game, agents, self.agent_seed)
        self.message = f"saved: {path}"
        self._changed()
        return path
