"""Agents answer decisions: uniformly random, or a simple greedy heuristic."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol

from .engine.actions import DRAW, KEEP, Decision, Play
from .engine.game import Game


class Agent(Protocol):
    name: str

    def choose(self, game: Game, decision: Decision) -> Any:
        """Pick one of `decision.options`."""
        ...


def _generator(rng: random.Random | int) -> random.Random:
    return rng if isinstance(rng, random.Random) else random.Random(rng)


class RandomAgent:
    """Uniform over the legal options; `rng` is a seed or a generator to share."""

    name = "random"

    def __init__(self, rng: random.Random | int = 0) -> None:
        self.rng = _generator(rng)

    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        return options[int(self.rng.random() * len(options))]


class GreedyAgent:
    """Plays its highest-scoring legal card, names its most common colour,
    targets the opponent with the fewest cards, and says yes to every question."""

    name = "greedy"

    def __init__(self, rng: random.Random | int = 0) -> None:
        self.rng = _generator(rng)

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


AGENTS: dict[str, Callable[[random.Random], Agent]] = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agents(names: list[str], players: int, seed: int) -> list[Agent]:
    """One agent per seat, cycling through `names`. The table's bots share one
    generator, seeded from the game seed but apart from the game's own, so that
    the deal does not depend on the bots (and a game seeds it once, not per seat)."""
    rng = random.Random(seed * 1_000 + 1)
    return [AGENTS[names[i % len(names)]](rng) for i in range(players)]


def play_game(game: Game, agents: list[Agent]) -> Game:
    """Drive a game to its end with one agent per seat."""
    game.autoplay(agents)
    return game
