"""Simulations on a dask.distributed cluster (the [cluster] extra): the same figures as a
local run, for any number of workers, and no game lost when a worker dies."""

from __future__ import annotations

import faulthandler
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from unodsl.cli import main
from unodsl.tools import cluster as cluster_module
from unodsl.tools.cluster import Cluster, ClusterUnavailable
from unodsl.tools.simulate import simulate
from unodsl.tools.simulation import Simulation
from unodsl.tools.sweep import Grid, sweep

ROOT = Path(__file__).resolve().parents[2]
CLASSIC = ROOT / "variants" / "classic.yaml"
STACKING = ROOT / "variants" / "house" / "draw_two_stacking.yaml"


def figures(sim: Simulation) -> dict[str, Any]:
    return {k: v for k, v in sim.figures().items() if k != "timing"}


def test_without_dask_the_cli_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = cluster_module.importlib.import_module

    def no_distributed(name: str, *args: Any) -> Any:
        if name == "distributed":
            raise ImportError("No module named 'distributed'")
        return real(name, *args)

    monkeypatch.setattr(cluster_module.importlib, "import_module", no_distributed)
    with pytest.raises(ClusterUnavailable, match=r"pip install '.\[cluster\]'"):
        Cluster("local")
    for command in ("simulate", "sweep"):
        result = CliRunner().invoke(main, [command, "classic", "--rounds", "2", "--cluster", "local"])
        assert result.exit_code == 1 and "pip install" in result.output and "Traceback" not in result.output


distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def processes() -> Iterator[Cluster]:
    """A LocalCluster of 2 worker processes."""
    with Cluster("local", workers=2) as c:
        yield c


@pytest.fixture(scope="module")
def threads() -> Iterator[Cluster]:
    """A scheduler with 3 single-thread workers in this process, reached by its address."""
    with (distributed.LocalCluster(n_workers=3, threads_per_worker=1, processes=False,
                                   dashboard_address=None) as lc, Cluster(lc.scheduler_address) as c):
        yield c


def test_a_cluster_run_gives_the_figures_of_a_local_run(threads: Cluster) -> None:
    kw: dict[str, Any] = {"players": 3, "agents": ["greedy", "random"], "seed": 7, "agent_seed": 3}
    assert threads.workers == 3
    on_three = simulate(CLASSIC, 12, cluster=threads, **kw)
    assert figures(on_three) == figures(simulate(CLASSIC, 12, **kw))
    assert on_three.workers == 3 and on_three.tally.games == 12
    rounds = simulate(STACKING, 90, rounds_only=True, cluster=threads, seed=2)
    assert figures(rounds) == figures(simulate(STACKING, 90, rounds_only=True, seed=2))


@pytest.mark.slow
def test_worker_processes_give_the_figures_of_a_local_run(processes: Cluster, threads: Cluster) -> None:
    kw: dict[str, Any] = {"players": 3, "agents": ["greedy", "random"], "seed": 7, "agent_seed": 3}
    assert processes.workers == 2
    on_two = simulate(CLASSIC, 30, cluster=processes, **kw)
    assert figures(on_two) == figures(simulate(CLASSIC, 30, cluster=threads, **kw)) == figures(
        simulate(CLASSIC, 30, **kw))
    assert on_two.workers == 2


def test_a_sweep_on_a_cluster_gives_the_local_figures(threads: Cluster) -> None:
    grid = Grid((str(CLASSIC), str(STACKING)), (2, 3), (("greedy", "random"),))
    here = sweep(grid, 30, seed=1, rounds_only=True).figures()
    there = sweep(grid, 30, seed=1, rounds_only=True, cluster=threads).figures()
    for f in (here, there):
        for cell in f["cells"]:
            del cell["figures"]["timing"]
    assert here == there


def test_failed_games_on_a_worker_are_reported_with_their_seeds(tmp_path: Path, threads: Cluster) -> None:
    from tests.unit.test_simulate import faulty
    path = faulty(tmp_path)
    local = simulate(path, 12, players=2, agents=["greedy"], seed=5, rounds_only=True)
    remote = simulate(path, 12, players=2, agents=["greedy"], seed=5, rounds_only=True, cluster=threads)
    assert remote.tally.failed > 0
    assert figures(remote)["failures"] == figures(local)["failures"]


@pytest.mark.slow
def test_the_cli_on_a_local_cluster() -> None:
    args = ["simulate", "classic", "--rounds", "20", "-p", "3", "-s", "4", "--json"]
    here = json.loads(CliRunner().invoke(main, args).output)
    result = CliRunner().invoke(main, [*args, "--cluster", "local", "-w", "1"])
    assert result.exit_code == 0, result.output
    there = json.loads(result.output)
    assert there.pop("timing")["workers"] == 1
    here.pop("timing")
    assert here == there


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", 1.0)
    result = CliRunner().invoke(main, ["simulate", "classic", "--rounds", "2", "--cluster", "tcp://127.0.0.1:9"])
    assert result.exit_code == 1
    assert "cannot reach the dask scheduler at tcp://127.0.0.1:9" in result.output


@pytest.mark.slow
def test_killing_a_worker_mid_run_loses_no_game() -> None:
    """One of 2 worker processes is killed (SIGKILL) as the first chunk comes back, with
    chunks in flight on both; its nanny starts it again, the scheduler plays its chunks
    again, and the run ends with every game counted once and the local figures."""
    faulthandler.dump_traceback_later(600, exit=True)  # a hang fails the run instead of blocking CI
    try:
        count = 1_500
        kw: dict[str, Any] = {"players": 4, "agents": ["greedy", "random"], "seed": 11, "rounds_only": True}
        with Cluster("local", workers=2) as c:
            before = c.worker_pids()
            assert len(before) == 2
            victim = sorted(before.values())[0]
            killed: list[int] = []

            def kill_once(k: int) -> None:
                if not killed:
                    os.kill(victim, signal.SIGKILL)
                    killed.append(victim)

            remote = simulate(CLASSIC, count, cluster=c, progress=kill_once, **kw)
            after = c.worker_pids()
        assert killed and victim not in after.values()  # the worker really died
        assert remote.tally.games == count
        assert figures(remote) == figures(simulate(CLASSIC, count, **kw))
    finally:
        faulthandler.cancel_dump_traceback_later()


def _lab(**kw: Any) -> dict[str, Any]:
    from unodsl.tools.analyze import Budget, analyze, report
    a = analyze(CLASSIC, players=3, agents=["greedy", "random"], seed=5,
                budget=Budget(rounds=30, games=3, power=6, train=20), **kw)
    doc = report(a)
    doc.pop("timing")
    return doc


def test_the_balance_lab_on_a_local_cluster_gives_the_local_figures(threads: Cluster) -> None:
    assert _lab(cluster=threads) == _lab()


@pytest.mark.slow
def test_the_balance_lab_on_worker_processes_of_a_local_cluster(processes: Cluster) -> None:
    assert _lab(cluster=processes) == _lab(workers=1)
