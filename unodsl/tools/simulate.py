"""Batch simulation: play many games of a variant with bots, keep streaming
statistics, and compare two variants with named significance tests.

Every figure is kept as an integer counter or a histogram of integers
(turns per round, rounds per game, points per round, reshuffles per round), so
memory does not grow with the number of games, tallies from several worker
processes merge exactly, and the figures are the same for any number of
workers. Game `i` of a run with master seed `s` is played with the seed
`game_seed(s, i)`, a SHA-256 of both, stable across Python runs and machines,
and with the agents seated as `seating(agents, players, i)` says: the table
turns one seat per game, so every agent holds every seat equally often.

    sim = simulate("house.yaml", 1_000, players=4, agents=["greedy", "random"], seed=1)
    print(sim.figures()["turns_per_round"]["median"])
    other = simulate("house.yaml", 1_000, players=4, seed=1, options={"stacking": True})
    for test in compare(sim, other).tests:
        print(test.metric, test.test, test.p_holm, test.significant)

The statistics are in `stats.py` (standard library only), the charts in
`plots.py`.
"""

from __future__ import annotations

import functools
import hashlib
import math
import os
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..engine.game import Game, replay_command
from ..errors import RunawayRound, UnoDslError, VariantRuntimeError
from ..model import Variant
from ..players.bots import AGENTS, Agent, AgentSpecError, make_agents, parse_agent
from ..variant.load import load_variant
from ..variant.resolve import resolve
from .batch import WorkerError, run_chunks
from .cluster import Cluster
from .stats import (
    at_rank,
    chi_square,
    mann_whitney,
    moments,
    quantile,
    quantile_ci,
    sorted_items,
    t_quantile,
    two_proportions,
    welch,
    welch_hist,
    wilson,
)

ALPHA = 0.05
KEPT_FAILURES = 20  # failed games described in full (by game index); the rest are only counted

# --------------------------------------------------------------------------
# Seeds


