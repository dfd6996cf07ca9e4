"""Batch simulation: play many games of a variant with bots into a streaming tally.

    sim = simulate("house.yaml", 1_000, players=4, agents=["greedy", "random"], seed=1)
    print(sim.figures()["turns_per_round"]["median"])
    other = simulate("house.yaml", 1_000, players=4, seed=1, options={"stacking": True})
    for test in compare(sim, other).tests:
        print(test.metric, test.test, test.p_holm, test.significant)

Which seeds and seats the games get is in `seating.py`, what is counted in
`tally.py`, the figures in `simulation.py`, the tests between two runs
(`compare`) in `comparison.py`.
"""

from __future__ import annotations

import os
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
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
from .seating import Setup, agents_seed, game_seed, seating
from .simulation import Simulation
from .tally import KEPT_FAILURES, Failure, Recorder, Tally

SimulationError = WorkerError  # a worker process could not start or died (the name simulate used)


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
    recorder = Recorder(tally, seats)
    listeners: list[Any] = [recorder]
    events: tuple[str, ...] = Recorder.EVENTS
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
    tally.rounds_per_game[game.round] = tally.rounds_per_game.get(game.round, 0) + 1
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
