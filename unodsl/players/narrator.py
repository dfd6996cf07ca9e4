"""A readable account of a game, told from its events.

What an event says is its declared narration (engine/events.py, `narrate`): the narrator
tells each event by it, with player names, cards and colours in its own style, and keeps
handlers only where the account needs more than one event (a draw told once with its
cause, the answers of a set-up summed up, a round's scores)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.markup import escape

from ..engine.cards import Card
from ..engine.events import EVENTS, Shows, narrate, visible_to, zone_words
from ..engine.game import Game
from ..engine.primitives.choices import CARD_PROMPT
from ..engine.zones import called, shows

# Display styles for common colour names; any other colour is shown in bold.
STYLES = {"red": "red", "yellow": "yellow", "green": "green", "blue": "blue", "pink": "magenta",
          "teal": "cyan", "orange": "dark_orange", "purple": "purple"}

QUESTIONS = {"call_uno": ("calls UNO", "forgets to call UNO"), "catch_uno": ("catches a missed UNO", None),
             "challenge": ("challenges", "does not challenge")}

# Why a player draws, after a question answered yes: (the asker drew, someone else drew).
OUTCOMES = {"challenge": ("the challenge fails", "the challenge succeeds"),
            "catch_uno": (None, "caught not calling UNO")}
# Questions whose "yes" makes nobody draw: a draw after one has another cause.
DECLARATIONS = {"call_uno"}

# Events told at the table's level (the others are told under the play that caused them).
TABLE_LEVEL = {"cut", "shuffled", "reshuffled"}


def card_text(card: Card) -> str:
    style = STYLES.get(card.color or "", "bold")
    return f"[{style}]{escape(card.label)}[/]"


def and_list(items: list[str]) -> str:
    """Items in a sentence: a; a and b; a, b and c."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}" if items else "nothing"


def color_text(color: str) -> str:
    return f"[{STYLES.get(color, 'bold')}]{escape(color)}[/]"


