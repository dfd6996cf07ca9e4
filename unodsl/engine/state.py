"""The state of a game, declared once: every field, and how a new game, a clone and a
pickle treat it. `Game.__init__`, `Game.clone` and `engine/snapshot.py` all read this
table, and a test holds every attribute of a game to exactly one entry. Each field is a
slot of the game (the hot loops read and write them without a dict lookup), read and
written as a whole by `read_state` and `write_state`.
"""

from __future__ import annotations

import hashlib
import random
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..lang.program import Lambda
from ..model import DrawRule, Face, Rule, Variant
from .actions import Decision
from .cards import Card
from .frames import Frame

if TYPE_CHECKING:  # (the backends run games: they import the engine's modules)
    from .backends.base import Backend, Perform

# How each kind of field is treated:
# - start:   the same in every new game of a variant and table: kept from the first game
#            (in the variant's cache), so a new game only copies it; an immutable value
# - derived: made from the variant (and the side in play) again when a game is loaded,
#            never pickled; also the same at every start
# - game:    given to each game (its seed, its guards …); immutable
# - table:   the mutable state of the table: a clone copies it (COPIES says how)
# - zone:    a list of cards; a clone copies it and keeps which zone is which (a
#            program's variable may hold a zone)
# - envs:    holds programs' variables (the frames, the queued rules): copied env by env
# - reset:   a clone (and a pickle) starts without it: listeners, attached agents, a
#            pause being made
# - special: the generator (a clone copies it on first use) and who watches which event
Kind = Literal["start", "derived", "game", "table", "zone", "envs", "reset", "special"]

FIELDS: dict[str, Kind] = {
    # the table, copied by a clone
    "draw_pile": "zone", "discard_pile": "zone", "aside": "zone", "hands": "table",
    "places": "table", "seat_places": "table", "named": "table",
    "flags": "table", "revealed": "table", "scores": "table", "round_turns": "table", "_answers": "table",
    "events": "table", "played": "table",
    # where the game stands: frames and queued rules hold programs' variables
    "_stack": "envs", "_queue": "envs",
    # the same at every start
    "n": "start", "side": "start", "direction": "start", "current": "start", "dealer": "start",
    "round": "start", "turns": "start", "current_color": "start", "previous_top": "start",
    "penalty": "start", "penalty_answer": "start", "skips": "start", "again": "start",
    "next_override": "start", "bent": "start", "offered": "start", "round_winner": "start", "out": "start",
    "out_of_game": "start", "laid": "start",
    "_newly_out": "start", "emptied": "start", "winner": "start", "winners": "start",
    "replayable": "start", "decision": "start", "_rng_shared": "start", "_depth": "start", "_work": "start",
    "_work_turn": "start", "_running": "start", "_loud_play": "start", "_tell_play": "start",
    "_loud_draw": "start", "_loud_turn": "start",
    # made from the variant
    "variant": "derived", "_pairing": "derived", "_decks": "derived",
    "cards": "derived", "_subs": "derived", "_match": "derived", "_memo": "derived",
    "_must_play": "derived", "_ways": "derived",
    "_draw_rule": "derived", "_backend": "derived", "_perform": "derived", "_fires": "derived",
    "team_of": "derived", "teams": "derived", "_legal_env": "derived",
    # given to each game
    "seed": "game", "_stacked": "game", "max_turns": "game", "max_rounds": "game", "_tell_rules": "game",
    # a clone starts without them
    "listeners": "reset", "_agents": "reset", "_agent_error": "reset", "_stop_after": "reset", "_paused": "reset",
    # handled one by one
    "_rng": "special", "_watch": "special",
}

# Fields bound once when a game is made (or loaded) and only changed in place after: a
# generated loop may read each into a local once (a template's %name). A test holds the
# engine to never assigning them anywhere else.
STEADY = ("hands", "draw_pile", "discard_pile", "aside", "n", "_memo", "_queue", "played")

# Fields a run of the game (machine.go: from an answer to the next decision) never binds:
# set when a game is made, loaded or cloned, by Game.watch, which is refused while the game
# runs, and on a copy before it runs (a search's max_turns). A generated loop may read them
# once too (a template's %name): a loop never outlives its run.
STILL = ("max_turns", "_watch", "_loud_turn", "_loud_play", "_tell_play", "_loud_draw", "listeners")
# A value of still and steady fields a template reads as %name too (a loop works it out once).
QUIET = "g.events is None and not g.listeners"  # %_quiet: nobody hears events but the rules

# How a pickled game's state is laid out: a pickle records it, and loading refuses one
# made by an engine that laid it out otherwise (engine/snapshot.py). It follows the
# declaration above by itself; raise STATE_VERSION when a field keeps its name but
# comes to hold something else (as `played` did: counts by face, then by kind).
STATE_VERSION = 1


def layout(fields: dict[str, Kind], version: int) -> str:
    """A short digest of a declaration of the state's fields and its version."""
    return hashlib.sha256(repr((version, sorted(fields.items()))).encode()).hexdigest()[:16]


LAYOUT = layout(FIELDS, STATE_VERSION)

