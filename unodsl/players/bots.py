"""Agents answer decisions: uniformly random, a simple greedy heuristic, or a search
(ISMCTS, `players/ismcts.py`).

An agent is named by a spec: its name, then parameters after colons, as in
`ismcts`, `ismcts:iterations=400` or `ismcts:iterations=400:rollout=random`
(`agent_specs` also reads `ismcts:iterations=400,rollout=random,greedy`: a piece
with `=` and no name continues the agent before it)."""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from collections.abc import Callable
from math import floor  # the random agent's, read on every decision (math is read elsewhere)
from types import MappingProxyType
from typing import Any, Protocol

from ..engine.actions import DRAW, KEEP, PLAY_KINDS, Decision, Lay, Play
from ..engine.game import Game
from ..errors import UnoDslError, did_you_mean
from .ismcts import ISMCTSAgent


class Agent(Protocol):
    name: str

    def choose(self, game: Game, decision: Decision) -> Any:
        """Pick one of `decision.options`."""
        ...


class RandomAgent:
    """Uniform over the legal options, from its own generator (`rng`: a seed or a
    generator), never the game's: a game's deals and shuffles do not depend on
    who sits at the table."""

    name = "random"

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng or 0)
        self._random = self.rng.random

    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        return options[floor(self._random() * len(options))]


class GreedyAgent:
    """Plays what sheds the most cards (a declared play of several cards before one
    card), then the most points; names its most common colour (and, asked for a
    number, the rank it holds most of), targets the opponent with the fewest cards,
    and says yes to every question."""

    name = "greedy"

    def __init__(self, rng: random.Random | int | None = None) -> None:
        """`rng` is accepted like every agent's; greedy draws no random numbers."""

    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        hand = game.hands[decision.player]  # its own hand: nothing hidden is read
        if decision.kind in PLAY_KINDS:
            if game.variant.turn.plays:  # declared plays may be offered: the one that sheds most
                shed = [o for o in options if type(o) is Play or type(o) is Lay]
                if shed:
                    return max(shed, key=_weight)
            else:
                plays = [o for o in options if isinstance(o, Play)]
                if plays:
                    return _heaviest(plays)
            return DRAW if DRAW in options else options[0] if KEEP not in options else KEEP
        if decision.kind == "color":
            counts = Counter(c.color for c in hand if c.color in options)
            return max(options, key=lambda col: (counts[col], -options.index(col)))
        if decision.kind == "player":
            sizes = {o.seat: o.hand_size for o in game.view(decision.player).opponents}
            return min(options, key=lambda p: (sizes.get(p, len(hand)), p))
        if decision.kind == "card":
            return max(options, key=lambda c: (c.points, -c.id))
        if decision.kind == "int":
            return _most_held_rank(hand, options)
        return True if True in options else options[0]


