"""A readable account of a game, told from its events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.markup import escape

from ..engine.cards import Card
from ..engine.events import EVENTS
from ..engine.game import Game

# Display styles for common colour names; any other colour is shown in bold.
STYLES = {"red": "red", "yellow": "yellow", "green": "green", "blue": "blue", "pink": "magenta",
          "teal": "cyan", "orange": "dark_orange", "purple": "purple"}

QUESTIONS = {"call_uno": ("calls UNO", "forgets to call UNO"), "catch_uno": ("catches a missed UNO", None),
             "challenge": ("challenges", "does not challenge")}


def card_text(card: Card) -> str:
    style = STYLES.get(card.color or "", "bold")
    return f"[{style}]{escape(card.label)}[/]"


def color_text(color: str) -> str:
    return f"[{STYLES.get(color, 'bold')}]{escape(color)}[/]"


class Narrator:
    """Turns events into lines; `verbose` tells every turn, else the notable ones."""

    def __init__(self, names: list[str], say: Callable[[str], None], verbose: bool = False) -> None:
        self.game: Game
        self.names = names
        self.say = say
        self.verbose = verbose
        # One handler per declared event that is worth telling (see told_events).
        self.handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            name: getattr(self, f"on_{name}") for name in EVENTS if hasattr(self, f"on_{name}")}

    @classmethod
    def told_events(cls) -> list[str]:
        """The events this narrator tells; each must be a declared event (a test checks)."""
        return [name.removeprefix("on_") for name in dir(cls) if name.startswith("on_")]

    def who(self, p: int) -> str:
        return f"[bold]{escape(self.names[p])}[/]"

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        self.game = game
        handler = self.handlers.get(name)
        if handler is not None:
            handler(data)

    def on_round_start(self, d: dict[str, Any]) -> None:
        self.setup_answers: dict[tuple[int, str], list[str]] | None = {}
        self.say(f"\n[bold underline]Round {d['round']}[/] — {self.who(d['player'])} deals")

    def on_turn_start(self, d: dict[str, Any]) -> None:
        self.flush_setup()

    def flush_setup(self) -> None:
        """Sum up the questions answered during setup (a draft), once."""
        answers = getattr(self, "setup_answers", None)
        if answers:
            for (p, prompt), said in sorted(answers.items()):
                self.say(f"  {self.who(p)} {escape(prompt)}? {' '.join(said)}")
        self.setup_answers = None

    def on_dealt(self, d: dict[str, Any]) -> None:
        if d["player"] == self.game.n - 1 or self.verbose:
            sizes = ", ".join(str(len(h)) for h in self.game.hands)
            self.say(f"  dealt: hands of {sizes}")

    def on_card_turned(self, d: dict[str, Any]) -> None:
        self.flush_setup()
        self.say(f"  first card: {card_text(d['card'])}")

    def on_cut(self, d: dict[str, Any]) -> None:
        self.say(f"  {self.who(d['player'])} cuts {card_text(d['card'])}")

    def on_card_played(self, d: dict[str, Any]) -> None:
        card: Card = d["card"]
        left = len(self.game.hands[d["player"]])
        if self.verbose or card.rank is None:
            self.say(f"  {self.who(d['player'])} plays {card_text(card)} ({left} left)")

    def on_color_named(self, d: dict[str, Any]) -> None:
        self.say(f"    {self.who(d['player'])} names {color_text(d['color'])}")

    def on_card_drawn(self, d: dict[str, Any]) -> None:
        if self.verbose:
            self.say(f"  {self.who(d['player'])} draws")

    def on_penalty_added(self, d: dict[str, Any]) -> None:
        self.say(f"    the draw penalty grows to {d['total']}")

    def on_penalty_taken(self, d: dict[str, Any]) -> None:
        self.say(f"    {self.who(d['player'])} takes the penalty: draws {d['count']}")

    def on_skipped(self, d: dict[str, Any]) -> None:
        self.say(f"    {self.who(d['player'])} is skipped")

    def on_direction_changed(self, d: dict[str, Any]) -> None:
        self.say("    play changes direction")

    def on_hands_swapped(self, d: dict[str, Any]) -> None:
        self.say(f"    {self.who(d['player'])} and {self.who(d['other'])} swap hands")

    def on_card_given(self, d: dict[str, Any]) -> None:
        self.say(f"    {self.who(d['player'])} gives a card to {self.who(d['other'])}")

    def on_flipped(self, d: dict[str, Any]) -> None:
        top = self.game.discard_pile[-1] if self.game.discard_pile else None
        shown = f"; top card {card_text(top)}" if top else ""
        self.say(f"  [reverse] everything flips: the {escape(d['side'])} side is in play{shown} [/]")

    def on_reshuffled(self, d: dict[str, Any]) -> None:
        self.say(f"  the discard pile is shuffled into a new draw pile ({d['count']} cards)")

    def on_draw_short(self, d: dict[str, Any]) -> None:
        self.say(f"    no cards left: {self.who(d['player'])} draws {d['missing']} fewer")

    def on_cards_moved(self, d: dict[str, Any]) -> None:
        if self.verbose:
            self.say(f"    {d['count']} card(s) move from {d['source']} to {d['target']}")

    def on_choice(self, d: dict[str, Any]) -> None:
        kind, value, prompt = d["kind"], d["value"], d.get("prompt", "")
        answers = getattr(self, "setup_answers", None)
        if kind == "ask" and answers is not None and not self.verbose:
            answers.setdefault((d["player"], prompt), []).append("yes" if value else "no")
            return
        if kind == "ask":
            yes, no = QUESTIONS.get(prompt, (f"says yes to {prompt}", None if not self.verbose
                                             else f"says no to {prompt}"))
            line = yes if value else no
            if line:
                self.say(f"    {self.who(d['player'])} {escape(line)}")
        elif kind == "player":
            self.say(f"    {self.who(d['player'])} picks {self.who(value)}")

    def on_round_end(self, d: dict[str, Any]) -> None:
        w = d["player"]
        gained = ", ".join(f"{escape(self.names[p])} +{pts}" for p, pts in enumerate(d["points"]) if pts)
        self.say(f"  {self.who(w)} goes out after {self.game.turns} turns. Points: {gained or 'none'}")
        totals = "  ".join(f"{escape(self.names[p])} {s}" for p, s in enumerate(self.game.scores))
        self.say(f"  totals: {totals}")
