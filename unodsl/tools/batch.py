"""Run a seeded batch in chunks: in this process, in spawned worker processes, or on a
dask cluster, merging each chunk's result as it ends.

A batch is a picklable top-level function `fn(job, start, stop)` that plays the
items `start`…`stop - 1` of a job and returns a result that merges into the
caller's total (`merge(part)`). The items are seeded by their index, and the
results are counters, so the total is the same for any number of workers and on
a cluster, whatever order the chunks end in. `simulate.py` and the balance lab
(`tools/analyze/`) both run their batches here.
"""

from __future__ import annotations

import itertools
import math
import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from ..errors import UnoDslError
from .cluster import Cluster

T = TypeVar("T")
Chunk = Callable[[Any, int, int], T]


class WorkerError(UnoDslError):
    """A worker process could not start or died."""


class Executor(Protocol):
    """Where chunks run besides this process: a dask Cluster (cluster.py) or a Pool."""

    @property
    def workers(self) -> int: ...

    def map_unordered(self, fn: Callable[..., Any], calls: Iterable[tuple[Any, ...]], in_flight: int,
                      stop: Callable[[], bool] = ...) -> Iterator[Any]: ...


class Pool:
    """Worker processes kept for many batches (a tuner runs hundreds of short ones, and
    starting processes for each would cost more than playing). Use it as a context manager;
    it runs chunks as a Cluster does, so `run_chunks(..., cluster=pool)` plays on it."""

    def __init__(self, workers: int) -> None:
        self._workers = max(1, workers)
        ctx = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(self._workers, mp_context=ctx, initializer=ignore_interrupts)

    @property
    def workers(self) -> int:
        return self._workers

    def map_unordered(self, fn: Callable[..., Any], calls: Iterable[tuple[Any, ...]], in_flight: int,
                      stop: Callable[[], bool] = lambda: False) -> Iterator[Any]:
        todo = iter(calls)
        pending: set[Future[Any]] = set()
        try:
            while True:
                for args in itertools.islice(todo, in_flight - len(pending)):
                    pending.add(self._pool.submit(fn, *args))
                if not pending:
                    return
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
                if stop():
                    return
        except BrokenProcessPool as err:
            raise WorkerError("a worker process could not start or died; worker processes are spawned, so "
                              "a script that plays must guard its main code with "
                              "`if __name__ == \"__main__\":` (or use one worker)") from err
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is KeyboardInterrupt:
            stop_workers(self._pool)
        self.close()


def chunks(count: int, workers: int, most: int = 50) -> Iterator[tuple[int, int]]:
    """The (start, stop) ranges a batch of `count` items is cut into: about 20 per worker,
    at most `most` items each."""
    size = max(1, min(most, math.ceil(count / (workers * 20))))
    return ((start, min(start + size, count)) for start in range(0, count, size))


def run_chunks(fn: Chunk[T], job: Any, count: int, merge: Callable[[T], None], *, workers: int = 1,
               cluster: Cluster | Executor | None = None, stop: Callable[[], bool] = lambda: False,
               most: int = 50) -> None:
    """`merge(fn(job, start, stop))` for every chunk of the `count` items, until `stop()`
    turns true: in this process (`workers` 1), in that many spawned processes, or on
    `cluster` (a few chunks in flight per worker, so neither the queue nor the finished
    results grow with the batch)."""
    if cluster is not None:
        inflight = 4 * cluster.workers
        calls = ((job, a, b) for a, b in chunks(count, cluster.workers, most))
        for part in cluster.map_unordered(fn, calls, inflight, stop):
            merge(part)
        return
    if workers <= 1:
        for a, b in chunks(count, 1, most):
            merge(fn(job, a, b))
            if stop():
                return
        return
    _in_processes(fn, job, count, merge, workers, stop, most)


def ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the worker processes now rather than after their current chunk."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def _in_processes(fn: Chunk[T], job: Any, count: int, merge: Callable[[T], None], workers: int,
                  stop: Callable[[], bool], most: int) -> None:
    todo = chunks(count, workers, most)
    ctx = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=ignore_interrupts)
    try:
        pending: set[Future[T]] = set()
        while True:
            for a, b in itertools.islice(todo, 4 * workers - len(pending)):
                pending.add(pool.submit(fn, job, a, b))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                merge(future.result())
            if stop():
                for future in pending:
                    future.cancel()
                break
    except KeyboardInterrupt:
        stop_workers(pool)
        raise
    except BrokenProcessPool as err:
        raise WorkerError("a worker process could not start or died; worker processes are spawned, so "
                          "a script that simulates must guard its main code with "
                          "`if __name__ == \"__main__\":` (or use one worker)") from err
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