class Narrator:
    """Turns events into lines: every card played, every draw with its cause, penalties,
    choices and scores; `verbose` also tells each rule that fires (by its `name:`, when
    the game was asked for `rule_fired`: see `listen_to`), the answers "no" and cards
    moved between zones."""

    def __init__(self, names: list[str], say: Callable[[str], None], verbose: bool = False) -> None:
        self.game: Game
        self.names = names
        self.say = say
        self.verbose = verbose
        self.viewer = -1  # the seat whose view the declared narrations are told from (-1: everyone's)
        self.sight: Shows | None = None  # who sees the variant's declared zones (read from the game told)
        self.called: dict[str, str] = {}  # what they are called ("the matched row"; read with sight)
        self.cause: str | None = None  # why a draw happens now (None: the player's own draw)
        self.asked: tuple[int, str] | None = None  # the last question answered yes: (who, prompt)
        self.jumping: int | None = None  # a player who chose to play out of turn, until their card is played
        self.pending: dict[int, int] = {}  # cards drawn and not told yet, by player
        self.penalty_told = False
        self.taking = 0  # the penalty the current player chose to take, until drawn
        self.laying: list[Card] = []  # a declared play's cards still to be played onto the discard pile
        # A handler for the events told with more than their narration (see told_events).
        self.handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            name: getattr(self, f"on_{name}") for name in EVENTS if hasattr(self, f"on_{name}")}

    def listen_to(self) -> list[str]:
        """The events to ask a game for (Game(listen_to=…)): all, with rule_fired when verbose."""
        return [name for name, e in EVENTS.items() if self.verbose or not e.for_tools]

    @classmethod
    def told_events(cls) -> list[str]:
        """The events this narrator tells; each must be a declared event (a test checks)."""
        return [name.removeprefix("on_") for name in dir(cls) if name.startswith("on_")]

    def who(self, p: int) -> str:
        return f"[bold]{escape(self.names[p])}[/]"

    def words(self, kind: str, value: Any) -> str:
        """A value of an event in the narrator's style (engine/events.py's Words)."""
        if kind == "player":
            return self.who(value)
        if kind == "players":
            return ", ".join(self.who(p) for p in value)
        if kind == "card" or isinstance(value, Card):
            return card_text(value)
        if kind == "cards":
            return and_list([card_text(c) for c in value])
        if kind == "color":
            return color_text(value)
        if kind == "zone":
            name = str(value)
            return zone_words(name, self.who, self.called) if name[-1:].isdigit() \
                else escape(zone_words(name, str, self.called))
        return escape(str(value))

    def told(self, name: str, d: dict[str, Any]) -> str:
        """The event's declared narration, in this narrator's words, told from the fields
        its viewer may see (every player's: a card given is "a card"; a seat's: the cards
        it moved from its hand to the draw pile): "" if none fits."""
        return narrate(name, visible_to(name, d, self.viewer, self.sight), self.words) or ""

    def tell(self, name: str, d: dict[str, Any]) -> None:
        """Say the event's narration, as much as the account tells (Event.told)."""
        told = EVENTS[name].told
        if told == "always" or (told == "verbose" and self.verbose):
            line = self.told(name, d)
            if line:
                self.say(("  " if name in TABLE_LEVEL else "    ") + line)

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        self.game = game
        if self.sight is None and hasattr(game, "variant"):  # (a web seat's narrator is told a public face)
            self.sight, self.called = shows(game), called(game)
        handler = self.handlers.get(name)
        if handler is not None:
            handler(data)
        elif name in EVENTS:
            self.tell(name, data)

    def on_round_start(self, d: dict[str, Any]) -> None:
        self.setup_answers: dict[tuple[int, str], list[str]] | None = {}
        self.say(f"\n[bold underline]Round {d['round']}[/] — {self.who(d['player'])} deals")

    def on_turn_start(self, d: dict[str, Any]) -> None:
        self.flush_setup()
        self.cause, self.asked, self.laying = None, None, []

    def flush_setup(self) -> None:
        """Sum up the questions answered during setup (a draft), once."""
        answers = getattr(self, "setup_answers", None)
        if answers:
            for (p, prompt), said in sorted(answers.items()):
                self.say(f"  {self.who(p)} {escape(prompt)}? {' '.join(said)}")
        self.setup_answers = None

    def on_dealt(self, d: dict[str, Any]) -> None:
        if d["player"] == self.game.n - 1:  # once per deal, when every hand is dealt
            sizes = ", ".join(str(len(h)) for h in self.game.hands)
            self.say(f"  dealt: hands of {sizes}")

    def on_card_turned(self, d: dict[str, Any]) -> None:
        self.flush_setup()
        self.cause, self.asked = f"the first card, {card_text(d['card'])}", None
        self.say(f"  first card: {card_text(d['card'])}")

    def on_cards_played(self, d: dict[str, Any]) -> None:
        """A declared play, told once: its cards, their target, the play and the cards left.
        Onto the discard pile its cards are then played one by one: each is told by its
        effects only (see `laid`)."""
        p, cards = d["player"], d["cards"]
        onto_pile = d["to"] == "discard_pile"
        self.laying = list(cards) if onto_pile else []
        left = len(self.game.hands[p]) - (len(cards) if onto_pile else 0)
        play = str(d["play"]).replace("_", " ")
        self.cause, self.asked, self.jumping = f"{self.who(p)}'s {escape(play)}", None, None
        self.say("  " + self.told("cards_played", {**d, "play": f"{play}, {left} left"}))

    def laid(self, d: dict[str, Any]) -> bool:
        """Whether a card played is one of the declared play just told: it is not told
        again, and what follows keeps the play as its cause (a card's own effects cannot be
        told apart from the play's `then:`)."""
        card = d["card"]
        if not any(c is card for c in self.laying):
            return False
        self.laying = [c for c in self.laying if c is not card]
        self.asked = None
        return True

    def on_card_played(self, d: dict[str, Any]) -> None:
        if self.laid(d):
            return
        card: Card = d["card"]
        left = len(self.game.hands[d["player"]])
        self.cause, self.asked = f"{self.who(d['player'])}'s {card_text(card)}", None
        jumped, self.jumping = self.jumping == d["player"], None
        said = f"{self.who(d['player'])} jumps in with {card_text(card)}" if jumped else self.told("card_played", d)
        self.say(f"  {said} ({left} left)")

    def on_rule_fired(self, d: dict[str, Any]) -> None:
        if self.verbose:
            self.cause, self.asked = f"rule “{escape(d['rule'])}”", None
            self.say(f"    [dim]{self.told('rule_fired', d)}[/]")

    def on_card_drawn(self, d: dict[str, Any]) -> None:
        self.pending[d["player"]] = self.pending.get(d["player"], 0) + 1

    def on_hand_changed(self, d: dict[str, Any]) -> None:
        """A draw ends with its hand_changed: told once, with how many and why."""
        p = d["player"]
        count = self.pending.pop(p, 0)
        if count:
            why = self.why(p)
            if why is None:  # a turn's own draw
                self.say(f"  {self.who(p)} draws {count} ({d['size']} cards)")
            else:
                self.say(f"    {self.who(p)} draws {count} ({d['size']} cards): {why}")

    def why(self, p: int) -> str | None:
        """The cause of a draw by `p`, from what happened last (None: their turn's own draw)."""
        if self.taking and p == self.game.current:
            self.penalty_told, self.taking = True, 0
            return "takes the draw penalty"
        if self.asked is not None:
            asker, prompt = self.asked
            own, other = OUTCOMES.get(prompt, (None, None))
            said = own if p == asker else other
            yes = QUESTIONS.get(prompt, (f"says yes to {prompt}", None))[0]
            return escape(said) if said else f"after {self.who(asker)} {escape(yes)}"
        return self.cause

    def on_penalty_taken(self, d: dict[str, Any]) -> None:
        if not self.penalty_told:
            self.tell("penalty_taken", d)
        self.penalty_told = False

    def on_card_given(self, d: dict[str, Any]) -> None:  # (a method: the web's and the terminal's tell more)
        self.tell("card_given", d)

    def on_flipped(self, d: dict[str, Any]) -> None:
        top = self.game.discard_pile[-1] if self.game.discard_pile else None
        shown = f"; top card {card_text(top)}" if top else ""
        self.say(f"  [reverse] {self.told('flipped', d)}{shown} [/]")

    def on_choice(self, d: dict[str, Any]) -> None:
        kind, value, prompt = d["kind"], d["value"], d.get("prompt", "")
        answers = getattr(self, "setup_answers", None)
        if kind == "ask" and answers is not None and not self.verbose:
            answers.setdefault((d["player"], prompt), []).append("yes" if value else "no")
            return
        if kind == "jump" and value != "pass":
            self.jumping = d["player"]  # the card played next is played out of turn
        if kind == "turn" and value == "draw":
            self.cause, self.asked, self.taking = None, None, self.game.penalty
        if kind == "ask" and value is True and prompt not in DECLARATIONS:
            self.asked = (d["player"], prompt)
        elif kind != "ask":
            self.asked = None  # another decision came between: the question is not the cause
        if kind == "ask":
            yes, no = QUESTIONS.get(prompt, (f"says yes to {prompt}", None if not self.verbose
                                             else f"says no to {prompt}"))
            line = yes if value else no
            if line:
                self.say(f"    {self.who(d['player'])} {escape(line)}")
        elif kind == "player":
            self.say(f"    {self.who(d['player'])} picks {self.who(value)}")
        elif kind == "int":
            self.say(f"    {self.who(d['player'])} picks the number {value}")
        elif kind == "card":
            self.tell_purpose(d)

    def tell_purpose(self, d: dict[str, Any]) -> None:
        """A card chosen for something its `choose_card` says ("Ann picks a card to give
        away"); nothing for a card chosen without saying what for (the card is not named:
        only its chooser sees it)."""
        purpose = str(d.get("prompt", "")).removeprefix(CARD_PROMPT + " ")
        if d["kind"] == "card" and purpose != d.get("prompt", ""):
            self.say(f"    {self.who(d['player'])} picks a card {escape(purpose)}")

    def on_round_end(self, d: dict[str, Any]) -> None:
        w = d["player"]
        gained = ", ".join(f"{escape(self.names[p])} +{pts}" for p, pts in enumerate(d["points"]) if pts)
        g = self.game
        how = "goes out" if not g.hands[w] else "wins the round"
        if g.team_of is not None:
            team = " & ".join(escape(self.names[p]) for p in g.teams[d["team"]])
            got = next((pts for pts in d["points"] if pts), 0)
            self.say(f"  {self.who(w)} {how} after {g.turns} turns: team {team} scores {got}")
        else:
            self.say(f"  {self.who(w)} {how} after {g.turns} turns. Points: {gained or 'none'}")
        totals = "  ".join(f"{escape(self.names[p])} {s}" for p, s in enumerate(self.game.scores))
        self.say(f"  totals: {totals}")
