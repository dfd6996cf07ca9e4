"""Agents answer decisions: uniformly random, or a simple greedy heuristic."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

from ..engine.actions import DRAW, KEEP, Decision, Play
from ..engine.game import Game


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
        return options[int(self._random() * len(options))]


class GreedyAgent:
    """Plays its highest-scoring legal card, names its most common colour,
    targets the opponent with the fewest cards, and says yes to every question."""

    name = "greedy"

    def __init__(self, rng: random.Random | int | None = None) -> None:
        """`rng` is accepted like every agent's; greedy draws no random numbers."""

    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        hand = game.hands[decision.player]  # its own hand: nothing hidden is read
        if decision.kind in ("turn", "drawn", "jump"):
            plays = [o for o in options if isinstance(o, Play)]
            if plays:
                return max(plays, key=lambda o: (o.card.points, -o.card.id))
            return DRAW if DRAW in options else options[0] if KEEP not in options else KEEP
        if decision.kind == "color":
            counts = Counter(c.color for c in hand if c.color in options)
            return max(options, key=lambda col: (counts[col], -options.index(col)))
        if decision.kind == "player":
            sizes = {o.seat: o.hand_size for o in game.view(decision.player).opponents}
            return min(options, key=lambda p: (sizes.get(p, len(hand)), p))
        if decision.kind == "card":
            return max(options, key=lambda c: (c.points, -c.id))
        return True if True in options else options[0]


AGENTS: dict[str, Callable[[random.Random], Agent]] = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agents(names: list[str], players: int, seed: int = 0) -> list[Agent]:
    """One agent per seat, cycling through `names`. The table's agents share one
    generator of their own, seeded from `seed`: the game's generator is the game's
    alone, so its deals and shuffles do not depend on who sits at the table."""
    rng = agents_rng(seed)
    return [AGENTS[names[i % len(names)]](rng) for i in range(players)]


def agents_rng(seed: int) -> random.Random:
    """The generator of a table's agents for the agents' `seed`."""
    return random.Random(seed * 1_000 + 1)


def play_game(game: Game, agents: list[Agent]) -> Game:
    """Drive a game to its end with one agent per seat."""
    game.autoplay(agents)
    return game
