"""The lab's batches: what one chunk of each pass plays, as top-level functions of a
picklable job (so worker processes and dask workers can run them; see batch.py).

- train: rounds on their own seeds, counting public keys against winners (the evaluator's fit);
- rounds: the main pass, single rounds with every listener (simulate's figures and the lab's);
- explore: rounds whose agents try every answer (coverage that does not depend on their habits);
- games: whole games (game balance, rounds per game, completion, timeouts, ties);
- power: the main pass's rounds again with one seat restricted, for each card kind (Jaffe et al.);
- ladder: one rung of the skill ladder, a stronger agent in one seat against weaker ones.

Round i of a pass is seeded by its index, as `simulate` seeds game i, so the
rounds pass plays the very rounds `unodsl simulate --rounds` plays with the same seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...engine.actions import PLAY_KINDS, Decision, Lay, Play
from ...engine.game import Game
from ...players.bots import Agent, make_agents
from ..seating import Setup, agents_seed, game_seed, seating
from ..simulate import _variant, play_one
from ..tally import Tally
from .evaluator import Counts, Evaluator
from .watch import ExploreWatch, GameWatch, LabTally, RoundWatch, TrainWatch

TRAIN_STREAM, GAMES_STREAM, LADDER_STREAM, EXPLORE_STREAM = -1, -2, -3, -5  # the other passes' master seeds


def stream(seed: int, which: int) -> int:
    """The master seed of a pass other than the main one (a game index no run uses)."""
    return game_seed(seed, which)


# --------------------------------------------------------------------------
# train, rounds, games


def train_chunk(setup: Setup, start: int, stop: int) -> Counts:
    variant = _variant(setup)
    counts = Counts()
    tally = Tally(setup.players)
    for index in range(start, stop):
        play_one(variant, setup, index, tally, lambda seats: TrainWatch(counts))
    return counts


@dataclass(frozen=True)
class RoundsJob:
    setup: Setup
    evaluator: Evaluator


@dataclass
class RoundsPart:
    sim: Tally
    lab: LabTally

    def merge(self, other: RoundsPart) -> None:
        self.sim.merge(other.sim)
        self.lab.merge(other.lab)


def rounds_chunk(job: RoundsJob, start: int, stop: int) -> RoundsPart:
    setup = job.setup
    variant = _variant(setup)
    part = RoundsPart(Tally(setup.players), LabTally(setup.players))
    for index in range(start, stop):
        play_one(variant, setup, index, part.sim, lambda seats: RoundWatch(part.lab, job.evaluator))
    return part


def explore_chunk(setup: Setup, start: int, stop: int) -> RoundsPart:
    """Rounds played by Explorers (the agents, trying every answer): what coverage finds
    reachable, whatever the agents' habits."""
    variant = _variant(setup)
    part = RoundsPart(Tally(setup.players), LabTally(setup.players))

    def watch(index: int) -> Callable[[list[str]], ExploreWatch]:
        return lambda seats: ExploreWatch(part.lab, game_seed(setup.seed, index))

    for index in range(start, stop):
        play_one(variant, setup, index, part.sim, watch(index))
    return part


@dataclass
class GamesPart:
    sim: Tally
    ties: Counter[str]

    def merge(self, other: GamesPart) -> None:
        self.sim.merge(other.sim)
        self.ties.update(other.ties)


def games_chunk(setup: Setup, start: int, stop: int) -> GamesPart:
    variant = _variant(setup)
    part = GamesPart(Tally(setup.players), Counter())
    for index in range(start, stop):
        play_one(variant, setup, index, part.sim, lambda seats: GameWatch(part.ties))
    return part


# --------------------------------------------------------------------------
# Restricted play (Jaffe et al. 2012)

AVOID, RUSH = "avoid", "rush"


class Restricted:
    """An agent that never plays card kind `kind` when it has another choice (avoid),
    or plays it at once whenever it can (rush); otherwise it is the agent it wraps.
    The kind is the variant's own (data): a card's `kind`, never a name in code."""

    def __init__(self, agent: Agent, kind: str, mode: str) -> None:
        self.agent, self.kind, self.mode = agent, kind, mode
        self.name = f"{agent.name}:{mode}={kind}"
        self.searches = getattr(agent, "searches", False)
        self.bites = 0  # decisions where the restriction changed what could be chosen

    def choose(self, game: Game, decision: Decision) -> Any:
        if decision.kind in PLAY_KINDS:
            kind = self.kind
            mine = tuple(o for o in decision.options if _plays_kind(o, kind))
            if mine and len(mine) < len(decision.options):
                self.bites += 1
                if self.mode == RUSH:
                    return mine[0] if len(mine) == 1 else self.agent.choose(game, decision._replace(options=mine))
                rest = tuple(o for o in decision.options if not _plays_kind(o, kind))
                return rest[0] if len(rest) == 1 else self.agent.choose(game, decision._replace(options=rest))
        return self.agent.choose(game, decision)


