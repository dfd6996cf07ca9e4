"""Which games a batch plays: its Setup, the seed of its game i, and the seating of its
agents (the table turns one seat per game, so every agent holds every seat equally often).

Game `i` of a run with master seed `s` is played with the seed `game_seed(s, i)`, a
SHA-256 of both, stable across Python runs and machines, and with the agents seated as
`seating(agents, players, i)` says.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

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


def agents_seed(setup: Setup, index: int, seed: int) -> int:
    """The seed of the agents of game `index` (whose own seed is `seed`): the game's
    seed, or one derived from the run's agent seed and `index`, as the game's is."""
    return seed if setup.agent_seed is None else game_seed(setup.agent_seed, index)
