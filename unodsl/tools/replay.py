"""Re-play a game from its event log and check that it comes out the same, event for event.

The log (see log.py) names the variant, its options, the players and the seed;
its `choice` events hold every answer given. `replay` builds the same Game,
answers each decision with the logged choice and compares every event it emits
with the logged line, stopping at the first difference.

The choices are all a replay needs: the game's generator is its own (bots draw
from theirs), so the deals and shuffles follow from the seed. The log's end line
says whether the game was over and how many events there are, so a log cut
short is told from an unfinished game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine.actions import Decision, Play, answer_value
from ..engine.cards import Card
from ..engine.game import MAX_TURNS, Game, Listener
from ..errors import IllegalAction, Pos, UnoDslError, VariantError
from ..model import Variant
from ..variant.load import load_variant
from .log import LOG_VERSION, MOST_PLAYERS, TooLarge, event_line, plain, read_json


class LogError(UnoDslError):
    """A log that cannot be replayed: missing, not a unodsl log, malformed or cut short."""


@dataclass(frozen=True)
class Log:
    """A parsed event log: the header, and each event as parsed and as written."""

    header: dict[str, Any]
    events: tuple[dict[str, Any], ...]
    lines: tuple[str, ...]
    path: Path | None = None
    end: dict[str, Any] | None = None  # the end line; None if the log has none (cut short)

    @property
    def players(self) -> int:
        return int(self.header["players"])

    @property
    def seed(self) -> int:
        return int(self.header["seed"])

    @property
    def agent_seed(self) -> int:
        """The seed the bots drew from (a log without it was written when `unodsl run`
        seeded every table's bots with 0)."""
        value = self.header.get("agent_seed", 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    @property
    def agents(self) -> list[str]:
        return [str(a) for a in self.header.get("agents", [])]

    @property
    def options(self) -> list[str]:
        return [str(o) for o in self.header.get("options", [])]

    @property
    def option_values(self) -> dict[str, bool | int]:
        """The value of each number option the game was played with."""
        return dict(self.header.get("option_values", {}))

    @property
    def start_actions(self) -> list[Any]:
        """The answers given before the log starts (a game resumed from a save), else []."""
        return list(self.header.get("start_actions", []))

    @property
    def max_turns(self) -> int:
        value = self.header.get("max_turns")
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else MAX_TURNS

    def names(self) -> list[str]:
        """The seats as `unodsl run` names them: P1 (greedy), …"""
        agents = self.agents
        return [f"P{p + 1} ({agents[p]})" if p < len(agents) else f"P{p + 1}" for p in range(self.players)]

    def canonical(self, number: int) -> str:
        """Event `number` (from 1) as log.event_line writes it."""
        return json.dumps(self.events[number - 1], separators=(",", ":"))


@dataclass(frozen=True)
class Difference:
    """The first event that is not the same: its number (from 1), the logged line
    (None: the log had ended) and the replayed one (or what the replay asked)."""

    number: int
    logged: str | None
    live: str | None
    where: str


@dataclass
class ReplayResult:
    log: Log
    game: Game | None = None
    matched: int = 0  # events identical to the log, from the first
    difference: Difference | None = None
    problem: str | None = None
    stopped: bool = False  # stopped by `until`
    notes: list[str] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return self.difference is None and self.problem is None


# -- reading a log ---------------------------------------------------------------
def load_log(source: str | Path | Iterable[str]) -> Log:
    """A log from a file (a str or Path) or from its lines; LogError if it is not one."""
    path = None
    if isinstance(source, str | Path):
        path = Path(source)
        try:
            source = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as err:
            raise LogError(f"{path}: cannot read the log ({err})") from None
    lines = [line.rstrip("\r\n") for line in source]
    where = f"{path}: " if path else ""
    if not any(line.strip() for line in lines):
        raise LogError(f"{where}the log is empty: no header line")
    header = _header(lines[0], where)
    events: list[dict[str, Any]] = []
    raw: list[str] = []
    end: dict[str, Any] | None = None
    last = max(i for i, line in enumerate(lines) if line.strip())
    for i, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        if end is not None:
            raise LogError(f"{where}line {i} comes after the end line")
        event = _event(line, i, i - 1 == last, where)
        if "end" in event and "event" not in event:
            end = _end(event, len(events), i, where)
        else:
            events.append(event)
            raw.append(line.strip())
    return Log(header, tuple(events), tuple(raw), path, end)


def _end(line: dict[str, Any], count: int, number: int, where: str) -> dict[str, Any]:
    """The end line, checked against the events before it."""
    if line.get("events") != count:
        raise LogError(f"{where}the end line (line {number}) counts {line.get('events')!r} events, "
                       f"but the log has {count}")
    return line


def _header(line: str, where: str) -> dict[str, Any]:
    try:
        header = read_json(line)
    except json.JSONDecodeError:
        header = None
    except TooLarge as err:
        raise LogError(f"{where}line 1 is not a header unodsl writes: {err}") from None
    if not isinstance(header, dict) or "unodsl_log" not in header:
        raise LogError(f'{where}line 1 is not a unodsl log header (it starts with {{"unodsl_log": 1, …}})')
    if header["unodsl_log"] != LOG_VERSION:
        version = header["unodsl_log"]
        older = "" if not isinstance(version, int) or version >= LOG_VERSION else \
            " (written by an older unodsl, whose bots drew from the game's generator)" if version < 3 else \
            " (written by an older unodsl, which told choices and the end of a game otherwise)" if version < 4 else \
            " (written by an older unodsl, whose cards_moved did not name its cards)"
        raise LogError(f"{where}log format {header['unodsl_log']!r} is not one this unodsl reads "
                       f"({LOG_VERSION}){older}")
    for key, kind in (("players", int), ("seed", int), ("agents", list), ("options", list)):
        value = header.get(key, [] if kind is list else None)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise LogError(f"{where}the header's {key!r} should be {'a number' if kind is int else 'a list'}, "
                           f"not {json.dumps(value)}")
    if not 1 <= header["players"] <= MOST_PLAYERS:
        raise LogError(f"{where}the header's 'players' is {header['players']:,}; a table has 1 to {MOST_PLAYERS}")
    start = header.get("start_actions", [])
    if not isinstance(start, list) or not all(a is None or isinstance(a, bool | int | str) for a in start):
        raise LogError(f"{where}the header's 'start_actions' should be a list of answers (card ids, words, "
                       f"colours, seats, true/false), not {json.dumps(start)}")
    values = header.get("option_values", {})
    if not isinstance(values, dict) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in values.values()):
        raise LogError(f"{where}the header's 'option_values' should map option names to numbers, "
                       f"not {json.dumps(values)}")
    return header


def _event(line: str, number: int, is_last: bool, where: str) -> dict[str, Any]:
    try:
        event = read_json(line)
    except json.JSONDecodeError as err:
        cut = " (the last line is cut short: the log is truncated)" if is_last else ""
        raise LogError(f"{where}line {number} is not valid JSON (at column {err.colno}){cut}") from None
    except TooLarge as err:
        raise LogError(f"{where}line {number} is not an event unodsl writes: {err}") from None
    if not isinstance(event, dict) or not (isinstance(event.get("event"), str) or "end" in event):
        raise LogError(f'{where}line {number} is not an event (an object with "event": NAME)')
    return event


def load_logged_variant(log: Log, override: str | Path | None = None) -> Variant:
    """The variant the log names (its file, with its options on and its number options'
    values), or `override`."""
    on = log.options
    chosen: dict[str, bool | int] = {**dict.fromkeys(on, True), **log.option_values}
    target = override if override is not None else _logged_file(log)
    variant = load_variant(target, chosen)
    extra = [o.name for o in variant.options if o.enabled and o.name not in on]
    if extra:  # on by default now, but off when the log was written
        variant = load_variant(target, {**chosen, **dict.fromkeys(extra, False)})
    return variant


def _logged_file(log: Log) -> Path:
    file = log.header.get("file")
    if not isinstance(file, str) or not file:
        raise LogError("the log's header names no variant file; give one with --variant PATH")
    path = Path(file)
    if not path.is_file() and not path.is_absolute() and log.path is not None:
        beside = log.path.parent / path  # a log and its variant moved together
        path = beside if beside.is_file() else path
    if not path.is_file():
        raise VariantError.at(Pos(str(path), 1, 1), "the variant file the log names does not exist",
                              "give the variant (a moved or edited copy) with --variant PATH")
    return path


# -- mapping a logged choice to a live option ----------------------------------
def _key(value: Any) -> tuple[str, Any]:
    """What identifies a logged (plain) value: a card or a play by its card's id."""
    if isinstance(value, bool):
        return "bool", value
    if isinstance(value, dict):
        return "card", value.get("id")
    if isinstance(value, int | str):
        return type(value).__name__, value
    return "other", json.dumps(value)


def live_option(value: Any, options: Sequence[Any]) -> Any:
    """The live option that a logged choice value names; LookupError if none does."""
    want = _key(value)
    for option in options:
        if _key(plain(answer_value(option))) == want:  # as the choice event tells it
            return option
    raise LookupError(f"{_compact(value)} is not among the options: {describe_options(options)}")


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def describe_options(options: Sequence[Any]) -> str:
    def one(o: Any) -> str:
        if isinstance(o, Play):
            return f"play {o.card.label} (card {o.card.id})"
        if isinstance(o, Card):
            return f"{o.label} (card {o.id})"
        return o if isinstance(o := plain(o), str) else _compact(o)
    return ", ".join(one(o) for o in options)


# -- replaying -------------------------------------------------------------------
class _Stop(Exception):
    """Raised by the checker inside the engine to stop the replay at once."""

    def __init__(self, difference: Difference | None = None, problem: str | None = None,
                 cut: bool = False) -> None:
        super().__init__()
        self.difference = difference
        self.problem = problem
        self.cut = cut  # the log, cut short, has no more events


def where(game: Game, names: Sequence[str]) -> str:
    """What was being played: the round, and the turn (or the setup)."""
    if game.turns == 0 or game.round_winner is not None:
        return f"round {game.round}, " + ("setup" if game.turns == 0 else "its end")
    return f"round {game.round}, turn {game.turns}, by {names[game.current]}"


class _Checker:
    """A listener comparing each event with the log as it is emitted."""

    def __init__(self, log: Log, until: int | None) -> None:
        self.log, self.until = log, until
        self.game: Game | None = None
        self.matched = 0

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        self.game = game
        number = len(game.events or ())
        line = event_line(name, data)
        logged = self.log.canonical(number) if number <= len(self.log.events) else None
        if logged is None and self.log.end is None:
            raise _Stop(cut=True)
        if logged != line:
            shown = self.log.lines[number - 1] if logged is not None else json.dumps(self.log.end)
            raise _Stop(Difference(number, shown, line, where(game, self.log.names())))
        self.matched = number
        if self.until is not None and number >= self.until:
            raise _Stop()


def _answer(game: Game, log: Log) -> Any:
    """The live option the log chose for the pending decision (the next logged event)."""
    d = game.decision
    assert d is not None
    number = len(game.events or ()) + 1
    entry = log.events[number - 1]
    if entry.get("event") != "choice" or entry.get("player") != d.player or entry.get("kind") != d.kind:
        raise _Stop(Difference(number, log.lines[number - 1], f"(a decision) {asked(d, log.names())}",
                               where(game, log.names())))
    try:
        option = live_option(entry.get("value"), d.options)
    except LookupError:
        raise _Stop(problem=f"event {number} ({where(game, log.names())}): the logged choice "
                            f"{_compact(entry.get('value'))} of {log.names()[d.player]} ({d.kind}) is not "
                            f"among the live options: {describe_options(d.options)}") from None
    return option


def asked(d: Decision, names: Sequence[str]) -> str:
    prompt = f" ({d.prompt})" if d.prompt else ""
    return f"{names[d.player]} is asked to choose a {d.kind}{prompt} among: {describe_options(d.options)}"


def _play(game: Game, log: Log) -> None:
    """Answer every decision with the logged choice, until the game or the log ends."""
    while game.decision is not None and len(game.events or ()) < len(log.events):
        game.apply(_answer(game, log))


def replay(source: Log | str | Path | Iterable[str], variant: str | Path | None = None,
           until: int | None = None, listeners: Sequence[Listener] = ()) -> ReplayResult:
    """Re-play a logged game and compare it with the log (see the module's docstring).

    `variant` replaces the file the log names; `until` stops after that many events;
    `listeners` (a Narrator …) see every replayed event. A log that cannot be read
    raises LogError, a variant that cannot be loaded VariantError.
    """
    log = source if isinstance(source, Log) else load_log(source)
    v = load_logged_variant(log, variant)
    result = ReplayResult(log)
    checker = _Checker(log, until)
    errored = False
    try:
        game = _start(v, log, [*listeners, checker])
        result.game = game
        _play(game, log)
    except _Stop as stop:
        result.difference, result.problem = stop.difference, stop.problem
        result.stopped = stop.difference is None and stop.problem is None and not stop.cut
    except UnoDslError as err:
        errored = _error(result, err, checker)
    result.game = result.game or checker.game
    result.matched = checker.matched
    if log.header.get("variant") not in (None, v.name):
        result.notes.append(f"the log was written for {log.header['variant']!r}; this variant is {v.name!r}")
    if result.identical and not result.stopped and not errored:
        _ending(result)
    return result


def _start(v: Variant, log: Log, listeners: list[Listener]) -> Game:
    """The game where the log starts, told to `listeners`: a new game, or one resumed
    after the answers the header gives (`start_actions`), its events counted from there."""
    start = log.start_actions
    if not start:
        return Game(v, log.players, log.seed, record=True, listeners=listeners, max_turns=log.max_turns)
    try:
        game = Game.from_actions(v, log.players, log.seed, start, record=True, max_turns=log.max_turns)
    except IllegalAction as err:
        raise _Stop(problem=f"the answers the log starts after (start_actions) do not fit the game: {err}") from None
    game.events = []  # the log's events start here
    for listener in listeners:
        game.watch(listener)
    return game


def _error(result: ReplayResult, err: UnoDslError, checker: _Checker) -> bool:
    """A game error during the replay: a problem, unless the logged game stopped there
    too (then noted, and True)."""
    if checker.game is not None and checker.matched == len(result.log.events):
        result.notes.append(f"the game stops with an error where the log ends, as when it was written: {err}")
        return True
    place = f" after event {checker.matched}" if checker.game is not None else ""
    result.problem = f"the replayed game stopped with an error{place}: {err}"
    return False


def _ending(result: ReplayResult) -> None:
    """The checks once the replay has run out: the log and the game end together."""
    game, log = result.game, result.log
    if game is None:
        return
    if len(log.events) > result.matched:
        result.difference = Difference(result.matched + 1, log.lines[result.matched], None,
                                       where(game, log.names()))
        return
    if log.end is None:
        result.notes.append("the log has no end line: it was cut short, and only the part written is checked")
    pending = game.decision
    if pending is None:
        return
    if log.end is not None and log.end.get("end") == "game over":
        result.difference = Difference(result.matched + 1, json.dumps(log.end), f"(a decision) "
                                       f"{asked(pending, log.names())}", where(game, log.names()))
    elif log.end is not None:
        result.notes.append(f"the game was left unfinished here: {asked(pending, log.names())}")


# -- a compact view of a position ---------------------------------------------------
def state_lines(game: Game, names: Sequence[str]) -> list[str]:
    """Where the game is, the top card, colour and direction; then each hand and score."""
    top = game.discard_pile[-1].label if game.discard_pile else "none"
    side = f", side {game.variant.sides[game.side].name}" if len(game.variant.sides) > 1 else ""
    lines = [f"{where(game, names)}; top: {top}; colour: {game.current_color or 'none'}; direction: "
             f"{'forward' if game.direction == 1 else 'backward'}{side}; draw pile: {len(game.draw_pile)}"
             + (f"; penalty: {game.penalty}" if game.penalty else "")]
    width = max(len(n) for n in names)
    for p, hand in enumerate(game.hands):
        cards = ", ".join(c.label for c in hand) or "(empty)"
        lines.append(f"{names[p]:<{width}}  score {game.scores[p]:>4}  {len(hand):>2} cards: {cards}")
    return lines

