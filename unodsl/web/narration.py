"""The running narration of a web table, told to each seat as that seat may know it.

`SeatNarrator` is the narrator of `tools/narrator.py`, given each event with only
the fields its declaration (engine/events.py) lets the seat see: a spectator gets
the public fields, a seat also those about itself (the cards it draws, a card it
gives or gets, its own answers). Its own drawn cards are told by name. The game
itself it sees only through `PublicGame` (sizes, scores, the top card, whose turn):
it cannot read a hand or the draw pile. Seats are named by their labels ("P2"),
never by the names people type, so a name cannot pass for another seat; the seat's
own label carries the class "you".

A line is kept as the narrator's markup and sent as runs of plain text, each with style classes from a fixed list
(`segments`): the page puts the text in with `textContent`, so nothing a variant
names (a card label, a player's name) can become markup or script.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from itertools import pairwise
from typing import Any

from rich.errors import MarkupError
from rich.markup import escape
from rich.text import Text

from ..engine.cards import Card
from ..engine.events import visible_to
from ..engine.game import Game
from ..engine.zones import called, shows
from ..players.narrator import Narrator, card_text

KEEP_LINES = 200  # the lines kept per seat (a page that reconnects gets these)

# The narrator's rich styles → the page's CSS classes; any other style is dropped.
CLASSES = {"bold": "b", "dim": "dim", "italic": "i", "underline": "u",
           "red": "c-red", "yellow": "c-yellow", "green": "c-green", "blue": "c-blue",
           "magenta": "c-pink", "cyan": "c-teal", "dark_orange": "c-orange", "purple": "c-purple",
           "blink": "you"}  # (blink: the narrator's mark of the seat's own label, never shown as blinking)

def cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


class PublicGame:
    """What a seat's narrator may read of the game: what everyone at the table sees.
    Hands are only their sizes (each a tuple of None), the discard pile only its top."""

    __slots__ = ("game",)

    def __init__(self) -> None:
        self.game: Any = None

    @property
    def n(self) -> int:
        return int(self.game.n)

    @property
    def hands(self) -> tuple[tuple[None, ...], ...]:
        return tuple((None,) * len(h) for h in self.game.hands)

    @property
    def discard_pile(self) -> list[Card]:
        return list(self.game.discard_pile[-1:])

    @property
    def penalty(self) -> int:
        return int(self.game.penalty)

    @property
    def current(self) -> int:
        return int(self.game.current)

    @property
    def turns(self) -> int:
        return int(self.game.turns)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.game.scores)

    @property
    def team_of(self) -> Any:
        return self.game.team_of

    @property
    def teams(self) -> Any:
        return self.game.teams

Segment = tuple[str, str]  # (text, classes)


@lru_cache(maxsize=4096)  # most lines are told alike to every seat: each is parsed once
def segments(markup: str) -> tuple[Segment, ...]:
    """A line of rich markup as (text, "class class") runs (text is never markup)."""
    try:
        text = Text.from_markup(markup)
    except MarkupError:
        return ((markup, ""),)
    plain = text.plain
    cuts = sorted({0, len(plain), *(s.start for s in text.spans), *(s.end for s in text.spans)})
    runs: list[Segment] = []
    for a, b in pairwise(cuts):
        if a >= b:
            continue
        names: list[str] = []
        for span in text.spans:
            if span.start <= a and b <= span.end:
                for word in str(span.style).split():
                    cls = CLASSES.get(word)
                    if cls is not None and cls not in names:
                        names.append(cls)
        runs.append((plain[a:b], " ".join(names)))
    return tuple(runs)


class SeatNarrator(Narrator):
    """The narration as `seat` may know it (None: a spectator, who sees public fields only).
    `labels` are the seats' labels ("P1", "P2" …)."""

    def __init__(self, labels: list[str], seat: int | None) -> None:
        super().__init__(labels, self._say)
        self.seat = seat
        self.viewer = -1 if seat is None else seat  # (its events come filtered for it: told as it sees them)
        self.public = PublicGame()
        self.lines: deque[str] = deque(maxlen=KEEP_LINES)  # as rich markup (see segments)
        self.count = 0  # lines said so far (the kept ones are the last of them)
        self.mine: list[Card] = []  # cards this seat drew, until their hand_changed
        self.unknown = False  # a hidden answer came last: what follows has no known cause

    def _say(self, markup: str) -> None:
        for part in markup.split("\n"):
            if part.strip():
                self.lines.append(part)
                self.count += 1

    def since(self, count: int) -> list[tuple[Segment, ...]]:
        """The lines said after the first `count` (those still kept), as runs of text."""
        new = min(self.count - count, len(self.lines))
        if new <= 0:
            return []
        return [segments(line) for line in list(self.lines)[-new:]]

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        if self.sight is None:
            self.sight, self.called = shows(game), called(game)
        seen = visible_to(name, data, -1 if self.seat is None else self.seat, self.sight)
        self.public.game = game
        super().__call__(self.public, name, seen)  # type: ignore[arg-type]  # the public face of the game only

    def who(self, p: int) -> str:
        style = "bold blink" if p == self.seat else "bold"
        return f"[{style}]{escape(self.names[p])}[/]"

    def on_eliminated(self, d: dict[str, Any]) -> None:
        where = self.words("zone", str(d["zone"]))
        self.say(f"    {self.who(d['player'])} is out of the round ({cards(d['count'])} to {where})")

    def on_card_played(self, d: dict[str, Any]) -> None:
        if self.unknown:  # a hidden turn answer was a play, not the draw it was taken for
            self.taking = 0
        self.unknown = False
        super().on_card_played(d)

    def on_turn_start(self, d: dict[str, Any]) -> None:
        self.unknown = False
        super().on_turn_start(d)

    def on_card_drawn(self, d: dict[str, Any]) -> None:
        super().on_card_drawn(d)
        if "card" in d:
            self.mine.append(d["card"])

    def on_hand_changed(self, d: dict[str, Any]) -> None:
        p = d["player"]
        mine, self.mine = self.mine, []
        count = self.pending.get(p, 0)
        if not (mine and count):
            super().on_hand_changed(d)
            return
        del self.pending[p]
        why = self.why(p)
        cards = ", ".join(card_text(c) for c in mine)
        self.say(f"  {self.who(p)} draws {cards} ({d['size']} cards)" + (f": {why}" if why else ""))

    def why(self, p: int) -> str | None:
        return None if self.unknown and not self.taking else super().why(p)

    def on_card_given(self, d: dict[str, Any]) -> None:
        if "card" in d:  # this seat gave or got it
            self.say(f"    {self.who(d['player'])} gives {card_text(d['card'])} to {self.who(d['other'])}")
        else:
            super().on_card_given(d)

    def on_choice(self, d: dict[str, Any]) -> None:
        if "value" in d:
            self.unknown = False
            super().on_choice(d)
            return
        # Another seat's answer, which this seat does not see: what follows it (a draw)
        # is told without a cause rather than with a wrong one.
        if d["kind"] == "ask" and getattr(self, "setup_answers", None) is not None:
            return
        self.tell_purpose(d)
        self.asked, self.unknown = None, True
        if d["kind"] == "turn":
            self.cause, self.taking = None, self.game.penalty