class ExpertAgent:
    """A heuristic a little better than greedy, read from card attributes only (no
    kind names): it keeps its wild cards while a coloured card can go (and a drawn
    wild for later), unless an opponent has one card left or itself two; it prefers
    a card without a rank (an action card) when it holds a follow-up, then the
    card worth fewest points (action cards wait for later). When someone is about
    to go out it plays its heaviest card, as greedy does. A declared play of several
    cards (`turn: plays:`) is worth its best card's merit plus `extra_card` for each
    card beyond the first, weighed against the one-card plays (the first of equals by
    card ids). Names the colour it holds most of; seats, numbers and questions as greedy."""

    name = "expert"
    urgent = 1  # an opponent with this many cards or fewer is about to go out
    action = 5.0  # a card without a rank, with a follow-up
    by_points = -0.1  # per point of the card: the lower the better (keeps action cards for later)
    keep_drawn_wild = True
    own_urgent = 2
    extra_card = 3.0  # each card a declared play sheds beyond its first

    def __init__(self, rng: random.Random | int | None = None) -> None:
        """`rng` is accepted like every agent's; expert draws no random numbers."""

    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        kind = decision.kind
        if kind in PLAY_KINDS:
            plays = [o for o in options if type(o) is Play]
            lays = [o for o in options if type(o) is Lay] if self._lays(game) else []
            if not plays and not lays:
                return DRAW if DRAW in options else options[0] if KEEP not in options else KEEP
            me = decision.player
            hands = game.hands
            hand = hands[me]
            # someone about to go out: an opponent with `urgent` cards or fewer (99 with no
            # opponent), or itself with `own_urgent` or fewer
            urgent = len(hand) <= self.own_urgent
            if not urgent:
                most = self.urgent
                if len(hands) == 1:
                    urgent = most >= 99
                for h in hands:
                    if h is not hand and len(h) <= most:
                        urgent = True
                        break
            if urgent:
                if lays:
                    shed: list[Play | Lay] = [*plays, *lays]
                    return max(shed, key=_weight)
                return _heaviest(plays)
            if lays:
                return self._best_with_lays(plays, lays, hand)
            # The card of highest merit, the first of equals as max() gives: a wild is worth
            # -100 while a coloured card can go (else points / 10); a coloured card
            # points * by_points, plus `action` for a card without a rank with a follow-up.
            plain = False
            for o in plays:
                if not o.card.wild:
                    plain = True
                    break
            several = len(plays) > 1
            by_points, action = self.by_points, self.action
            best: Play | None = None
            best_score = 0.0
            best_id = 0
            for o in plays:
                card = o.card
                if card.wild:
                    score = -100.0 if plain else card.points / 10
                else:
                    score = card.points * by_points
                    if card.rank is None and (several or _more_than_one(hand, card.color)):
                        score += action  # an action card with something to follow it
                if best is None or score > best_score or (score == best_score and card.id < best_id):
                    best, best_score, best_id = o, score, card.id
            assert best is not None
            if kind == "drawn" and self.keep_drawn_wild and best.card.wild and KEEP in options and len(hand) > 3:
                return KEEP  # a drawn wild is kept for when nothing else goes
            return best
        if kind == "color":
            hand = game.hands[decision.player]
            counts: dict[Any, int] = {}
            points: dict[Any, int] = {}
            for c in hand:
                color = c.color
                if not c.wild and color in options:
                    counts[color] = counts.get(color, 0) + 1
                    points[color] = points.get(color, 0) + c.points
            # the colour held most, then by points, the first of equals (max with -index)
            choice = options[0]
            top = (counts.get(choice, 0), points.get(choice, 0))
            for color in options:
                held = (counts.get(color, 0), points.get(color, 0))
                if held > top:
                    choice, top = color, held
            return choice
        if kind == "player":
            sizes = {o.seat: o.hand_size for o in game.view(decision.player).opponents}
            return min(options, key=lambda p: (sizes.get(p, 99), p))
        if kind == "card":
            return max(options, key=lambda c: (c.points, -c.id))
        if kind == "int":
            return _most_held_rank(game.hands[decision.player], options)
        return True if True in options else options[0]

    @staticmethod
    def _lays(game: Game) -> bool:
        """Does the variant declare plays (`turn: plays:`)? (Else no option is one.)"""
        return bool(game.variant.turn.plays)

    def _merit(self, card: Any, plain: bool, several: bool, hand: list[Any]) -> float:
        """One card's merit (see the class doc)."""
        if card.wild:
            return -100.0 if plain else card.points / 10
        score: float = card.points * self.by_points
        if card.rank is None and (several or _more_than_one(hand, card.color)):
            score += self.action
        return score

    def _best_with_lays(self, plays: list[Play], lays: list[Lay], hand: list[Any]) -> Play | Lay:
        """The option of highest merit among one-card plays and declared plays, the first
        of equals by card ids; a drawn wild is not kept here (a declared play is on offer)."""
        plain = any(not o.card.wild for o in plays) or any(not c.wild for o in lays for c in o.cards)
        several = len(plays) + len(lays) > 1

        def merit(o: Play | Lay) -> tuple[float, tuple[int, ...]]:
            cards = o.cards if isinstance(o, Lay) else (o.card,)
            best = max(self._merit(c, plain, several, hand) for c in cards)
            return (best + self.extra_card * (len(cards) - 1), tuple(-c.id for c in cards))

        options: list[Play | Lay] = [*plays, *lays]
        return max(options, key=merit)


