"""The immutable semantic model of a variant, built once by the loader."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import Pos
from .lang.program import Fn, Program

AfterDraw = Literal["may_play", "must_play", "keep"]
RoundScoring = Literal["winner_scores_others", "each_scores_own"]
Teams = Literal["opposite"] | tuple[tuple[int, ...], ...] | None


@dataclass(frozen=True, slots=True)
class Face:
    """One printed face of a card."""

    kind: str
    color: str | None
    rank: int | None
    points: int
    wild: bool

    @property
    def symbol(self) -> str:
        """What a card matches besides colour: its rank, or its kind."""
        return self.kind if self.rank is None else str(self.rank)

    @property
    def label(self) -> str:
        """How a card is named: its colour and symbol ("red 7", "blue skip"); a colourless
        card with a number says its kind too ("joker 2"), else its kind ("wild")."""
        name = self.symbol.replace("_", " ")
        if self.color:
            return f"{self.color} {name}"
        return name if self.rank is None else f"{self.kind.replace('_', ' ')} {name}"


@dataclass(frozen=True, slots=True)
class CardKind:
    """What a kind of card does (from the `cards:` table)."""

    name: str
    points: int | Literal["rank"]
    wild: bool
    on_play: Program
    legal_if: Fn | None
    description: str = ""


@dataclass(frozen=True, slots=True)
class Side:
    """One side of the deck: its colours and the faces printed on it."""

    name: str
    colors: tuple[str, ...]
    faces: tuple[Face, ...]


@dataclass(frozen=True, slots=True)
class DrawRule:
    count: int | Fn = 1  # a number, or an expression read at each draw (`player`: who draws)
    until_playable: bool = False
    max: int | Fn | None = None  # the most cards drawn until playable (None: until the draw pile runs out)
    allowed_if: Fn | None = None
    then: AfterDraw = "may_play"


@dataclass(frozen=True, slots=True)
class Zone:
    """A place cards lie (`zones:`): shared by the table or one per player; who sees its
    cards (everyone, no one, or its owner only); a pile (only its top is addressed) or a
    row (each card visible to those who see it, and a target of its own); how many cards it
    holds at most. The four built-in zones are declarations too (BUILTIN_ZONES)."""

    name: str
    owner: Literal["table", "player"] = "table"
    shows: Literal["all", "none", "owner"] = "all"
    shape: Literal["pile", "row"] = "pile"
    capacity: int | None = None
    builtin: bool = False
    description: str = ""

    @property
    def called(self) -> str:
        """What the rulebook and the narration call it, without an article: its name in
        words, with its shape when the name ends in no word for a place ("center row",
        "matched row", "left pile", "stock")."""
        said = self.name.replace("_", " ")
        return said if said.rsplit(" ", 1)[-1] in PLACE_WORDS else f"{said} {self.shape}"


# Words that name a place already: a declared zone whose name ends with one is said as it is
# ("the center row", "your stock"); any other gets its shape ("the bonus row", "the vault pile").
PLACE_WORDS = frozenset({"row", "pile", "stock", "deck", "area", "zone", "line", "stack", "heap", "box", "tableau",
                         "hand", "board", "market", "reserve", "well", "foundation", "discard", "discards"})


BUILTIN_ZONES = (
    Zone("draw_pile", shows="none", builtin=True, description="the face-down draw pile"),
    Zone("discard_pile", builtin=True, description="the discard pile, face up"),
    Zone("aside", builtin=True, description="cards set aside, face up, emptied each round"),
    Zone("hand", owner="player", shows="owner", builtin=True, description="each player's hand"),
)


@dataclass(frozen=True, slots=True)
class PlayWay:
    """A play the turn offers (`turn: plays:`): between `least` and `most` cards from the
    player's hand, onto `onto` (a pile: its top is the target; a row: one of its cards is),
    put on `to`; legal when `legal` holds (`cards`, `target`, `player`), each card's `same`
    value alike (none: not in such a play); then `then` runs (effects). A play onto the
    discard pile plays each card in turn, as a one-card play does."""

    name: str
    least: int
    most: int
    onto: str
    to: str
    row: bool
    legal: Fn | None
    same: Fn | None
    then: Program
    text: str = ""  # its `legal:` as written, for the rulebook
    description: str = ""


@dataclass(frozen=True, slots=True)
class TurnRules:
    match: Fn | None  # None: no one-card play onto the discard pile (only the declared plays)
    draw: DrawRule
    must_play_if_able: bool = False
    match_is_pure: bool = False  # reads only the card's and top's faces and current_color
    plays: tuple[PlayWay, ...] = ()
    plays_per_turn: int = 1  # plays a turn may hold (with `plays:`), each onto another target


@dataclass(frozen=True, slots=True)
class Scoring:
    round: RoundScoring
    target: int | None  # the total that ends the game (None: only `game_over` ends it)
    winner: Literal["highest", "lowest"]
    game_over: Fn | None = None  # the game also ends when this holds after a round's scoring
    tie_break: Fn | None = None  # settles a tie on the totals: the tied player with the highest value wins


@dataclass(frozen=True, slots=True)
class Rule:
    """A house rule: when `event` happens and `cond` holds, run `body`."""

    name: str
    event: str
    cond: Fn | None
    body: Program


OptionValue = bool | int


@dataclass(frozen=True, slots=True)
class Option:
    """A variant option and the value chosen for this game.

    A `bool` option is a patch switched on or off; an `int` option is a number in
    `min`–`max` (either may be None: no bound), read as `option.NAME` in expressions
    and `{option: NAME}` in the file.
    """

    name: str
    description: str
    value: OptionValue
    type: Literal["bool", "int"] = "bool"
    default: OptionValue = False
    min: int | None = None
    max: int | None = None

    @property
    def enabled(self) -> bool:
        """A switch that is on (a number option is never "on")."""
        return self.type == "bool" and self.value is True

    @property
    def is_set(self) -> bool:
        """A switch that is on, or a number not at its default: what a game's header names."""
        return self.enabled or (self.type != "bool" and self.value != self.default)

    @property
    def type_text(self) -> str:
        """The values it takes, in words: "on or off", "a whole number from 100 to 10000"."""
        if self.type == "bool":
            return "on or off"
        lo, hi = self.min, self.max
        if lo is not None and hi is not None:
            return f"a whole number from {lo} to {hi}"
        if lo is not None:
            return f"a whole number of at least {lo}"
        return f"a whole number of at most {hi}" if hi is not None else "a whole number"

    @property
    def example(self) -> str:
        """A value to show in a hint."""
        if self.type == "bool":
            return "on"
        return str(self.default)

    @property
    def label(self) -> str:
        """How a game's header names it: `NAME` for a switch, `NAME=VALUE` for a number."""
        return self.name if self.type == "bool" else f"{self.name}={self.value}"

    def with_value(self, value: OptionValue) -> Option:
        return Option(self.name, self.description, value, self.type, self.default, self.min, self.max)


