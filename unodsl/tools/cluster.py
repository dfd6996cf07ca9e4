"""Run picklable calls on a dask.distributed cluster (the optional [cluster] extra).

`Cluster("tcp://host:8786")` connects to a running scheduler; `Cluster("local")`
starts a LocalCluster of worker processes on this machine. `map_unordered`
keeps a bounded number of calls in flight and yields their results as they
end. A worker that dies takes its running calls with it and the scheduler runs
them again elsewhere (dask's own recovery), so every call's result arrives
exactly once; the callers play seeded games, so a call run again gives the
same result.

Knows nothing about games: `simulate.py` sends it chunks of seeds.
"""

from __future__ import annotations

import importlib
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from types import TracebackType
from typing import Any

from ..errors import UnoDslError

LOCAL = "local"
CONNECT_TIMEOUT = 20.0  # seconds to reach a scheduler


class ClusterUnavailable(UnoDslError):
    """dask.distributed is not installed."""


class ClusterError(UnoDslError):
    """The cluster cannot be reached, or a call failed on it."""


def _distributed() -> Any:
    try:
        return importlib.import_module("distributed")
    except ImportError as err:
        raise ClusterUnavailable("--cluster needs dask.distributed: pip install 'dask[distributed]' (or, in a "
                                 "checkout of unodsl, pip install '.[cluster]')") from err


def check_cluster() -> None:
    """Raise ClusterUnavailable, with what to install, if there is no dask.distributed."""
    _distributed()


class Cluster:
    """A client of a dask scheduler; with "local", of a LocalCluster it starts and stops.

    Use it as a context manager, or call `close()`.
    """

    def __init__(self, address: str, *, workers: int = 0, timeout: float | None = None) -> None:
        """`workers` is the LocalCluster's number of worker processes (0: one per CPU)."""
        distributed = _distributed()
        self.address = address
        self._local: Any = None
        timeout = CONNECT_TIMEOUT if timeout is None else timeout
        try:
            if address == LOCAL:
                self._local = distributed.LocalCluster(
                    n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.ERROR)
                self.client = distributed.Client(self._local, timeout=timeout)
            else:
                self.client = distributed.Client(address, timeout=timeout)
        except (OSError, TimeoutError, ValueError) as err:
            self.close()
            raise ClusterError(f"cannot reach the dask scheduler at {address}: {err}") from err

    @property
    def workers(self) -> int:
        """The threads the cluster's workers run calls on (at least 1)."""
        info = self.client.scheduler_info(n_workers=-1)["workers"]
        return max(1, sum(int(w.get("nthreads", 1)) for w in info.values()))

    def worker_pids(self) -> dict[str, int]:
        """Each worker's address and process id (a test kills one)."""
        return dict(self.client.run(os.getpid))

    def map_unordered(self, fn: Callable[..., Any], calls: Iterable[tuple[Any, ...]], in_flight: int,
                      stop: Callable[[], bool] = lambda: False) -> Iterator[Any]:
        """`fn(*args)` for each args of `calls`, at most `in_flight` at a time, results in the
        order they end; after `stop()` turns true, nothing more is sent and what is running
        is cancelled. A call that raises stops the run with a ClusterError."""
        distributed = _distributed()
        pending = iter(calls)
        running = distributed.as_completed()
        live: set[Any] = set()

        def send(k: int) -> None:
            for args in _take(pending, k):
                future = self.client.submit(fn, *args, pure=False)
                live.add(future)
                running.add(future)

        send(in_flight)
        try:
            for future in running:
                live.discard(future)
                try:
                    result = future.result()
                except distributed.client.FutureCancelledError:
                    continue
                except Exception as err:
                    raise ClusterError(f"a batch failed on the cluster: {type(err).__name__}: {err}") from err
                finally:
                    future.release()
                yield result
                if stop():
                    break
                send(1)
        finally:
            if live:
                self.client.cancel(list(live))

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self._local is not None:
            self._local.close()
            self._local = None

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _take(it: Iterator[tuple[Any, ...]], k: int) -> list[tuple[Any, ...]]:
    out = []
    for _ in range(k):
        try:
            out.append(next(it))
        except StopIteration:
            break
    return out