def game_seed(master: int, index: int) -> int:
    """The seed of game `index` of a run with seed `master` (48 bits, stable
    across Python runs and platforms: a SHA-256, not `hash()`)."""
    digest = hashlib.sha256(f"unodsl-simulate:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


# --------------------------------------------------------------------------
# Seating


def table(agents: Sequence[str], players: int, *, fixed_seats: bool = False) -> tuple[str, ...]:
    """The agents around the table, seat by seat as game 0 seats them: `agents`
    cycled to fill it. With rotating seats, the alphabetically smallest rotation
    of that: any two lists that fill the table alike up to a rotation
    (`greedy,random` and `random,greedy` at 4 players) then play the very same games."""
    filled = tuple(agents[p % len(agents)] for p in range(players))
    if fixed_seats:
        return filled
    return min(filled[k:] + filled[:k] for k in range(players))


@functools.lru_cache(maxsize=64)
def _table(agents: tuple[str, ...], players: int, fixed_seats: bool) -> tuple[str, ...]:
    return table(agents, players, fixed_seats=fixed_seats)


def seating(agents: Sequence[str], players: int, index: int, *, fixed_seats: bool = False) -> list[str]:
    """The agent of each seat in game `index`: seat p holds `table(...)[(p + index) % players]`
    (or `table(...)[p]` with fixed seats). The table keeps who sits next to whom and
    only turns, so over any `players` consecutive games every seat is held once by
    each place at the table: an agent with m of the n places holds every seat in
    m games out of n, its fair share m/n, even when `len(agents)` does not divide n."""
    seats = _table(tuple(agents), players, fixed_seats)
    turn = 0 if fixed_seats else index % players
    return list(seats[turn:] + seats[:turn])


# --------------------------------------------------------------------------
# The tally: everything counted, nothing kept per game


@dataclass
class Tally:
    """Counters of a batch of games; two tallies of disjoint games merge exactly."""

    players: int
    games: int = 0                 # games started
    completed: int = 0             # games played to the end (games mode) or rounds (rounds mode)
    ties: int = 0                  # games that ended in a tie between teams (players), no one's win
    runaway: int = 0               # rounds stopped by the max_turns guard (their game is abandoned)
    turns_played: int = 0          # every turn, abandoned rounds included (for speed)
    game_wins: list[int] = field(default_factory=list)             # by seat
    game_wins_from_dealer: list[int] = field(default_factory=list)  # by seat after round 1's dealer
    round_wins: list[int] = field(default_factory=list)            # by seat
    round_wins_from_dealer: list[int] = field(default_factory=list)  # by seat after the round's dealer
    agent_game_wins: Counter[str] = field(default_factory=Counter)   # by the winning seat's agent in that game
    agent_round_wins: Counter[str] = field(default_factory=Counter)  # by the winning seat's agent in that round
    rounds_per_game: Counter[int] = field(default_factory=Counter)
    turns_per_round: Counter[int] = field(default_factory=Counter)
    points_per_round: Counter[int] = field(default_factory=Counter)
    reshuffles_per_round: Counter[int] = field(default_factory=Counter)
    plays: Counter[str] = field(default_factory=Counter)     # card kind → plays
    plays_sq: Counter[str] = field(default_factory=Counter)  # card kind → Σ (plays in a round)²
    failed: int = 0                # games stopped by an error (a runtime error of the variant, …)
    timeouts: int = 0              # of those, games stopped by the engine's max_rounds guard
    failures: list[Failure] = field(default_factory=list)  # the first KEPT_FAILURES of them, by index

    def __post_init__(self) -> None:
        for name in ("game_wins", "game_wins_from_dealer", "round_wins", "round_wins_from_dealer"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)

    @property
    def rounds(self) -> int:
        """Completed rounds."""
        return sum(self.turns_per_round.values())

    def merge(self, other: Tally) -> None:
        if other.players != self.players:
            raise ValueError("tallies of different table sizes do not merge")
        self.games += other.games
        self.completed += other.completed
        self.ties += other.ties
        self.runaway += other.runaway
        self.turns_played += other.turns_played
        for name in ("game_wins", "game_wins_from_dealer", "round_wins", "round_wins_from_dealer"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for i, count in enumerate(theirs):
                mine[i] += count
        for name in ("agent_game_wins", "agent_round_wins", "rounds_per_game", "turns_per_round",
                     "points_per_round", "reshuffles_per_round", "plays", "plays_sq"):
            getattr(self, name).update(getattr(other, name))
        self.failed += other.failed
        self.timeouts += other.timeouts
        self.failures = sorted(self.failures + other.failures, key=lambda f: f.index)[:KEPT_FAILURES]


@dataclass(frozen=True)
class Failure:
    """A game that stopped with an error: which, its first error, and how to replay it."""

    index: int
    seed: int
    error: str
    replay: str

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.index, "seed": self.seed, "error": self.error, "replay": self.replay}


class _Recorder:
    """The listener that feeds a tally from one game's events."""

    __slots__ = ("dealer", "first_dealer", "n", "reshuffles", "seats", "tally", "turns_done")

    def __init__(self, tally: Tally, seats: list[str]) -> None:
        self.tally = tally
        self.seats = seats  # the agent of each seat in this game
        self.n = tally.players
        self.first_dealer: int | None = None
        self.dealer = 0
        self.reshuffles = 0
        self.turns_done = 0

    # (the plays are counted by the game itself: see Game.plays_by_kind)
    EVENTS = ("reshuffled", "round_start", "round_end")

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        if name == "reshuffled":
            self.reshuffles += 1
        elif name == "round_start":
            self.dealer = data["player"]
            if self.first_dealer is None:
                self.first_dealer = self.dealer
            self.reshuffles = 0
        elif name == "round_end":
            t, n, dealer = self.tally, self.n, self.dealer
            team_of = game.team_of
            if team_of is None:
                p = data["player"]
                t.round_wins[p] += 1
                t.round_wins_from_dealer[(p - dealer) % n] += 1
                t.agent_round_wins[self.seats[p]] += 1
            else:  # every player of the winning team wins the round; their agents, once each
                won = [p for p in range(n) if team_of[p] == data["team"]]
                for p in won:
                    t.round_wins[p] += 1
                    t.round_wins_from_dealer[(p - dealer) % n] += 1
                for agent in dict.fromkeys([self.seats[p] for p in won]):
                    t.agent_round_wins[agent] += 1
            turns = game.turns
            t.turns_per_round[turns] += 1
            t.points_per_round[sum(data["points"])] += 1
            t.reshuffles_per_round[self.reshuffles] += 1
            plays, plays_sq, played = t.plays, t.plays_sq, game.played
            assert played is not None  # (play_one counts them: see Game.plays_by_kind)
            for kind, count in zip(game.variant.kinds, played, strict=True):
                if count:
                    plays[kind] += count
                    plays_sq[kind] += count * count
            self.turns_done += turns


# --------------------------------------------------------------------------
# Playing


SimulationError = WorkerError  # a worker process could not start or died (the name simulate used)


@dataclass(frozen=True)
class Setup:
    """What a batch plays; picklable, so worker processes can load it themselves."""

    variant: str                          # an absolute path to the variant file
    options: tuple[tuple[str, bool | int], ...]
    players: int
    agents: tuple[str, ...]
    seed: int
    max_turns: int = 5_000
    rounds_only: bool = False
    fixed_seats: bool = False             # keep every agent in its seat instead of turning the table
    max_failures: int | None = None       # stop the run once this many games have failed
    agent_seed: int | None = None         # the agents' master seed (None: each game's agents use its seed)
    allow: tuple[str, ...] = ()           # folders its `extends:` may reach besides its own (tune's candidates)

    @property
    def table(self) -> tuple[str, ...]:
        """The agents around the table, as game 0 seats them."""
        return table(self.agents, self.players, fixed_seats=self.fixed_seats)


_LOADED: OrderedDict[tuple[str, tuple[tuple[str, bool | int], ...]], Variant] = OrderedDict()
LOADED_KEPT = 8  # variants kept loaded in a process (a tuner plays many, one after another)


def _variant(setup: Setup) -> Variant:
    key = (setup.variant, setup.options)
    if key in _LOADED:
        _LOADED.move_to_end(key)
    else:
        _LOADED[key] = load_variant(setup.variant, dict(setup.options), allow=setup.allow)
        while len(_LOADED) > LOADED_KEPT:
            _LOADED.popitem(last=False)
    return _LOADED[key]


class Watcher(Protocol):
    """More eyes on one game of a batch (the balance lab's, tools/analyze/): a listener of
    `events`, and the table's agents, which it may wrap to watch their decisions."""

    events: tuple[str, ...]

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None: ...

    def seat(self, bots: list[Agent]) -> list[Agent]: ...


def play_one(variant: Variant, setup: Setup, index: int, tally: Tally,
             watch: Callable[[list[str]], Watcher] | None = None) -> Game | None:
    """Play game `index` of a batch into `tally`; a runaway round is counted and ends the game.
    `watch(seats)` gives a Watcher for the game (its agents by seat); the game is returned
    when it ended without an error (after its first round, in rounds mode)."""
    seed = game_seed(setup.seed, index)
    n = setup.players
    seats = seating(setup.agents, n, index, fixed_seats=setup.fixed_seats)
    bots = make_agents(seats, n, agents_seed(setup, index, seed))
    recorder = _Recorder(tally, seats)
    listeners: list[Any] = [recorder]
    events: tuple[str, ...] = _Recorder.EVENTS
    if watch is not None:
        watcher = watch(seats)
        listeners.append(watcher)
        events += watcher.events
        bots = watcher.seat(bots)
    tally.games += 1
    game: Game | None = None
    try:
        game = Game(variant, n, seed, max_turns=setup.max_turns, listeners=listeners, listen_to=events,
                    count_plays=True)
        game.autoplay(bots, rounds=1 if setup.rounds_only else None)
    except RunawayRound:
        tally.runaway += 1
        tally.turns_played += recorder.turns_done + setup.max_turns
        return None
    except Exception as err:  # any failure of one game is counted, and the run goes on
        tally.failed += 1
        if game is not None and game.round > game.max_rounds:
            tally.timeouts += 1
        tally.turns_played += recorder.turns_done
        if len(tally.failures) < KEPT_FAILURES:
            tally.failures.append(_failure(setup, index, seed, seats, err))
        return None
    tally.turns_played += recorder.turns_done
    if setup.rounds_only:
        tally.completed += 1
        return game
    first = recorder.first_dealer
    assert game.winners and first is not None
    tally.completed += 1
    tally.rounds_per_game[game.round] += 1
    if len({game.team(p) for p in game.winners}) > 1:
        tally.ties += 1  # a tie is no one's win
        return game
    for p in game.winners:  # with teams, every player of the winning team
        tally.game_wins[p] += 1
        tally.game_wins_from_dealer[(p - first) % n] += 1
    for agent in dict.fromkeys(seats[p] for p in game.winners):
        tally.agent_game_wins[agent] += 1
    return game


def _failure(setup: Setup, index: int, seed: int, seats: list[str], err: Exception) -> Failure:
    """What is kept of a failed game: its first error and the command that replays it."""
    if isinstance(err, VariantRuntimeError):
        text = err.headline()
    elif isinstance(err, UnoDslError):
        text = str(err)
    else:
        text = f"{type(err).__name__}: {err}"
    replay = replay_command(setup.variant, seed, setup.players, seats, setup.max_turns, setup.options,
                            agent_seed=agents_seed(setup, index, seed))
    return Failure(index, seed, text, replay)


def agents_seed(setup: Setup, index: int, seed: int) -> int:
    """The seed of the agents of game `index` (whose own seed is `seed`): the game's
    seed, or one derived from the run's agent seed and `index`, as the game's is."""
    return seed if setup.agent_seed is None else game_seed(setup.agent_seed, index)


def _enough_failures(setup: Setup, tally: Tally) -> bool:
    return setup.max_failures is not None and tally.failed >= setup.max_failures


def _play_chunk(setup: Setup, start: int, stop: int) -> Tally:
    """Worker entry point (top level, so spawned processes can import it)."""
    variant = _variant(setup)
    tally = Tally(setup.players)
    for index in range(start, stop):
        play_one(variant, setup, index, tally)
        if _enough_failures(setup, tally):
            break
    return tally


def _play_batch(setup: Setup, count: int, workers: int, tally: Tally, progress: Callable[[int], None] | None,
                cluster: Cluster | None = None) -> None:
    """Play the games in chunks in `workers` spawned processes or on a dask cluster (see batch.py).
    A chunk lost with a cluster's worker is played again by the scheduler: its games are
    seeded, so it gives the same tally, and the merged figures are those of a local run."""
    def merge(part: Tally) -> None:
        tally.merge(part)
        if progress is not None:
            progress(part.games)

    run_chunks(_play_chunk, setup, count, merge, workers=workers, cluster=cluster,
               stop=lambda: _enough_failures(setup, tally))


@dataclass
class Simulation:
    """The result of a batch: what was played, the tally, and how long it took."""

    setup: Setup
    name: str                 # the variant's name
    options_on: tuple[str, ...]
    count: int                # games (or rounds, in rounds mode) asked for
    tally: Tally
    elapsed: float = 0.0
    workers: int = 1
    teams: bool = False       # the variant seats partners: a seat wins when its team does

    @property
    def stopped_early(self) -> bool:
        """True if the run stopped at max_failures before playing every game."""
        return self.tally.games < self.count

    @property
    def label(self) -> str:
        return self.name + (f" + {', '.join(self.options_on)}" if self.options_on else "")

    @property
    def seat_agents(self) -> list[str]:
        """The agents around the table, as game 0 seats them (every game, with fixed seats)."""
        return list(self.setup.table)

    @property
    def seating_mode(self) -> str:
        """"rotating" (the table turns one seat per game) or "fixed"."""
        return "fixed" if self.setup.fixed_seats else "rotating"

    def figures(self) -> dict[str, Any]:
        """Every figure, JSON-ready (`unodsl simulate --json` prints these)."""
        return figures(self)


def default_players(variant: Variant) -> int:
    """The table size `unodsl run` uses: 4, or the nearest the variant allows."""
    return max(variant.min_players, min(4, variant.max_players))


def simulate(variant: str | Path | Variant, count: int, *, players: int | None = None,
             agents: Sequence[str] = ("greedy", "random"), seed: int = 0,
             options: Mapping[str, bool | int | str] | None = None, workers: int = 1, rounds_only: bool = False,
             max_turns: int = 5_000, fixed_seats: bool = False, max_failures: int | None = None,
             progress: Callable[[int], None] | None = None, agent_seed: int | None = None,
             cluster: Cluster | str | None = None) -> Simulation:
    """Play `count` games (or single rounds, with `rounds_only`) of a variant with bots.

    `agents` are cycled to fill the table, which turns one seat per game (see
    `seating`) unless `fixed_seats`, which keeps seat p with `agents[p % len(agents)]`.

    `variant` is a path, a shipped variant's name or a loaded Variant (with more
    than one worker it is loaded again from its file, with the same options).
    The agents of game i draw from their own generator, seeded with the game's seed,
    or (given `agent_seed`) with a seed derived from `agent_seed` and i.
    `workers` > 1 plays in that many spawned processes; 0 means one per CPU. The
    figures do not depend on `workers`. `progress(k)` is called as k more games end.
    `cluster` plays on a dask.distributed cluster instead (a `Cluster`, or an address
    or "local", connected to for this run): chunks of seeds are sent to its workers,
    and the figures are the same as a local run's.

    A game that fails (a runtime error of the variant, …) is counted, the first
    few are kept with their seed, error and a replay command, and the run goes
    on; after `max_failures` failed games it stops (the figures are then of the
    games played).
    """
    loaded, path = batch_variant(variant, options)
    chosen = {o.name: o.value for o in loaded.options}
    n = table_size(loaded, players)
    check_agents(agents)
    if count < 1:
        raise UnoDslError("play at least one game")
    if max_failures is not None and max_failures < 1:
        raise UnoDslError("max_failures must be at least 1")
    setup = Setup(path, tuple(sorted(chosen.items())), n, tuple(agents), seed, max_turns, rounds_only, fixed_seats,
                  max_failures, agent_seed)
    workers = (os.cpu_count() or 1) if workers == 0 else workers
    workers = max(1, min(workers, count))
    tally = Tally(n)
    start = time.perf_counter()
    if isinstance(cluster, str):
        with Cluster(cluster, workers=workers) as opened:
            return simulate(loaded, count, players=n, agents=agents, seed=seed, rounds_only=rounds_only,
                            max_turns=max_turns, fixed_seats=fixed_seats, max_failures=max_failures,
                            progress=progress, agent_seed=agent_seed, cluster=opened)
    if cluster is not None:
        workers = cluster.workers
        _play_batch(setup, count, workers, tally, progress, cluster)
    elif workers == 1:
        for index in range(count):
            play_one(loaded, setup, index, tally)
            if progress is not None:
                progress(1)
            if _enough_failures(setup, tally):
                break
    else:
        _play_batch(setup, count, workers, tally, progress)
    elapsed = time.perf_counter() - start
    on = tuple(o.label for o in loaded.options if o.is_set)
    return Simulation(setup, loaded.name, on, count, tally, elapsed, workers, loaded.teams is not None)


def batch_variant(variant: str | Path | Variant,
                  options: Mapping[str, bool | int | str] | None = None) -> tuple[Variant, str]:
    """The variant (a path, a shipped name, or a loaded Variant with its options) and the
    absolute path of its file, from which worker processes load it again."""
    if isinstance(variant, Variant):
        return variant, str(Path(variant.file).resolve())
    path = str(resolve(variant).resolve())
    return load_variant(path, options), path


def table_size(variant: Variant, players: int | None) -> int:
    """`players`, or the default table; an error if the variant does not allow it."""
    n = players if players is not None else default_players(variant)
    if not variant.min_players <= n <= variant.max_players:
        raise UnoDslError(f"{variant.name} is for {variant.min_players}–{variant.max_players} players, not {n}")
    return n


def check_agents(agents: Sequence[str]) -> None:
    """An error naming the agents there are, if `agents` is empty or names one that is not."""
    if not agents:
        raise UnoDslError(f"no agents given; agents: {', '.join(AGENTS)}")
    for agent in agents:
        try:
            parse_agent(agent)
        except AgentSpecError as err:
            raise UnoDslError(f"{err}; agents: {', '.join(AGENTS)}") from None


def describe(hist: Mapping[int, int], *, histogram: bool = False) -> dict[str, Any] | None:
    """Mean (95% t interval), sd, median (95% interval), p95, min and max of a histogram."""
    items = sorted_items(hist)
    n, mean, var = moments(hist)
    if n == 0:
        return None
    sd = math.sqrt(var) if n > 1 else 0.0
    half = t_quantile(0.975, n - 1) * sd / math.sqrt(n) if n > 1 else math.nan
    lo, hi = at_rank(items, (n + 1) // 2), at_rank(items, n // 2 + 1)
    out: dict[str, Any] = {
        "n": n, "mean": _r(mean), "ci95": [_r(mean - half), _r(mean + half)] if n > 1 else None,
        "sd": _r(sd), "median": (lo + hi) / 2 if lo != hi else lo, "median_ci95": quantile_ci(items, n, 0.5),
        "p95": quantile(items, n, 0.95), "min": items[0][0], "max": items[-1][0],
    }
    if histogram:
        out["histogram"] = [[v, c] for v, c in items]
    return out


def proportion(count: int, n: int) -> dict[str, Any]:
    """A proportion with its 95% Wilson score interval."""
    lo, hi = wilson(count, n)
    return {"count": count, "n": n, "rate": _r(count / n) if n else None,
            "ci95": [_r(lo), _r(hi)] if n else None}


def _r(x: float) -> float:
    return x if math.isnan(x) or math.isinf(x) else round(x, 6)


def seat_label(offset: int) -> str:
    """A seat counted from the dealer: "dealer", "dealer+1" (the next player), …"""
    return "dealer" if offset == 0 else f"dealer+{offset}"


def figures(sim: Simulation) -> dict[str, Any]:
    t = sim.tally
    s = sim.setup
    n = s.players
    rounds = t.rounds
    games_mode = not s.rounds_only
    out: dict[str, Any] = {
        "variant": {"name": sim.name, "file": s.variant, "options": list(sim.options_on)},
        "mode": "rounds" if s.rounds_only else "games",
        "count": sim.count, "players": n, "agents": sim.seat_agents, "seating": sim.seating_mode, "seed": s.seed,
        "teams": sim.teams,
        "agent_seed": s.agent_seed, "max_turns": s.max_turns,
        "games": {"started": t.games, "completed": t.completed if games_mode else None,
                  "abandoned": t.runaway if games_mode else None,
                  "tied": proportion(t.ties, t.completed) if games_mode else None},
        "failures": {"count": t.failed, "stopped_early": sim.stopped_early,
                     "games": [f.as_dict() for f in t.failures]},
        "rounds": {"completed": rounds, "runaway": proportion(t.runaway, rounds + t.runaway)},
        "rounds_per_game": describe(t.rounds_per_game) if games_mode else None,
        "turns_per_round": describe(t.turns_per_round, histogram=True),
        "points_per_round": describe(t.points_per_round),
        "reshuffles_per_round": describe(t.reshuffles_per_round),
        "rounds_with_reshuffle": proportion(rounds - t.reshuffles_per_round.get(0, 0), rounds),
    }
    out["wins"] = _wins(sim)
    total = sum(t.plays.values())
    kinds = {}
    for kind, count in sorted(t.plays.items(), key=lambda kv: (-kv[1], kv[0])):
        mean, var = _kind_moments(t, kind)
        half = t_quantile(0.975, rounds - 1) * math.sqrt(var / rounds) if rounds > 1 else 0.0
        kinds[kind] = {"count": count, "share": _r(count / total) if total else None,
                       "per_round": _r(mean) if rounds else None,
                       "per_round_ci95": [_r(mean - half), _r(mean + half)] if rounds > 1 else None}
    out["cards_played"] = {"total": total, "per_round": _r(total / rounds) if rounds else None, "by_kind": kinds}
    out["timing"] = {"seconds": round(sim.elapsed, 3), "workers": sim.workers,
                     "per_second": round(t.games / sim.elapsed, 1) if sim.elapsed else None,
                     "turns_per_second": round(t.turns_played / sim.elapsed) if sim.elapsed else None}
    return out


def _wins(sim: Simulation) -> dict[str, Any]:
    """Wins by seat (with its agent, when seats are fixed), from the dealer, and by agent."""
    t, n = sim.tally, sim.setup.players
    rounds = t.rounds
    agents: list[str | None] = list(sim.seat_agents) if sim.setup.fixed_seats else [None] * n
    wins: dict[str, Any] = {}
    if not sim.setup.rounds_only:
        wins["game_by_seat"] = [{"seat": p, "label": f"P{p + 1}", "agent": agents[p],
                                 **proportion(t.game_wins[p], t.completed)} for p in range(n)]
        wins["game_by_seat_from_first_dealer"] = [
            {"offset": k, "label": seat_label(k), **proportion(t.game_wins_from_dealer[k], t.completed)}
            for k in range(n)]
    wins["round_by_seat"] = [{"seat": p, "label": f"P{p + 1}", "agent": agents[p],
                              **proportion(t.round_wins[p], rounds)} for p in range(n)]
    wins["round_by_seat_from_dealer"] = [
        {"offset": k, "label": seat_label(k), **proportion(t.round_wins_from_dealer[k], rounds)}
        for k in range(n)]
    wins["by_agent"] = _by_agent(sim)
    return wins


def _by_agent(sim: Simulation) -> list[dict[str, Any]]:
    """Each agent's wins, tallied from who sat where in each game. The table only
    turns, so an agent holds the same number of seats in every game, and its fair
    share (its average share of the seats) is that number over the players."""
    t, n, names = sim.tally, sim.setup.players, sim.seat_agents
    rows = []
    for name in dict.fromkeys(names):
        seats = names.count(name)
        row: dict[str, Any] = {"agent": name, "seats": seats, "fair_share": _r(seats / n)}
        if not sim.setup.rounds_only:
            row["games"] = proportion(t.agent_game_wins[name], t.completed)
        row["rounds"] = proportion(t.agent_round_wins[name], t.rounds)
        rows.append(row)
    return rows


def _kind_moments(t: Tally, kind: str) -> tuple[float, float]:
    """Mean and variance of one card kind's plays per completed round."""
    n = t.rounds
    s, ss = t.plays.get(kind, 0), t.plays_sq.get(kind, 0)
    if n == 0:
        return math.nan, math.nan
    return s / n, max((ss * n - s * s) / (n * (n - 1)), 0.0) if n > 1 else math.nan


# --------------------------------------------------------------------------
# Tests


@dataclass
class TestResult:
    """One comparison of a figure between two runs."""

    metric: str
    test: str
    a: float | None
    b: float | None
    statistic: float | None
    p: float | None
    note: str = ""
    rate: bool = False  # a and b are proportions
    p_holm: float | None = None
    significant: bool = False

    def as_dict(self) -> dict[str, Any]:
        def num(x: float | None) -> float | None:
            return None if x is None or math.isnan(x) else _r(x)
        return {"metric": self.metric, "test": self.test, "a": num(self.a), "b": num(self.b),
                "statistic": num(self.statistic), "p": num(self.p), "p_holm": num(self.p_holm),
                "significant": self.significant, "note": self.note}


def holm(results: list[TestResult], alpha: float = ALPHA) -> None:
    """Holm–Bonferroni: set `p_holm` and `significant` on every test with a p-value."""
    tested = sorted((r for r in results if r.p is not None and not math.isnan(r.p)), key=lambda r: r.p or 0.0)
    m = len(tested)
    running = 0.0
    for i, r in enumerate(tested):
        assert r.p is not None
        running = max(running, min(1.0, (m - i) * r.p))
        r.p_holm = running
        r.significant = running < alpha


@dataclass
class Comparison:
    a: Simulation
    b: Simulation
    tests: list[TestResult]
    alpha: float = ALPHA

    @property
    def significant(self) -> list[TestResult]:
        return [t for t in self.tests if t.significant]

    def as_dict(self) -> dict[str, Any]:
        return {"alpha": self.alpha, "correction": "Holm–Bonferroni over all tests below",
                "tests": [t.as_dict() for t in self.tests]}


def compare(a: Simulation, b: Simulation, alpha: float = ALPHA) -> Comparison:
    """Test every figure two runs share; significance is at `alpha` after Holm's correction.

    The two runs are treated as independent samples (their games share seeds,
    but different rules make the games diverge from the first shuffle)."""
    ta, tb = a.tally, b.tally
    if a.setup.players != b.setup.players:
        raise UnoDslError("compare runs with the same number of players")
    games_mode = not a.setup.rounds_only and not b.setup.rounds_only
    tests: list[TestResult] = []

    def dist(metric: str, ha: Mapping[int, int], hb: Mapping[int, int], mw: bool = False) -> None:
        na, ma, _ = moments(ha)
        nb, mb, _ = moments(hb)
        t, df, p = welch_hist(ha, hb)
        tests.append(TestResult(f"{metric} (mean)", "Welch's t-test", ma, mb, t, _p(p),
                                f"df={df:.0f}" if math.isfinite(df) else ""))
        if mw:
            u, z, p = mann_whitney(ha, hb)
            effect = u / (na * nb) if na and nb else math.nan
            tests.append(TestResult(f"{metric} (distribution)", "Mann–Whitney U test", _median(ha), _median(hb),
                                    z, _p(p), f"P(A>B)+½P(A=B)={effect:.3f}" if math.isfinite(effect) else ""))

    if games_mode:
        dist("rounds per game", ta.rounds_per_game, tb.rounds_per_game)
    dist("turns per round", ta.turns_per_round, tb.turns_per_round, mw=True)
    dist("points per round", ta.points_per_round, tb.points_per_round)
    dist("reshuffles per round", ta.reshuffles_per_round, tb.reshuffles_per_round)
    ra, rb = ta.rounds + ta.runaway, tb.rounds + tb.runaway
    z, p = two_proportions(ta.runaway, ra, tb.runaway, rb)
    tests.append(TestResult("runaway rounds (rate)", "two-proportion z-test", _div(ta.runaway, ra),
                            _div(tb.runaway, rb), z, _p(p), rate=True))
    if games_mode:
        stat, df, p = chi_square(ta.game_wins, tb.game_wins)
        tests.append(TestResult("game wins by seat", "chi-square test of homogeneity", None, None, stat, _p(p),
                                f"df={df}"))
    stat, df, p = chi_square(ta.round_wins_from_dealer, tb.round_wins_from_dealer)
    tests.append(TestResult("round wins by seat from the dealer", "chi-square test of homogeneity", None, None,
                            stat, _p(p), f"df={df}"))
    tests += _agent_tests(a, b, games_mode)
    for kind in sorted(set(ta.plays) | set(tb.plays)):
        ma, va = _kind_moments(ta, kind)
        mb, vb = _kind_moments(tb, kind)
        t, wdf, p = welch(ma, va, ta.rounds, mb, vb, tb.rounds)
        tests.append(TestResult(f"{kind} plays per round", "Welch's t-test", ma, mb, t, _p(p),
                                f"df={wdf:.0f}" if math.isfinite(wdf) else ""))
    holm(tests, alpha)
    return Comparison(a, b, tests, alpha)


def _agent_tests(a: Simulation, b: Simulation, games_mode: bool) -> list[TestResult]:
    """Each agent's win rate, when both runs seated the same agents the same way."""
    names = a.seat_agents
    if names != b.seat_agents or a.seating_mode != b.seating_mode or len(set(names)) < 2:
        return []
    ta, tb = a.tally, b.tally
    wins_a, wins_b = (ta.agent_game_wins, tb.agent_game_wins) if games_mode else (ta.agent_round_wins,
                                                                                  tb.agent_round_wins)
    na, nb = (ta.completed, tb.completed) if games_mode else (ta.rounds, tb.rounds)
    tests = []
    for name in dict.fromkeys(names):
        wa, wb = wins_a[name], wins_b[name]
        z, p = two_proportions(wa, na, wb, nb)
        tests.append(TestResult(f"{name} wins ({'games' if games_mode else 'rounds'})", "two-proportion z-test",
                                _div(wa, na), _div(wb, nb), z, _p(p), rate=True))
    return tests


def _p(p: float) -> float | None:
    return None if math.isnan(p) else p


def _div(k: int, n: int) -> float | None:
    return k / n if n else None


def _median(hist: Mapping[int, int]) -> float | None:
    items = sorted_items(hist)
    n = sum(c for _, c in items)
    if n == 0:
        return None
    return (at_rank(items, (n + 1) // 2) + at_rank(items, n // 2 + 1)) / 2
