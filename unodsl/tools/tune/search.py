"""`tune()`: search the declared space for a candidate that meets the designer's targets.

Optuna (the [tune] extra) proposes candidates: TPE for one target, NSGA-II for several
(one objective per target, minimised: how far outside its bound, negative inside, or the
goal's value). It runs ask-and-tell in this one process, one candidate at a time, with a
sampler seeded anew for every trial from the run's seed and the trial's number, so the
proposals depend only on the seed and the trials before: the same seed gives the same
candidates, the same figures and the same winner with one worker, several, or a dask
cluster (the workers only play each candidate's rounds, which are seeded by index), and
a run resumed after an interruption goes on as if it had never stopped.

Every trial is kept in Optuna's storage with its figures, verdicts and overlay text, as
it ends: an interrupted run keeps what it tried, and running the same command again
resumes the study. The storage is a SQLite file in the user's cache folder
(`$XDG_CACHE_HOME/unodsl/tune.db`, else `~/.cache/unodsl/tune.db`) unless `storage`
names another file or a database URL: a run leaves nothing in the folder it runs in.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import logging
import os
import tempfile
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import VariantError
from ...model import Target, Tunable
from ...variant.load import load_variant
from ...variant.source import CONTROL  # what variant text may not hold (an extends: included)
from ..analyze.lab import Runner
from ..batch import Pool
from ..cluster import Cluster
from ..seating import game_seed
from ..simulate import check_agents, table_size
from . import words
from .evaluate import Effort, Measured, evaluate
from .rank import advice, best, meets
from .space import Base, TuneError, base, candidate_file, overlay, parse_vary, size, with_vary
from .trial import Trial

REPEATS = 4  # proposals per distinct candidate at most (a small space is soon tried through)
CHECK_STREAM = -4  # the master seed of the check on fresh seeds: game_seed(seed, -4)
STORED = 2  # the version of what a trial keeps (2: the verdicts meets/misses/unsettled): an older study is not resumed


def optuna() -> Any:
    """The optuna module, or a TuneError saying what to install."""
    try:
        module = importlib.import_module("optuna")
    except ImportError as err:
        raise TuneError("unodsl tune needs Optuna: pip install 'optuna>=4' (or, in a checkout of unodsl, "
                        "pip install '.[tune]')") from err
    module.logging.set_verbosity(logging.WARNING)
    warnings.filterwarnings("ignore", category=module.exceptions.ExperimentalWarning)
    return module


@dataclass
class Tuned:
    """A tuning run: the trials, the winner, the Pareto front, the winner checked on fresh
    seeds, and what that check made of it: `outcome` "meets" (every target met on fresh
    seeds, or on the search's seeds without the check) or "closest" (the best found, not
    good enough), with `advice` on what to try."""

    variant: str
    targets: tuple[Target, ...]
    space: tuple[Tunable, ...]
    seed: int
    players: int
    agents: tuple[str, ...]
    effort: Effort
    trials: list[Trial]
    winner: Trial | None
    front: list[Trial]
    check: dict[str, Any] | None
    storage: str                  # where the trials are kept: the SQLite file's path, or the database URL
    study: str
    sampler: str
    elapsed: float = 0.0
    resumed: int = 0              # trials found in the storage when the run started
    written: str | None = None    # where the winner's overlay was written
    written_text: str = ""        # … and what
    name: str = ""                # the variant's name (text from its file)
    outcome: str | None = None    # "meets" or "closest" (None: no candidate played)
    advice: list[str] = dataclasses.field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        def trial(t: Trial) -> dict[str, Any]:
            return {"trial": t.number + 1, "values": t.values, "state": t.state, **t.result}

        return {
            "variant": self.variant, "name": self.name, "players": self.players, "agents": list(self.agents),
            "seed": self.seed,
            "sampler": self.sampler, "storage": self.storage, "study": self.study,
            "targets": [{"figure": t.figure, "target": text, "min": t.min, "max": t.max, "goal": t.goal}
                        for t, text in zip(self.targets, words.target_texts(self.targets, self.trials), strict=True)],
            "space": [{"name": t.name, "kind": t.kind, "changes": t.target, "lo": t.lo, "hi": t.hi}
                      for t in self.space],
            "effort": {"step": self.effort.step, "most": self.effort.most},
            "trials": [trial(t) for t in self.trials],
            "winner": None if self.winner is None else trial(self.winner),
            "front": [t.number + 1 for t in self.front],
            "check": self.check, "outcome": self.outcome, "advice": self.advice, "written": self.written,
            "overlay": self.written_text or None,
            "resumed": self.resumed,
            "elapsed": round(self.elapsed, 3),
        }


Progress = Callable[[Trial, int, int], None]  # told of each trial as it ends: distinct candidates so far, of how many


def tune(variant: str | Path, *, trials: int = 30, players: int | None = None, agents: Sequence[str] = ("greedy",),
         seed: int = 0, options: Mapping[str, bool | int | str] | None = None, vary: Sequence[str] = (),
         effort: Effort | None = None, workers: int = 1, cluster: str | None = None,
         storage: str | Path | None = None, check: bool = True, progress: Progress | None = None,
         output: Path | None = None, force: bool = False) -> Tuned:
    """Tune `variant` (a path or a shipped name) toward the targets of its `design:` section,
    changing only what `design: vary:` (or `vary`, as `--vary NAME=LO..HI`) declares. The
    winner's overlay is written (if `output` is given, and some candidate played) at `output`
    if it meets every target on fresh seeds, else at `closest_name(output)`; an existing
    file is replaced only with `force`. The trials are kept in `storage` (see `stored`)."""
    opt = optuna()
    effort = effort or Effort()
    if trials < 1:
        raise TuneError("try at least one candidate (--trials)")
    if effort.step < 1 or effort.most < effort.step:
        raise TuneError(f"a candidate plays {effort.step} rounds a step and at most {effort.most}: the step must "
                        "be at least 1 and at most the budget (--step, --rounds)")
    check_agents(agents)
    options = dict(options or {})
    with tempfile.TemporaryDirectory(prefix="unodsl-tune-") as tmp:
        folder = Path(tmp)
        loaded = with_vary(variant, options, parse_vary(vary), folder) if vary else load_variant(variant, options)
        b = base(variant, loaded)
        targets, space = loaded.targets, loaded.vary
        where = f"{b.path}"
        if b.shipped is None and CONTROL.search(str(b.path)):
            raise TuneError(f"{where}: its name holds a control character, which a candidate's extends: cannot "
                            "name (variant text is printable): rename the file")
        if not targets:
            raise TuneError(f"{where}: no targets: give them under design: (for example first_seat_advantage: "
                            "{max: 0.02}; see unodsl explain design)")
        if not space:
            raise TuneError(f"{where}: nothing to vary: declare it under design: vary: (for example hand_size: "
                            "[5, 9]) or with --vary NAME=LO..HI")
        if size(space) < 2:
            raise TuneError(f"{where}: the space holds one candidate ({', '.join(f'{t.name} {t.lo}' for t in space)})"
                            ": widen a range")
        if any(t.figure.startswith("skill") for t in targets):
            raise TuneError("a target on the skill ladder (skill…) is not tunable: the ladder costs minutes per "
                            "candidate; analyse it with unodsl analyze --ladder")
        if output is not None:
            writable(b, output, force)
        url, place = stored(storage)
        n = table_size(loaded, players)
        fixed = {o.name: o.value for o in loaded.options if o.name in options}
        allow = (str(b.path.parent),)
        header = [f"Tuned by unodsl tune: {len(targets)} target(s), seed {seed}, {n} players."]
        run = Run(opt, b, tuple(targets), tuple(space), n, tuple(agents), seed, effort, fixed, folder, allow, header)
        start = time.perf_counter()
        if cluster is not None:
            with Cluster(cluster, workers=workers) as opened:
                result = run.search(Runner(1, opened, None), url, trials, check, progress)
        elif workers != 1:
            with Pool(workers or os.cpu_count() or 1) as pool:
                result = run.search(Runner(1, pool, None), url, trials, check, progress)
        else:
            result = run.search(Runner(1, None, None), url, trials, check, progress)
        result.elapsed = time.perf_counter() - start
        result.storage = place
        if result.winner is not None:
            judged = (result.check or result.winner.result)["judged"]
            result.outcome = "meets" if meets(judged) else "closest"
            tried = sum("same_as" not in t.result for t in result.trials) >= size(space)
            result.advice = [] if result.outcome == "meets" else advice(judged, space_tried=tried)
            if output is not None:
                path = output if result.outcome == "meets" else closest_name(output)
                result.written_text = run.write(result.winner, path, result.outcome == "closest")
                result.written = str(path)
        return result


def closest_name(output: Path) -> Path:
    """Where a winner that is only the closest found is written: `NAME.closest.yaml` for
    `NAME.tuned.yaml` (or `NAME.yaml`), in the same folder."""
    stem = output.stem.removesuffix(".tuned")
    return output.with_name(f"{stem}.closest{output.suffix}")


def default_storage() -> Path:
    """The trials' SQLite file when no storage is named: `unodsl/tune.db` in the user's cache
    folder (`$XDG_CACHE_HOME` if it is set to an absolute path, else `~/.cache`)."""
    cache = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(cache) if cache and Path(cache).is_absolute() else Path.home() / ".cache"
    return root / "unodsl" / "tune.db"


def stored(storage: str | Path | None) -> tuple[str, str]:
    """Optuna's URL for `storage` (a database URL, a SQLite file, or None: `default_storage()`),
    and where the trials are, as a user reads it (the file's absolute path, or the URL). The
    default file's folder is made; another file's folder must exist."""
    if isinstance(storage, str) and "://" in storage:
        return storage, storage
    path = (default_storage() if storage is None else Path(storage)).expanduser().resolve()
    if storage is None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise TuneError(f"cannot make the cache folder {path.parent} for the trials ({err.strerror or err}): "
                            "name a file with --storage") from err
    elif not path.parent.is_dir():
        raise TuneError(f"--storage {storage}: there is no folder {path.parent}")
    elif path.is_dir():
        raise TuneError(f"--storage {storage}: is a folder; name a file (tune.db) or a database URL")
    return f"sqlite:///{path}", str(path)


def writable(b: Base, output: Path, force: bool = False) -> None:
    """Refuse, before anything is played, an output whose overlay could not load its base, or
    (without `force`) a file that exists where the winner would be written."""
    folder = output.resolve().parent
    if not folder.is_dir():
        raise TuneError(f"--output {output}: there is no folder {folder}")
    if output.suffix not in (".yaml", ".yml"):
        raise TuneError(f"--output {output}: a variant file ends in .yaml")
    if b.shipped is None and not b.path.is_relative_to(folder):
        raise TuneError(f"--output {output}: the overlay extends {b.path}, which must be in its folder or below "
                        f"it (a variant builds only on files there, and on shipped variants)",
                        )
    if force:
        return
    for path, what in ((output, "its winner there"),
                       (closest_name(output), "the closest candidate there when the winner does not meet every "
                                              "target")):
        if path.exists():
            raise TuneError(f"{path} exists (tune writes {what}): pass --force to replace it, or choose another "
                            "--output")


@dataclass
class Run:
    """The set-up of one tuning run, and the search."""

    opt: Any
    base: Base
    targets: tuple[Target, ...]
    space: tuple[Tunable, ...]
    players: int
    agents: tuple[str, ...]
    seed: int
    effort: Effort
    fixed: dict[str, bool | int]
    folder: Path
    allow: tuple[str, ...]
    header: list[str]

    @property
    def sampler_name(self) -> str:
        return "TPE" if len(self.targets) == 1 else "NSGA-II"

    def study_name(self) -> str:
        """The study's name: the variant, its text, and everything that shapes the search."""
        text = self.base.path.read_bytes()
        key = json.dumps({"file": str(self.base.path), "text": hashlib.sha256(text).hexdigest(),
                          "targets": [dataclasses.asdict(t) for t in self.targets],
                          "space": [repr(t) for t in self.space], "players": self.players, "agents": self.agents,
                          "seed": self.seed, "effort": repr(self.effort), "fixed": sorted(self.fixed.items()),
                          "stored": STORED},
                         sort_keys=True, default=repr)
        stem = self.base.shipped or self.base.path.stem
        return f"{stem}-{hashlib.sha256(key.encode()).hexdigest()[:12]}"

    def sampler(self, trials: int, number: int) -> Any:
        """A sampler seeded for trial `number` alone (see the module's docstring)."""
        s = self.opt.samplers
        seed = game_seed(self.seed, 1_000_000 + number) % 2**32
        if len(self.targets) == 1:
            return s.TPESampler(seed=seed, n_startup_trials=min(10, max(3, trials // 3)))
        return s.NSGAIISampler(seed=seed, population_size=min(50, max(4, trials // 4)))

    def distributions(self) -> dict[str, Any]:
        d = self.opt.distributions
        return {t.name: d.IntDistribution(t.lo, t.hi) for t in self.space}

    def search(self, runner: Runner, url: str, trials: int, check: bool, progress: Progress | None) -> Tuned:
        opt = self.opt
        name = self.study_name()
        directions = ["minimize"] * len(self.targets)
        study = opt.create_study(storage=url, study_name=name, directions=directions, load_if_exists=True)
        states = opt.trial.TrialState
        kept = [t for t in study.get_trials(deepcopy=False) if t.state in (states.COMPLETE, states.FAIL)]
        resumed = len(kept)
        seen: dict[tuple[int, ...], Any] = {}
        for t in kept:
            seen.setdefault(self.key(t.params), t)
        distributions = self.distributions()
        for old in study.get_trials(deepcopy=False, states=(states.RUNNING, states.WAITING)):
            self.finish(study, opt.trial.Trial(study, old._trial_id), dict(old.params), seen, runner)
        # `trials` distinct candidates: a proposal already tried is told its result again (the
        # sampler learns from it) but not counted, up to REPEATS proposals per candidate asked for.
        limit = min(trials, size(self.space))
        while len(seen) < limit and len(study.get_trials(deepcopy=False)) < REPEATS * trials:
            number = len(study.get_trials(deepcopy=False))
            study.sampler = self.sampler(trials, number)
            trial = study.ask(distributions)
            done = self.finish(study, trial, dict(trial.params), seen, runner)
            if progress is not None:
                progress(done, len(seen), limit)
        records = [self.record(t) for t in study.get_trials(deepcopy=False) if t.state in (states.COMPLETE,
                                                                                           states.FAIL)]
        records.sort(key=lambda r: r.number)
        winner = best(records)
        front_numbers = {t.number for t in study.best_trials} if len(self.targets) > 1 else set()
        front = [r for r in records if r.number in front_numbers and "same_as" not in r.result]  # each once
        checked = self.check(winner, runner) if check and winner is not None else None
        return Tuned(self.base.shipped or str(self.base.path), self.targets, self.space, self.seed, self.players,
                     self.agents, self.effort, records, winner, front, checked, str(url), name, self.sampler_name,
                     resumed=resumed, name=self.base.variant.name)

    def key(self, params: Mapping[str, Any]) -> tuple[int, ...]:
        return tuple(int(params[t.name]) for t in self.space)

    def text(self, values: Mapping[str, int], where: Path) -> str:
        return overlay(self.base, self.space, values, self.fixed, where, self.header)

    def finish(self, study: Any, trial: Any, params: dict[str, Any], seen: dict[tuple[int, ...], Any],
               runner: Runner) -> Trial:
        """Evaluate a trial's candidate (or reuse a trial of the same values) and tell the study."""
        states = self.opt.trial.TrialState
        values = {t.name: int(params[t.name]) for t in self.space}
        again = seen.get(self.key(values))
        if again is not None:
            result = dict(again.user_attrs.get("result", {}))
            result["same_as"] = again.number + 1  # counted from 1, as the progress lines count
            trial.set_user_attr("result", result)
            trial.set_user_attr("overlay", again.user_attrs.get("overlay", ""))
            if again.state == states.COMPLETE:
                study.tell(trial, list(again.values))
            else:
                study.tell(trial, state=states.FAIL)
            return self.record(study.get_trials(deepcopy=False)[trial.number])
        text = self.text(values, self.folder)
        trial.set_user_attr("overlay", text)
        try:
            path = candidate_file(text, self.folder)
            measured = evaluate(path, self.targets, players=self.players, agents=self.agents, seed=self.seed,
                                effort=self.effort, runner=runner, allow=self.allow)
        except Exception as err:  # a candidate that does not load or play is a failed trial; the search goes on
            trial.set_user_attr("result", {"error": _error(err)})
            study.tell(trial, state=states.FAIL)
        else:
            trial.set_user_attr("result", summary(measured))
            objectives = [j.objective for j in measured.judged]
            if any(o is None for o in objectives):
                study.tell(trial, state=states.FAIL)
            else:
                study.tell(trial, [float(o) for o in objectives if o is not None])
        frozen = study.get_trials(deepcopy=False)[trial.number]
        seen.setdefault(self.key(values), frozen)
        return self.record(frozen)

    def record(self, t: Any) -> Trial:
        states = self.opt.trial.TrialState
        complete = t.state == states.COMPLETE
        return Trial(t.number, {k: int(v) for k, v in t.params.items()}, "complete" if complete else "failed",
                     dict(t.user_attrs.get("result", {})), list(t.values) if complete else None,
                     str(t.user_attrs.get("overlay", "")))

    def check(self, winner: Trial, runner: Runner) -> dict[str, Any]:
        """The winner played again on fresh seeds, with the whole budget: does it still meet the targets?"""
        path = candidate_file(self.text(winner.values, self.folder), self.folder)
        fresh = game_seed(self.seed, CHECK_STREAM)
        effort = Effort(self.effort.most, self.effort.most, self.effort.train, self.effort.max_turns)
        measured = evaluate(path, self.targets, players=self.players, agents=self.agents, seed=fresh, effort=effort,
                            runner=runner, allow=self.allow)
        return {"seed": fresh, **summary(measured)}

    def write(self, winner: Trial, output: Path, closest: bool) -> str:
        """The winner's overlay, written at `output` (its `extends:` relative to it), its first
        lines saying, when it is only the closest found, that it is no result."""
        text = self.text(winner.values, output.parent.resolve())
        if closest:
            text = (f"# The closest candidate found (trial {winner.number + 1}), not a result: it does not meet "
                    "every target.\n" + text)
        output.write_text(text, encoding="utf-8")
        return text


def summary(m: Measured) -> dict[str, Any]:
    return {"judged": [j.as_dict() for j in m.judged], "rounds": m.rounds, "games": m.games, "meets": m.meets,
            "meets_by_value": m.meets_by_value}


def _error(err: Exception) -> str:
    if isinstance(err, VariantError):
        return "; ".join(d.message for d in err.diagnostics[:3])
    return f"{type(err).__name__}: {err}" if not isinstance(err, TuneError) else str(err)