@dataclass(frozen=True)
class Target:
    """A designer's target on one figure of the balance lab (`design:`): its value kept
    within `min`–`max` (either may be None), or a goal ("lowest" or "highest")."""

    figure: str
    min: float | None = None
    max: float | None = None
    goal: Literal["lowest", "highest"] | None = None

    @property
    def text(self) -> str:
        """The target in words: "0.02 or less", "25 to 45", "as low as possible"."""
        if self.goal is not None:
            return f"as {'low' if self.goal == 'lowest' else 'high'} as possible"
        lo, hi = (_num(x) for x in (self.min, self.max))
        if self.min is not None and self.max is not None:
            return f"{lo} to {hi}"
        return f"{lo} or more" if self.min is not None else f"{hi} or less"

    def verdict(self, ci95: tuple[float, float] | None) -> Literal["meets", "misses", "unsettled"]:
        """Where a figure with this 95% interval stands: "meets" (the whole interval within
        the bounds), "misses" (wholly outside them) or "unsettled" (across a bound, or no
        interval). A goal is never settled: it has no bound to meet."""
        if ci95 is None or self.goal is not None:
            return "unsettled"
        lo, hi = ci95
        if (self.min is None or lo >= self.min) and (self.max is None or hi <= self.max):
            return "meets"
        if (self.min is not None and hi < self.min) or (self.max is not None and lo > self.max):
            return "misses"
        return "unsettled"


def _num(x: float | None) -> str:
    return "" if x is None else (f"{int(x)}" if float(x).is_integer() else f"{x:g}")


@dataclass(frozen=True)
class Tunable:
    """Something `unodsl tune` may change, from `lo` to `hi`: a number option ("option"),
    a switch ("switch", 0 off and 1 on), or the copies of a card kind in its deck group
    ("count"). `name` is how it is written under `design: vary:` (`hand_size`,
    `count.KIND`); `target` the option or card kind it changes."""

    name: str
    kind: Literal["option", "switch", "count"]
    target: str
    lo: int
    hi: int


@dataclass(frozen=True, slots=True)
class Define:
    """A function of `define:` as the rulebook shows it: its parameters, its expression, and
    its words for a call (`{a}` for parameter a), if the designer gave them."""

    name: str
    params: tuple[str, ...]
    text: str
    says: str | None = None


@dataclass(frozen=True)
class Variant:
    """A checked, compiled variant: everything the engine needs, nothing else. A plain
    value: what is built from it to run its games (the generated module, the tables its
    games share) is its backend's (engine/backends/)."""

    name: str
    file: str
    min_players: int
    max_players: int
    sides: tuple[Side, ...]
    pairing: Literal["in_order", "shuffled"]
    kinds: Mapping[str, CardKind]
    first_dealer: Fn | None
    next_dealer: Fn | None
    setup: Program
    turn: TurnRules
    scoring: Scoring
    rules: tuple[Rule, ...]
    options: tuple[Option, ...]
    # Partners by seat: "opposite", or the seats of each team; None: everyone plays alone.
    teams: Teams = None
    # The designer's targets (`design:`), by figure: (fewest, most). Read by the balance
    # lab (tools/analyze/), never by a game.
    design: Mapping[str, tuple[float, float]] = field(default_factory=dict, compare=False)
    # Bounds and goals on the lab's figures, and what `unodsl tune` may change (variant/design.py).
    targets: tuple[Target, ...] = field(default=(), compare=False)
    vary: tuple[Tunable, ...] = field(default=(), compare=False)
    # Where each condition stands in the file, and its text (for runtime errors).
    where: Mapping[Any, tuple[Pos, str]] = field(default_factory=dict, compare=False, repr=False)
    # The flow of a game as programs, built from `round:` and `turn:` (engine/flow.py): the
    # whole game, and the jump-in offer.
    flow: tuple[Program, ...] = field(default=(), compare=False, repr=False)
    functions: tuple[Define, ...] = ()  # `define:`, in the file's order
    zones: tuple[Zone, ...] = BUILTIN_ZONES  # the built-in zones, then those of `zones:`

    @property
    def deck_size(self) -> int:
        return len(self.sides[0].faces)
