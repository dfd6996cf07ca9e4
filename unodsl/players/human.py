"""A person at the terminal as an agent: the table as they see it, the legal
options numbered, and their answer read by number or by text.

Everything shown comes from `game.view(seat)` and the decision itself (its
options and the card it is about): a person is never shown another player's hand.
`PlayNarrator` tells the rest of the game around them (account.Narrator, with
every card played and drawn, and the decisions the engine took for them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..engine.actions import DRAW, KEEP, KINDS, PASS, Decision, Lay, Play
from ..engine.cards import Card
from ..engine.game import Game
from ..engine.view import PlayerView, ZoneView
from .narrator import STYLES, Narrator, card_text, color_text

QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})

# What each kind of decision means, for `?`.
KIND_HELP = {k: kind.help for k, kind in KINDS.items()}

# Readable questions for the usual prompts of `ask`; any other is shown as its words.
QUESTIONS = {
    "call_uno": "You have one card left. Call UNO?",
    "catch_uno": "Someone did not call UNO. Catch them?",
    "challenge": "Challenge the card just played?",
}

ANOTHER_PLAY = "another play"  # the prompt of a turn's next declared play (engine/flow.py)
ANOTHER_HELP = ("You may make one more play, onto a card or pile not played onto yet this turn (after a draw: "
                "one with the card drawn), or pass to end your turn.")

HOW_TO_ANSWER = ("Answer with an option's number or its text (any case; a unique beginning such as "
                 "'dr' for 'draw' is enough). '?' shows this help, 'q' quits the game.")


class Quit(Exception):
    """The person ended the game (q, quit, end of input, Ctrl-C). An Exception,
    so that autoplay hands it back with the decision pending and the game unchanged."""


def _name(names: Sequence[str], p: int) -> str:
    return names[p] if 0 <= p < len(names) else f"P{p + 1}"


# -- options as text --------------------------------------------------------------
def option_text(option: Any, decision: Decision, names: Sequence[str] = ()) -> str:
    """An option as plain text: "play red 7", "draw", "keep", "red", "P2 (greedy)", "yes"."""
    if isinstance(option, Play):
        return f"play {option.card.label}"
    if isinstance(option, Lay):  # "doubles: red 5 + yellow 5 on red 9"
        return (f"{_words(option.way)}: {' + '.join(c.label for c in option.cards)} on {option.target.label}"
                f"{_which(option, decision)}")
    if isinstance(option, Card):
        return option.label
    if isinstance(option, bool):
        return "yes" if option else "no"
    if decision.kind == "player" and isinstance(option, int):
        return _name(names, option)
    return str(option)


def option_markup(option: Any, decision: Decision, names: Sequence[str] = (), penalty: int = 0) -> str:
    """An option as rich markup: card labels and colours coloured as the narration does."""
    if isinstance(option, Play):
        return f"play {card_text(option.card)}"
    if isinstance(option, Lay):
        return (f"[bold]{escape(_words(option.way))}[/]: {' + '.join(card_text(c) for c in option.cards)} "
                f"on {card_text(option.target)}{escape(_which(option, decision))}")
    if isinstance(option, Card):
        return card_text(option)
    if decision.kind == "color" and isinstance(option, str):
        return color_text(option)
    if option is DRAW and penalty:
        return f"draw [dim](take the penalty: {penalty} cards)[/]"
    if option is KEEP:
        return "keep [dim](the card stays in your hand)[/]"
    if option is PASS and decision.prompt == ANOTHER_PLAY:
        return "pass [dim](end your turn)[/]"
    if option is PASS:
        return "pass [dim](nothing else is possible)[/]"
    return escape(option_text(option, decision, names))


def _which(option: Lay, decision: Decision) -> str:
    """Which of two alike cards of a row a play goes onto, when the decision offers both:
    " (2nd blue 3 from the left)" (the options list a row's targets from its first); else ""."""
    alike = [o.target.id for o in decision.options if isinstance(o, Lay) and o.target.label == option.target.label]
    ids = list(dict.fromkeys(alike))
    if len(ids) < 2:
        return ""
    k = ids.index(option.target.id) + 1
    nth = f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"
    return f" ({nth} {option.target.label} from the left)"


def _words(name: str) -> str:
    """A name from the variant file in words (`two_cards` → "two cards")."""
    return name.replace("_", " ")


def _aliases(option: Any, decision: Decision, names: Sequence[str]) -> list[str]:
    """The texts that name `option` exactly (lower case)."""
    texts = [option_text(option, decision, names).lower()]
    if isinstance(option, Play):
        texts.append(option.card.label.lower())
    elif decision.kind == "player" and isinstance(option, int) and not isinstance(option, bool):
        texts.append(f"p{option + 1}")
    elif option is True and decision.prompt:  # "keep", "challenge", "call uno": yes
        texts.append(decision.prompt.replace("_", " ").lower())
    return texts


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit()  # (not "²": int() refuses it)


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def _whole(text: str) -> int | None:
    """`text` as a whole number ("7", "-3"), or None."""
    digits = text.removeprefix("-")
    return int(text) if _is_number(digits) and len(digits) <= 6 else None


def number_range(decision: Decision) -> str:
    """The numbers an "int" decision (choose_number) offers, as "0–9"."""
    return f"{decision.options[0]}–{decision.options[-1]}" if decision.options else "none"


def matches(text: str, decision: Decision, names: Sequence[str] = ()) -> list[int]:
    """The indices of the options `text` names: its number (1-based), an option's
    text exactly, or else the beginning of options' texts. Options that read the
    same (two red 7s) are one answer: the first of them. Asked for a number, the
    number typed is the answer itself."""
    text = _normal(text)
    options = decision.options
    if not text:
        return []
    if decision.kind == "int":
        k = _whole(text)
        return [options.index(k)] if k is not None and k in options else []
    if _is_number(text):
        k = int(text)
        return [k - 1] if 1 <= k <= len(options) else []
    aliases = [_aliases(o, decision, names) for o in options]
    found = [i for i, a in enumerate(aliases) if text in a]
    if not found:
        found = [i for i, a in enumerate(aliases) if any(t.startswith(text) for t in a)]
    seen: dict[str, int] = {}
    for i in found:  # the same text twice is the same answer
        seen.setdefault(option_text(options[i], decision, names).lower(), i)
    return list(seen.values())


def parse_answer(text: str, decision: Decision, names: Sequence[str] = ()) -> Any | None:
    """The option `text` names, or None if it names none or several."""
    found = matches(text, decision, names)
    return decision.options[found[0]] if len(found) == 1 else None


# -- what the person sees ---------------------------------------------------------
def question(decision: Decision, names: Sequence[str] = ()) -> str:
    """What the decision asks, as markup."""
    about = f" {card_text(decision.about)}" if decision.about is not None else ""
    kind = decision.kind
    if kind == "turn" and decision.prompt == ANOTHER_PLAY:
        return "[bold]Another play?[/] Make one of these, or pass to end your turn."
    if kind == "turn":
        return "[bold]Your turn.[/] What do you play?"
    if kind == "drawn":
        drawn = next((o.card for o in decision.options if isinstance(o, Play)), None)
        shown = card_text(drawn) if drawn is not None else "a card"
        return f"You drew {shown}, which you can play. Play it or keep it?"
    if kind == "jump":
        return f"[bold]Jump in?[/] You may play on{about} out of turn, or pass."
    if kind == "color":
        return "Name a colour."
    if kind == "player":
        return "Pick a player."
    if kind == "int":
        return f"Pick a number from {number_range(decision).replace('–', ' to ')}."
    if kind == "card":
        prompt = decision.prompt or "pick a card"  # (text from the file after "pick a card": kept as written)
        return f"{escape(prompt[:1].upper() + prompt[1:])}."
    asked = QUESTIONS.get(decision.prompt)
    if asked is not None:
        return escape(asked) + (f" [dim](about{about})[/]" if about else "")
    words = decision.prompt.replace("_", " ") or "yes or no"
    return f"{escape(words.capitalize())}{about}?"


def label_markup(label: str) -> str:
    """A card label from a view, coloured by the colour word it starts with (if known)."""
    first = label.split(" ", 1)[0]
    return f"[{STYLES[first]}]{escape(label)}[/]" if first in STYLES else f"[bold]{escape(label)}[/]"


def _hand(cards: Sequence[Card]) -> str:
    ordered = sorted(cards, key=lambda c: (c.color is None, c.color or "", c.rank is None, c.rank or 0, c.label))
    return ", ".join(card_text(c) for c in ordered) or "[dim](empty)[/]"


def zone_line(z: ZoneView, me: int, names: Sequence[str] = (), row: bool = False) -> str:
    """A zone of `zones:` as `me` sees it: a row's cards, a pile's top and size, or only
    how many cards it holds (face down, or another player's)."""
    name = escape(_words(z.name))
    whose = name if z.seat is None else f"your {name}" if z.seat == me else \
        f"{escape(_name(names, z.seat))}'s {name}"
    count = f"{z.size} card{'s' if z.size != 1 else ''}"
    cards = z.labels()  # each with what was said of it ("LABEL (7)")
    if cards is None:
        what = f"{count} [dim]({'face down' if z.seat is None or z.seat == me else 'only they see them'})[/]"
    elif not cards:
        what = "[dim](empty)[/]"
    elif row or len(cards) == 1:
        what = ", ".join(label_markup(c) for c in cards)
    else:
        what = f"{label_markup(cards[-1])} on top ({count})"
    return f"{whose}: {what}"


def table_lines(view: PlayerView, names: Sequence[str] = (), rows: frozenset[str] = frozenset()) -> list[str]:
    """The table as `view.player` sees it: top card and colour, the zones of `zones:`
    (`rows`: those whose cards lie side by side), the other players' hand sizes (and,
    with two-faced cards, the backs turned towards them), the scores, and their own hand."""
    me = view.player
    lines = []
    top = f"top card: {label_markup(view.top)}" if view.top is not None else "no card turned up yet"
    if view.current_color is not None:
        top += f"   colour to match: {color_text(view.current_color)}"
    top += f"   draw pile: {view.draw_pile_size}"
    two_faced = view.draw_pile_back is not None or any(o.backs for o in view.opponents)
    if two_faced:
        top += f"   side in play: {escape(view.side)}"
        if view.draw_pile_back is not None:
            top += f" (draw pile shows {escape(view.draw_pile_back)})"
    lines.append(top)
    lines += [zone_line(z, me, names, z.name in rows) for z in view.zones]
    if view.penalty:
        lines.append(f"[bold red]a penalty of {view.penalty} cards is pending on you[/]")
    for o in view.opponents:
        size = f"{o.hand_size} card{'s' if o.hand_size != 1 else ''}"
        extra = f"   backs: {', '.join(map(escape, o.backs))}" if o.backs else ""
        flags = f"   [dim]({', '.join(sorted(map(escape, o.flags)))})[/]" if o.flags else ""
        lines.append(f"[bold]{escape(_name(names, o.seat))}[/]: {size}, score {o.score}{flags}{extra}")
    n = len(view.scores)
    if n > 2:
        after = _name(names, (me + view.direction) % n)
        lines.append(f"play goes {'up' if view.direction > 0 else 'down'} the table: after you, "
                     f"{escape(after)}")
    lines.append(f"[bold]your hand[/] ({len(view.hand)}): {_hand(view.hand)}   your score: {view.scores[me]}")
    return lines


def options_lines(decision: Decision, names: Sequence[str] = (), penalty: int = 0) -> list[str]:
    if decision.kind == "int":  # up to 1,000 of them: the range, not a list
        return [f"  type a number from [bold]{decision.options[0]}[/] to [bold]{decision.options[-1]}[/]"]
    return [f"  [bold]{i}[/]. {option_markup(o, decision, names, penalty)}"
            for i, o in enumerate(decision.options, 1)]


def render_prompt(view: PlayerView, decision: Decision, names: Sequence[str] = (),
                  rows: frozenset[str] = frozenset()) -> str:
    """The whole prompt for a decision, as markup: the table, the question, the options."""
    rule = f"[dim]── {escape(_name(names, view.player))} ──[/]"
    body = [rule, *("  " + line for line in table_lines(view, names, rows)), question(decision, names),
            *options_lines(decision, names, view.penalty)]
    return "\n".join(body)


def kind_help(decision: Decision) -> str:
    """What a decision means, for a person asked it (plain text)."""
    if decision.kind == "turn" and decision.prompt == ANOTHER_PLAY:
        return ANOTHER_HELP
    return KIND_HELP.get(decision.kind, "Pick one of the options.")


def help_text(decision: Decision, names: Sequence[str] = (), penalty: int = 0) -> str:
    lines = [f"[bold]{escape(kind_help(decision))}[/]",
             question(decision, names), *options_lines(decision, names, penalty), escape(HOW_TO_ANSWER)]
    return "\n".join(lines)


def refusal(text: str, decision: Decision, names: Sequence[str] = ()) -> str:
    """Why `text` is not an answer, and what would be."""
    n = len(decision.options)
    shown = escape(text.strip())
    if decision.kind == "int":
        return f"'{shown}' is not a number you can pick: type one from {number_range(decision)} ('?' for help)."
    if not text.strip():
        return f"Type an option's number (1–{n}) or its text; '?' for help, 'q' to quit."
    if _is_number(text.strip()):
        return f"There is no option {shown}: answer 1–{n} ('?' for help)."
    found = matches(text, decision, names)
    if len(found) > 1:
        could = ", ".join(escape(option_text(decision.options[i], decision, names)) for i in found)
        return f"'{shown}' could be {could}: type more of it, or its number."
    return f"'{shown}' is not one of the options: answer 1–{n} or an option's text ('?' for help, 'q' to quit)."


# -- the agent --------------------------------------------------------------------
class HumanAgent:
    """Asks a person: shows the table from their seat and reads their answer.

    `say` prints rich markup, `read` prints its (markup) prompt and reads one
    line (by default a rich Console's `print` and `input`); both are injectable,
    so a test can script a person. End of input or Ctrl-C while reading, or an
    answer of q/quit, raises `Quit`."""

    name = "human"

    def __init__(self, names: Sequence[str] = (), say: Callable[[str], None] | None = None,
                 read: Callable[[str], str] | None = None) -> None:
        if say is None or read is None:
            console = Console(highlight=False)
            say = say or console.print
            read = read or console.input
        self.names = list(names)
        self.say = say
        self.read = read
        self.answered = False  # set when an answer is given, cleared by PlayNarrator
        self.asked = 0  # decisions put to the person

    def choose(self, game: Game, decision: Decision) -> Any:
        view = game.view(decision.player)
        self.asked += 1
        rows = frozenset(z.name for z in game.variant.zones if z.shape == "row")
        self.say(render_prompt(view, decision, self.names, rows))
        n = len(decision.options)
        span = number_range(decision) if decision.kind == "int" else f"1–{n}"
        while True:
            try:
                text = self.read(f"[bold]your choice[/] ({span}, ? help, q quit): ")
            except (EOFError, KeyboardInterrupt):
                raise Quit("end of input") from None
            word = _normal(text)
            if word in QUIT_WORDS:
                raise Quit(word)
            if word in HELP_WORDS:
                self.say(help_text(decision, self.names, view.penalty))
                continue
            found = matches(word, decision, self.names)
            if len(found) == 1:
                self.answered = True
                return decision.options[found[0]]
            self.say(f"[red]{refusal(text, decision, self.names)}[/]")


# -- the narration around the person ----------------------------------------------
class PlayNarrator(Narrator):
    """account.Narrator for a person at the table: every card played is told, draws
    are told once per draw (the person's own drawn cards by name, the others' only
    by count), and a decision the engine took for the person because it had a
    single legal option is told to them ("you have to draw")."""

    def __init__(self, names: list[str], say: Callable[[str], None], seat: int, human: HumanAgent) -> None:
        super().__init__(names, say, verbose=False)
        self.seat = self.viewer = seat
        self.human = human
        self.drawn: dict[int, list[Card]] = {}

    def on_card_played(self, d: dict[str, Any]) -> None:
        if self.laid(d):
            return
        left = len(self.game.hands[d["player"]])
        self.say(f"  {self.who(d['player'])} plays {card_text(d['card'])} ({left} left)")

    def on_card_drawn(self, d: dict[str, Any]) -> None:
        self.drawn.setdefault(d["player"], []).append(d["card"])

    def on_hand_changed(self, d: dict[str, Any]) -> None:
        p = d["player"]
        cards = self.drawn.pop(p, None)
        if not cards:
            return
        if p == self.seat:
            self.say(f"  {self.who(p)} draws {', '.join(card_text(c) for c in cards)} ({d['size']} cards)")
        else:
            count = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
            self.say(f"  {self.who(p)} draws {count} ({d['size']} cards)")

    def on_card_given(self, d: dict[str, Any]) -> None:
        if self.seat in (d["player"], d["other"]):  # the person sees a card they give or get
            self.say(f"    {self.who(d['player'])} gives {card_text(d['card'])} to {self.who(d['other'])}")
        else:
            super().on_card_given(d)

    def on_choice(self, d: dict[str, Any]) -> None:
        if d["player"] == self.seat:
            if self.human.answered:
                self.human.answered = False
            else:
                self.say(f"  [italic]{forced_text(d['kind'], d['value'], self.game.penalty, self.names)}[/]")
        super().on_choice(d)

    def on_round_end(self, d: dict[str, Any]) -> None:
        super().on_round_end(d)
        if d["player"] == self.seat:
            self.say("  [bold green]You win the round![/]")


def forced_text(kind: str, value: Any, penalty: int = 0, names: Sequence[str] = ()) -> str:
    """What the engine did for the person when they had a single legal option."""
    if kind == "turn":
        if value == "draw":
            if penalty:
                return f"you cannot answer the penalty: you have to draw {penalty}"
            return "you have no card you can play: you have to draw"
        if value == "pass":
            return "you can neither play nor draw: you pass"
        if isinstance(value, Card):
            return f"your only move: you have to play {card_text(value)}"
        if isinstance(value, list):  # a declared play's cards
            return f"your only move: you have to play {' and '.join(card_text(c) for c in value)}"
    if kind == "color" and isinstance(value, str):
        return f"only one colour can be named: {color_text(value)}"
    if kind == "player" and isinstance(value, int):
        return f"only one player can be picked: {escape(_name(names, value))}"
    if kind == "int" and isinstance(value, int):
        return f"only one number can be picked: {value}"
    if isinstance(value, Card):
        return f"only one card can be picked: {card_text(value)}"
    shown = escape("yes" if value is True else "no" if value is False else str(value))
    return f"you have only one option: {shown}"
