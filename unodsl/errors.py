"""Every error a user can cause: typed, positioned, printed gcc-style, with hints."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Pos:
    """A place in a file: 1-based line and column."""

    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding about a variant file, with where it is and what to do."""

    pos: Pos
    message: str
    hint: str | None = None
    severity: Severity = "error"

    def __str__(self) -> str:
        text = f"{self.pos}: {self.severity}: {self.message}"
        return f"{text}\n  hint: {self.hint}" if self.hint else text


class UnoDslError(Exception):
    """Base of every error unodsl raises on purpose."""


class VariantError(UnoDslError):
    """A variant file is not valid; carries every diagnostic found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))

    @classmethod
    def at(cls, pos: Pos, message: str, hint: str | None = None) -> VariantError:
        return cls([Diagnostic(pos, message, hint)])


class IllegalAction(UnoDslError):
    """A choice that is not among the legal options; the game is unchanged."""


class GameError(UnoDslError):
    """A game could not go on (for example a runaway round hit the guard)."""


class RuntimeFault(UnoDslError):
    """An expression failed at run time (division by zero, a number too large, …);
    the engine adds where in the file and when in the game (VariantRuntimeError)."""


class VariantRuntimeError(GameError):
    """A variant's expression failed while a game ran: where in the file, when in
    the game, and the command that replays it."""

    def __init__(self, pos: Pos | None, message: str, *, round: int = 0, turn: int = 0,
                 seed: int | None = None, replay: str | None = None) -> None:
        super().__init__(message)
        self.pos = pos
        self.message = message
        self.round = round
        self.turn = turn
        self.seed = seed
        self.replay = replay  # callers that know the agents may add `-a …`

    def headline(self) -> str:
        """`file:line:col: runtime error: message (round R, turn T, seed S)`."""
        where = f"{self.pos}: " if self.pos is not None else ""
        when = f"round {self.round}, turn {self.turn}" + (f", seed {self.seed}" if self.seed is not None else "")
        return f"{where}runtime error: {self.message} ({when})"

    def with_agents(self, agents: Iterable[str], agent_seed: int | None = None) -> VariantRuntimeError:
        """The same error, its replay command naming the agents of each seat, and
        their seed when it is not the game's (the default of `unodsl run`)."""
        if self.replay and " -a " not in self.replay:
            self.replay = f"{self.replay} -a {','.join(agents)}"
        if self.replay and agent_seed is not None and agent_seed != self.seed and "--agent-seed" not in self.replay:
            self.replay = f"{self.replay} --agent-seed {agent_seed}"
        return self

    def __str__(self) -> str:
        return f"{self.headline()}\n  replay: {self.replay}" if self.replay else self.headline()


class RunawayRound(GameError):
    """A round exceeded the turn guard without anyone going out."""


def shown(text: str) -> str:
    """Text from a file (a name, a path, a log's field) as it may be printed: every character a
    terminal could act on or that reads differently than it is (control characters, escapes,
    line breaks, bidi overrides, zero-width and other invisible ones) written as its Python
    escape (`\\x1b`, `\\n`, `\\u202e`). The one sanitiser of terminal text: the commands'
    console and every line they print pass through it."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def shown_lines(text: str) -> str:
    """`shown` of each line of a text the program wrote over several lines."""
    return "\n".join(shown(line) for line in text.split("\n"))


def did_you_mean(word: str, choices: Iterable[str]) -> str | None:
    """A 'did you mean …?' hint for a near miss, or None."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None
