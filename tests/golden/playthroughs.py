"""Golden playthroughs, as OpenSpiel keeps them: a readable trace of seeded games of every
shipped variant and house rule — every decision put (with its options) and every event —
committed under tests/golden/playthroughs/ and diffed line by line by the test suite, so a
change that alters games shows up in review.

    python -m tests.golden.playthroughs --regenerate     # after a change that means to alter games
    python -m tests.golden.playthroughs --check          # what the test does: list the traces that differ

Each trace plays two rounds of one game (greedy and random bots, seeded), at three players
where the variant allows it.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from unodsl import Game, load_variant, make_agents
from unodsl.engine.actions import Decision, Play
from unodsl.engine.cards import Card
from unodsl.engine.events import EVENTS
from unodsl.variant.resolve import shipped_dir

HERE = Path(__file__).resolve().parent / "playthroughs"
SEED = 2026
ROUNDS = 2


def cases() -> list[tuple[str, int]]:
    """(shipped name, players) of every trace: each variant and house rule once."""
    root = shipped_dir()
    names = [p.relative_to(root).with_suffix("").as_posix()
             for p in [*sorted(root.glob("*.yaml")), *sorted((root / "house").glob("*.yaml"))]]
    out = []
    for name in names:
        v = load_variant(name)
        out.append((name, max(v.min_players, min(3, v.max_players))))
    return out


def file_of(name: str, players: int) -> Path:
    return HERE / f"{name.replace('/', '-')}-{players}p.txt"


def _value(value: Any) -> str:
    if isinstance(value, Card):
        return f"{value.label}#{value.id}"
    if isinstance(value, Play):
        return f"play {value.card.label}#{value.card.id}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


class _Told:
    """Every decision an agent is asked (with its options) and every event, in order."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def event(self, game: Game, name: str, data: dict[str, Any]) -> None:
        if not EVENTS[name].for_tools:
            fields = " ".join(f"{k}={_value(v)}" for k, v in data.items())
            self.lines.append(f"{name} {fields}")

    def decision(self, d: Decision) -> None:
        about = f" about {_value(d.about)}" if d.about is not None else ""
        prompt = f" ({d.prompt})" if d.prompt else ""
        self.lines.append(f"? P{d.player + 1} {d.kind}{prompt}{about}: " + " | ".join(_value(o) for o in d.options))


class _Asked:
    """An agent that tells each decision it is asked before answering it."""

    def __init__(self, agent: Any, told: _Told) -> None:
        self.agent, self.told = agent, told
        self.searches = getattr(agent, "searches", False)

    def choose(self, game: Game, decision: Decision) -> Any:
        self.told.decision(decision)
        return self.agent.choose(game, decision)


def trace(name: str, players: int) -> str:
    """The golden trace of `name` at `players`: a header, then every line, then the end state."""
    told = _Told()
    game = Game(load_variant(name), players, SEED, listeners=[told.event])
    agents = [_Asked(a, told) for a in make_agents(["greedy", "random"], players, SEED)]
    game.autoplay(agents, rounds=ROUNDS)
    end = (f"end: round {game.round}, scores {game.scores}, winners {list(game.winners)}, "
           f"pending {game.decision.kind if game.decision else None}")
    head = f"# {name}, {players} players, seed {SEED}, greedy/random, {ROUNDS} rounds"
    return "\n".join([head, *told.lines, end]) + "\n"


def differences(names: Sequence[tuple[str, int]] | None = None) -> dict[Path, str]:
    """The traces that differ from their committed files, with a short unified diff each."""
    out = {}
    for name, players in names or cases():
        path = file_of(name, players)
        now = trace(name, players)
        before = path.read_text(encoding="utf-8") if path.is_file() else ""
        if now != before:
            diff = difflib.unified_diff(before.splitlines(), now.splitlines(), str(path), "now", lineterm="", n=2)
            out[path] = "\n".join(list(diff)[:40])
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--regenerate", action="store_true", help="rewrite every trace from the code as it is")
    ap.add_argument("--check", action="store_true", help="list the traces that differ (the default)")
    args = ap.parse_args(argv)
    if args.regenerate:
        HERE.mkdir(exist_ok=True)
        keep = set()
        for name, players in cases():
            path = file_of(name, players)
            path.write_text(trace(name, players), encoding="utf-8")
            keep.add(path)
        for stale in set(HERE.glob("*.txt")) - keep:
            stale.unlink()
        print(f"wrote {len(keep)} traces to {HERE}")
        return 0
    diffs = differences()
    for diff in diffs.values():
        print(diff)
    print(f"{len(diffs)} trace(s) differ" if diffs else "every trace is as committed")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