START = tuple(k for k, kind in FIELDS.items() if kind in ("start", "derived"))
DERIVED = frozenset(k for k, kind in FIELDS.items() if kind == "derived")
ZONES = tuple(k for k, kind in FIELDS.items() if kind == "zone")
# What a clone (and a loaded pickle) starts with instead of the original's.
RESET: dict[str, Callable[[], Any]] = {
    "listeners": list, "_agents": lambda: None, "_agent_error": lambda: None, "_stop_after": lambda: None,
    "_paused": list,
}
# The zones of `zones:`: the table's by name, and each player's by name then seat (a
# clone copies them as it does hands: see Game.clone).
PLACES = ("places", "seat_places")
# How a clone copies each field of the table (zones and hands keep their identity map: see Game.clone).
COPIES: dict[str, Callable[[Any], Any]] = {
    "flags": lambda flags: [set(f) for f in flags],
    "revealed": dict.copy,
    "named": dict.copy,
    "scores": list.copy,
    "round_turns": list.copy,
    "_answers": list.copy,
    "events": lambda events: None if events is None else events[:],
    "played": lambda played: None if played is None else played[:],
}
assert set(COPIES) | {"hands", *PLACES} == {k for k, kind in FIELDS.items() if kind == "table"}
assert set(RESET) == {k for k, kind in FIELDS.items() if kind == "reset"}


class State:
    """The fields of a game, with their types (for the modules that make up Game)."""

    __slots__ = tuple(FIELDS)

    variant: Variant
    n: int
    seed: int
    max_turns: int
    max_rounds: int
    _stacked: Sequence[str] | None
    _rng: random.Random
    _rng_shared: bool
    # the table
    draw_pile: list[Card]
    discard_pile: list[Card]
    aside: list[Card]
    hands: list[list[Card]]
    places: dict[str, list[Card]]  # the zones of `zones:` shared by the table
    seat_places: dict[str, list[list[Card]]]  # the zones of `zones:` one per player, by seat
    named: dict[tuple[str, int], tuple[Any, str]]  # ("rank"/"color", card id) → (value said, its zone's name)
    flags: list[set[str]]
    revealed: dict[int, int]
    scores: list[int]
    round_turns: list[int]
    side: int
    direction: int
    current: int
    dealer: int
    round: int
    turns: int
    current_color: str | None
    previous_top: Card | None
    penalty: int
    penalty_answer: Lambda | None
    skips: int
    again: bool
    next_override: int | None
    bent: bool  # skips, again, next_override or out: the next turn is not simply the next seat's
    offered: int | None
    round_winner: int | None
    out: frozenset[int]
    out_of_game: frozenset[int]
    laid: tuple[int | str, ...]  # what this turn's declared plays went onto: row cards' ids, piles' names
    _newly_out: frozenset[int]
    emptied: int | None
    winner: int | None
    winners: tuple[int, ...]
    replayable: bool
    # the continuation, and who answers
    decision: Decision | None
    _stack: list[Frame]
    _paused: list[Frame]
    _queue: deque[tuple[Any, dict[str, Any]]]
    _answers: list[Any]
    _depth: int
    _work: int
    _work_turn: tuple[int, int]
    _agents: Sequence[Any] | None
    _running: bool
    _agent_error: Exception | None
    _stop_after: int | None
    # who listens
    events: list[tuple[str, dict[str, Any]]] | None
    played: list[int] | None  # with count_plays: the round's plays of each kind, by kind id
    listeners: list[Callable[..., None]]
    _watch: Any
    _tell_rules: bool
    _loud_play: bool
    _tell_play: bool
    _loud_draw: bool
    _loud_turn: bool
    # made from the variant
    _pairing: list[tuple[Face, ...]]
    _decks: tuple[list[Card], ...]
    cards: list[Card]
    _subs: dict[str, tuple[Rule, ...]]
    _match: Any
    _memo: list[dict[str | None, frozenset[int]]] | None
    _legal_env: dict[str, Any]
    _must_play: bool
    _ways: tuple[Any, ...]  # the variant's declared plays (`turn: plays:`)
    _draw_rule: DrawRule
    _backend: Backend  # how programs run (engine/backends/): its perform and fires are read often, so held here
    _perform: Perform
    _fires: Any
    team_of: tuple[int, ...] | None
    teams: tuple[tuple[int, ...], ...]


def _fields(names: tuple[str, ...]) -> tuple[Callable[[Any], tuple[Any, ...]], Callable[[Any, Sequence[Any]], None]]:
    """A reader of `names` (their values, in order) and a writer of them, each one
    statement: no call per field. The text is the engine's own, made from FIELDS."""
    targets = ", ".join(f"g.{name}" for name in names)
    scope: dict[str, Any] = {}
    source = f"def read(g):\n    return ({targets},)\ndef write(g, values):\n    ({targets},) = values\n"
    exec(compile(source, "<unodsl state fields>", "exec"), scope)  # names from FIELDS, never a variant's
    return scope["read"], scope["write"]


read_state, write_state = _fields(tuple(FIELDS))  # every field, in FIELDS' order (a clone, a pickle)
AT = {name: k for k, name in enumerate(FIELDS)}  # each field's place in them
read_start, write_start = _fields(START)  # the start of a new game (see Game.__init__)


def generator(g: State) -> random.Random:
    """The game's own generator (deals, shuffles, cuts): a clone shares its original's
    until either uses it, and then takes a copy (see COPIES; `Game.rng`)."""
    if g._rng_shared:
        rng = random.Random()
        rng.setstate(g._rng.getstate())
        g._rng, g._rng_shared = rng, False
    return g._rng