def _weight(o: Play | Lay) -> tuple[int, int, tuple[int, ...]]:
    """What greedy weighs a play by when declared plays may be offered: the cards it sheds,
    their points, then the lowest ids (for one-card plays, the order _heaviest gives)."""
    cards = o.cards if isinstance(o, Lay) else (o.card,)
    return (len(cards), sum(c.points for c in cards), tuple(-c.id for c in cards))


def _most_held_rank(hand: list[Any], options: tuple[Any, ...]) -> Any:
    """The number offered that is the rank of most cards in `hand`, the lowest of equals
    (the lowest offered when it holds none): a number named is most often one to match."""
    counts = Counter(c.rank for c in hand)
    return max(options, key=lambda n: (counts[n], -n))


def _heaviest(plays: list[Play]) -> Play:
    """The play of the card worth most points, the lowest id among equals (as
    max(plays, key=(points, -id)) gives)."""
    best = plays[0]
    card = best.card
    points, ident = card.points, card.id
    for o in plays:
        card = o.card
        if card.points > points or (card.points == points and card.id < ident):
            best, points, ident = o, card.points, card.id
    return best


def _more_than_one(hand: list[Any], color: str | None) -> bool:
    """Does `hand` hold more than one card of `color` that is not wild?"""
    seen = 0
    for c in hand:
        if c.color == color and not c.wild:
            seen += 1
            if seen > 1:
                return True
    return False


AGENTS: dict[str, Callable[[random.Random], Agent]] = {
    "random": RandomAgent, "greedy": GreedyAgent, "expert": ExpertAgent,
    "ismcts": lambda rng: ISMCTSAgent(rng, rollout=ExpertAgent)}

ROLLOUTS: dict[str, Callable[[random.Random], Agent]] = {
    "greedy": GreedyAgent, "random": RandomAgent, "expert": ExpertAgent}


class AgentSpecError(UnoDslError):
    """An agent spec that names no agent, or gives it a parameter it does not take."""


# The most a parameter may ask for: a search that would not end in a day is a mistake
# (a save or a command line asking for 10**12 iterations hung), and is refused.
MOST_ITERATIONS = 100_000
MOST_ROLLOUT_TURNS = 10_000
MOST_SECONDS = 3_600.0


def _whole(name: str, text: str, least: int, most: int) -> int:
    try:
        value = int(text) if len(text) <= 20 else None
    except ValueError:
        value = None
    if value is None:
        raise AgentSpecError(f"{name} must be a whole number, not {text[:40]!r}" + ("…" if len(text) > 40 else ""))
    if value < least:
        raise AgentSpecError(f"{name} must be at least {least}, not {value}")
    if value > most:
        raise AgentSpecError(f"{name} must be at most {most:,}, not {value:,}")
    return value


def _number(name: str, text: str, positive: bool, most: float = 1e9) -> float:
    try:
        value = float(text) if len(text) <= 40 else math.nan
    except ValueError:
        raise AgentSpecError(f"{name} must be a number, not {text[:40]!r}") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise AgentSpecError(f"{name} must be {'more than 0' if positive else '0 or more'}, not {text[:40]}")
    if value > most:
        raise AgentSpecError(f"{name} must be at most {most:,g}, not {text[:40]}")
    return value


def _rollout(name: str, text: str) -> Callable[[random.Random], Agent]:
    if text not in ROLLOUTS:
        hint = did_you_mean(text, ROLLOUTS) or f"rollouts: {', '.join(ROLLOUTS)}"
        raise AgentSpecError(f"unknown rollout policy {text!r} ({hint})")
    return ROLLOUTS[text]


def _yes_no(name: str, text: str) -> bool:
    if text not in ("yes", "no"):
        raise AgentSpecError(f"{name} must be yes or no, not {text!r}")
    return text == "yes"