def _plays_kind(option: Any, kind: str) -> bool:
    """Does `option` play a card of `kind` (a one-card play, or a declared play holding one)?"""
    if type(option) is Play:
        return bool(option.card.kind == kind)
    return type(option) is Lay and any(c.kind == kind for c in option.cards)


@dataclass(frozen=True)
class PowerJob:
    setup: Setup
    kinds: tuple[str, ...]


def _round(game_args: tuple[Any, ...], bots: list[Any]) -> int | None:
    """The winner of one round (None: a runaway or an error, counted as a round not won)."""
    variant, n, seed, max_turns = game_args
    won: list[int] = []

    def listen(game: Game, name: str, data: dict[str, Any]) -> None:
        if name == "round_end" and not won:
            won.append(data["player"])

    try:
        game = Game(variant, n, seed, max_turns=max_turns, listeners=[listen], listen_to=("round_end",))
        game.autoplay(bots, rounds=1)
    except Exception:  # a runaway (RunawayRound) or a failure: no winner
        return None
    return won[0] if won else None


def power_chunk(job: PowerJob, start: int, stop: int) -> Counter[str]:
    """For each round: the subject seat (round index mod players) unrestricted, then
    restricted for each kind and mode, on the same seed and table. Counts, by
    "kind|mode": rounds, the paired outcomes "b r" (baseline won, restricted won),
    failures and bites."""
    setup = job.setup
    variant = _variant(setup)
    n = setup.players
    out: Counter[str] = Counter()
    for index in range(start, stop):
        seed = game_seed(setup.seed, index)
        seats = seating(setup.agents, n, index, fixed_seats=setup.fixed_seats)
        agent_seed = agents_seed(setup, index, seed)
        subject = index % n
        args = (variant, n, seed, setup.max_turns)
        base = _round(args, make_agents(seats, n, agent_seed))
        if base is None:
            out["baseline failed"] += 1
            continue
        b = int(base == subject)
        for kind in job.kinds:
            for mode in (AVOID, RUSH):
                bots = make_agents(seats, n, agent_seed)
                restricted = Restricted(bots[subject], kind, mode)
                bots[subject] = restricted
                winner = _round(args, bots)
                key = f"{kind}|{mode}"
                if winner is None:
                    out[f"{key}|failed"] += 1
                r = int(winner == subject)
                out[f"{key}|{b}{r}"] += 1
                out[f"{key}|bites"] += restricted.bites
                out[f"{key}|bitten"] += restricted.bites > 0
    return out


# --------------------------------------------------------------------------
# The skill ladder


@dataclass(frozen=True)
class LadderJob:
    setup: Setup          # variant, options, max_turns; its seed is the ladder's stream
    players: int
    lower: str
    upper: str


def ladder_chunk(job: LadderJob, start: int, stop: int) -> Counter[str]:
    """Rounds with `upper` in one seat (round index mod players) and `lower` in the others:
    counts of "rounds", "won" (by upper) and "failed"."""
    setup = job.setup
    variant = _variant(setup)
    n = job.players
    out: Counter[str] = Counter()
    for index in range(start, stop):
        seed = game_seed(setup.seed, index)
        subject = index % n
        names = [job.upper if p == subject else job.lower for p in range(n)]
        winner = _round((variant, n, seed, setup.max_turns), make_agents(names, n, seed))
        out["rounds"] += 1
        if winner is None:
            out["failed"] += 1
        elif winner == subject:
            out["won"] += 1
    return out


@dataclass(frozen=True)
class Offset:
    """A job whose items start at `start` (the sequential test adds rounds to a run)."""

    fn: Any
    job: Any
    start: int


def offset_chunk(o: Offset, start: int, stop: int) -> Any:
    return o.fn(o.job, o.start + start, o.start + stop)
