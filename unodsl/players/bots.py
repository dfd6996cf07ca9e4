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
    """Uniform over the legal options. It draws from `rng` (a seed or a generator),
    or by default from the game's own seeded generator: nothing to seed, and the
    same game for the same seed all the same."""

    name = "random"

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = random.Random(rng) if isinstance(rng, int) else rng

    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        return options[int((self.rng or game.rng).random() * len(options))]


class GreedyAgent:
    """Plays its highest-scoring legal card, names its most common colour,
    targets the opponent with the fewest cards, and says yes to every question."""

    name = "greedy"

    def __init__(self, rng: random.Random | int | None = None) -> None:
        """`rng` is accepted like every agent's; greedy draws no random numbers."""

    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        hand = game.hands[decision.player]  # its own hand: nothing hidden is read
        if decision.kind in ("turn", "drawn"):
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


AGENTS: dict[str, Callable[[random.Random | None], Agent]] = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agents(names: list[str], players: int, seed: int | None = None) -> list[Agent]:
    """One agent per seat, cycling through `names`. By default the bots draw from
    the game's generator; with `seed`, the table shares one of its own, seeded
    from it. Either way the first deal is made before any bot is asked."""
    rng = None if seed is None else random.Random(seed * 1_000 + 1)
    return [AGENTS[names[i % len(names)]](rng) for i in range(players)]


def play_game(game: Game, agents: list[Agent]) -> Game:
    """Drive a game to its end with one agent per seat."""
    game.autoplay(agents)
    return game