# Each agent's parameters: name → (reader of its text, the keyword it sets).
PARAMETERS: dict[str, dict[str, Callable[[str, str], Any]]] = {
    "random": {},
    "greedy": {},
    "expert": {},
    "ismcts": {
        "iterations": lambda n, t: _whole(n, t, 1, MOST_ITERATIONS),
        "seconds": lambda n, t: _number(n, t, positive=True, most=MOST_SECONDS),
        "c": lambda n, t: _number(n, t, positive=False),
        "rollout": _rollout,
        "rollout_turns": lambda n, t: _whole(n, t, 1, MOST_ROLLOUT_TURNS),
        "prior": lambda n, t: _number(n, t, positive=False),
        "infer": _yes_no,
        "opponents": _rollout,
    },
}


def parse_agent(spec: str) -> tuple[str, dict[str, Any]]:
    """`ismcts:iterations=400` → ("ismcts", {"iterations": 400}); an unknown agent or
    parameter, or a value out of range, is an AgentSpecError saying which."""
    name, *pairs = [part.strip() for part in spec.split(":")]
    if name not in AGENTS:
        hint = did_you_mean(name, AGENTS) or f"agents: {', '.join(AGENTS)}"
        raise AgentSpecError(f"unknown agent {name!r} ({hint})")
    known = PARAMETERS.get(name, {})
    params: dict[str, Any] = {}
    for pair in pairs:
        key, eq, text = (p.strip() for p in pair.partition("="))
        if not known:
            raise AgentSpecError(f"agent {name!r} takes no parameters (got {pair!r})")
        if key not in known:
            hint = did_you_mean(key, known) or f"its parameters: {', '.join(known)}"
            raise AgentSpecError(f"agent {name!r} has no parameter {key!r} ({hint})")
        if not eq or not text:
            raise AgentSpecError(f"parameter {key!r} of {name!r} needs a value: {key}=VALUE")
        if key in params:
            raise AgentSpecError(f"parameter {key!r} of {name!r} is given twice")
        params[key] = known[key](key, text)
    return name, params


@functools.lru_cache(maxsize=256)
def _parsed(spec: str) -> tuple[str, MappingProxyType[str, Any]]:
    """parse_agent, once per spec (tables are made for every game of a simulation)."""
    name, params = parse_agent(spec)
    return name, MappingProxyType(params)


def agent_specs(text: str) -> list[str]:
    """`greedy,ismcts:iterations=40,rollout=random` → ["greedy", "ismcts:iterations=40:rollout=random"],
    each checked (an AgentSpecError says what is wrong)."""
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if "=" in piece and ":" not in piece and specs:
            specs[-1] += ":" + piece
        else:
            specs.append(piece)
    for spec in specs:
        parse_agent(spec)
    return specs


def is_agent(spec: str) -> bool:
    """True if `spec` names an agent with parameters it takes."""
    try:
        parse_agent(spec)
    except AgentSpecError:
        return False
    return True


def make_agent(spec: str, rng: random.Random) -> Agent:
    """The agent `spec` names (see parse_agent), drawing on `rng`."""
    name, params = _parsed(spec)
    if name == "ismcts":
        return ISMCTSAgent(rng, **{"rollout": ExpertAgent, **params})
    return AGENTS[name](rng)


def make_agents(names: list[str], players: int, seed: int = 0) -> list[Agent]:
    """One agent per seat, cycling through `names` (specs: see parse_agent). The
    table's agents share one generator of their own, seeded from `seed`: the game's
    generator is the game's alone, so its deals and shuffles do not depend on who
    sits at the table. (A searching agent seeds its own generator from it.)"""
    rng = agents_rng(seed)
    return [make_agent(names[i % len(names)], rng) for i in range(players)]


def agents_rng(seed: int) -> random.Random:
    """The generator of a table's agents for the agents' `seed`."""
    return random.Random(seed * 1_000 + 1)


def play_game(game: Game, agents: list[Agent]) -> Game:
    """Drive a game to its end with one agent per seat."""
    game.autoplay(agents)
    return game
