"""What the balance lab counts in each round: the listeners and agent wrappers that
watch a game, and the tally they feed.

Everything is an integer counter or a histogram of integers (a fraction is kept in
millionths), so the tallies of any split of the rounds between workers merge into
the same figures. A round's observations are committed at its `round_end`: a
round stopped by the runaway guard or an error leaves nothing half counted.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ...engine.actions import Decision, Lay, Play
from ...engine.cards import Card
from ...players.bots import Agent
from .evaluator import CLEAR, Counts, Evaluator, Key, public_keys, tension

MICRO = 1_000_000
BINS = 10  # calibration bins of the predicted chance


def micro(x: float) -> int:
    return round(x * MICRO)


def _hists(n: int) -> list[Counter[int]]:
    return [Counter() for _ in range(n)]


@dataclass
class LabTally:
    """The lab's own counters of a batch of rounds (simulate's Tally holds the rest)."""

    players: int
    wins_from_first: list[int] = field(default_factory=list)     # round wins by seats after the first player
    team_wins: Counter[int] = field(default_factory=Counter)
    # tension, one observation per round
    lead_changes: Counter[int] = field(default_factory=Counter)
    drama: Counter[int] = field(default_factory=Counter)           # millionths
    clear_turns: Counter[int] = field(default_factory=Counter)     # turns before the winner was clear
    clear_share: Counter[int] = field(default_factory=Counter)     # millionths of the round
    # the evaluator on these (held-out) rounds
    calib_n: list[int] = field(default_factory=list)
    calib_p: list[int] = field(default_factory=list)              # Σ predicted chance, millionths
    calib_won: list[int] = field(default_factory=list)
    brier: Counter[int] = field(default_factory=Counter)           # per round, millionths
    brier_fair: Counter[int] = field(default_factory=Counter)      # the same for a fair share
    # downtime and aggression
    longest_wait: Counter[int] = field(default_factory=Counter)    # per player and round
    forced_draws: list[Counter[int]] = field(default_factory=list)  # by seat from the first player, per round
    skips: list[Counter[int]] = field(default_factory=list)
    attacks_at: Counter[int] = field(default_factory=Counter)      # seats from the attacker, in play order
    attacks_per_round: Counter[int] = field(default_factory=Counter)
    attacks: int = 0
    leader_hits: int = 0
    leader_expected: int = 0                                       # Σ leaders/opponents, millionths
    # coverage
    rules_fired: Counter[str] = field(default_factory=Counter)
    choices: Counter[str] = field(default_factory=Counter)        # decisions that arose (single option too)
    offered: Counter[str] = field(default_factory=Counter)        # "decision: answer" offered to an agent
    chosen: Counter[str] = field(default_factory=Counter)         # … and chosen

    def __post_init__(self) -> None:
        n = self.players
        for name in ("wins_from_first",):
            if not getattr(self, name):
                setattr(self, name, [0] * n)
        for name in ("calib_n", "calib_p", "calib_won"):
            if not getattr(self, name):
                setattr(self, name, [0] * BINS)
        for name in ("forced_draws", "skips"):
            if not getattr(self, name):
                setattr(self, name, _hists(n))

    def merge(self, other: LabTally) -> None:
        for name in ("wins_from_first", "calib_n", "calib_p", "calib_won"):
            mine = getattr(self, name)
            for i, v in enumerate(getattr(other, name)):
                mine[i] += v
        for name in ("forced_draws", "skips"):
            for mine, theirs in zip(getattr(self, name), getattr(other, name), strict=True):
                mine.update(theirs)
        for name in ("team_wins", "lead_changes", "drama", "clear_turns", "clear_share", "brier", "brier_fair",
                     "longest_wait", "attacks_at", "attacks_per_round", "rules_fired", "choices", "offered", "chosen"):
            getattr(self, name).update(getattr(other, name))
        self.attacks += other.attacks
        self.leader_hits += other.leader_hits
        self.leader_expected += other.leader_expected


# --------------------------------------------------------------------------
# Answers as words (coverage)


def decision_name(d: Decision) -> str:
    """A decision as coverage names it: its kind, or `ask "question"`."""
    return f'ask "{d.prompt}"' if d.kind == "ask" else d.kind


def answer_label(d: Decision, option: Any, players: int) -> str:
    """An answer as coverage names it: by card kind, declared play, action word, colour,
    seat or yes/no."""
    if type(option) is Play:
        return f"play {option.card.kind}"
    if type(option) is Lay:
        return f"declared play {option.way}"
    if isinstance(option, Card):
        return f"card {option.kind}"
    if isinstance(option, bool):
        return "yes" if option else "no"
    if isinstance(option, int):
        return f"seat +{(option - d.player) % players}"
    return str(option)


class WatchedAgent:
    """An agent whose decisions are counted: what it was offered, what it chose."""

    def __init__(self, agent: Agent, tally: LabTally) -> None:
        self.agent = agent
        self.name = agent.name
        self.searches = getattr(agent, "searches", False)
        self.tally = tally
        self.offered: Counter[str] = Counter()
        self.chosen: Counter[str] = Counter()

    def choose(self, game: Any, decision: Decision) -> Any:
        answer = self.agent.choose(game, decision)
        what = decision_name(decision)
        n = game.n
        for label in {answer_label(decision, o, n) for o in decision.options}:
            self.offered[f"{what}: {label}"] += 1
        self.chosen[f"{what}: {answer_label(decision, answer, n)}"] += 1
        return answer


# --------------------------------------------------------------------------
# The listeners


class TrainWatch:
    """Counts the public keys of a training round's positions against its winner."""

    events: tuple[str, ...] = ("turn_start", "round_end")

    def __init__(self, counts: Counts) -> None:
        self.counts = counts
        self.positions: list[list[Key | None]] = []
        self.done = False

    def __call__(self, game: Any, name: str, data: dict[str, Any]) -> None:
        if self.done:
            return
        if name == "turn_start":
            self.positions.append(public_keys(game))
        elif name == "round_end":
            self.done = True
            self.counts.add(self.positions, data["player"])

    def seat(self, bots: list[Agent]) -> list[Agent]:
        return bots


class RoundWatch:
    """Everything the lab counts in one round, committed to `tally` at its end."""

    events: tuple[str, ...] = ("turn_start", "turn_end", "card_played", "cards_played", "card_drawn", "skipped",
                               "penalty_added", "penalty_taken", "round_end", "choice", "rule_fired")

    def __init__(self, tally: LabTally, evaluator: Evaluator) -> None:
        self.tally = tally
        self.evaluator = evaluator
        self.n = n = tally.players
        self.done = False
        self.first: int | None = None       # who played the first turn
        self.turn: int | None = None        # whose turn it is (or was last)
        self.played = False
        self.streak = [0] * n
        self.longest = [0] * n
        self.forced = [0] * n
        self.skipped = [0] * n
        self.chances: list[list[float]] = []
        self.sizes: list[int] = []
        self.direction = 1
        self.window: dict[int, int] = {}    # victims of this turn's attacks → attacker
        self.penalty_from: int | None = None
        self.fired: Counter[str] = Counter()
        self.choices: Counter[str] = Counter()
        self.agents: list[WatchedAgent] = []
        self.round_attacks = 0

    def seat(self, bots: list[Agent]) -> list[Agent]:
        self.agents = [WatchedAgent(b, self.tally) for b in bots]
        return list(self.agents)

    def __call__(self, game: Any, name: str, data: dict[str, Any]) -> None:
        if self.done:
            return
        p = data["player"]
        if name == "turn_start":
            self._flush(game)
            if self.first is None:
                self.first = p
            self.turn, self.played = p, False
            self.sizes = [len(h) for h in game.hands]
            self.direction = game.direction
            self.chances.append(self.evaluator.chances(public_keys(game)))
        elif name == "card_played" or name == "cards_played":  # (a declared play onto any zone)
            if p == self.turn:
                self.played = True
            else:
                self.streak[p] = 0  # a play out of turn
        elif name == "turn_end":
            if p == self.turn and not self.played:
                self._wait(p)
            elif p == self.turn:
                self.streak[p] = 0
        elif name == "card_drawn":
            if self.turn is not None and p != self.turn:
                self.forced[p] += 1
                self.window.setdefault(p, self.turn)
        elif name == "skipped":
            self.skipped[p] += 1
            self._wait(p)
            if self.turn is not None and p != self.turn:
                self.window.setdefault(p, self.turn)
        elif name == "penalty_added":
            self.penalty_from = self.turn
        elif name == "penalty_taken":
            if p == self.turn:  # a pending penalty taken on one's own turn: its cards are forced
                self.forced[p] += data["count"]
                if self.penalty_from is not None and self.penalty_from != p:
                    self.window.setdefault(p, self.penalty_from)
            self.penalty_from = None
        elif name == "choice":
            self.choices['ask "' + data["prompt"] + '"' if data["kind"] == "ask" else data["kind"]] += 1
        elif name == "rule_fired":
            self.fired[data["rule"]] += 1
        elif name == "round_end":
            self.done = True
            self._flush(game)
            self._commit(game, p, data)

    def _wait(self, p: int) -> None:
        self.streak[p] += 1
        if self.streak[p] > self.longest[p]:
            self.longest[p] = self.streak[p]

    def _flush(self, game: Any) -> None:
        """Count the attacks of the turn that ended: one per player hit, whoever drew or lost a turn."""
        if not self.window:
            return
        t, n, out = self.tally, self.n, game.out
        for victim, attacker in self.window.items():
            t.attacks += 1
            self.round_attacks += 1
            t.attacks_at[((victim - attacker) * self.direction) % n] += 1
            rivals = [q for q in range(n) if q != attacker and q not in out]
            if not rivals:
                continue
            least = min(self.sizes[q] for q in rivals) if self.sizes else 0
            leaders = [q for q in rivals if self.sizes and self.sizes[q] == least]
            t.leader_hits += victim in leaders
            t.leader_expected += micro(len(leaders) / len(rivals))
        self.window = {}

    def _commit(self, game: Any, winner: int, data: dict[str, Any]) -> None:
        t, n = self.tally, self.n
        first = self.first if self.first is not None else winner
        t.wins_from_first[(winner - first) % n] += 1
        t.team_wins[data["team"]] += 1
        for p in range(n):
            t.longest_wait[self.longest[p]] += 1
            k = (p - first) % n
            t.forced_draws[k][self.forced[p]] += 1
            t.skips[k][self.skipped[p]] += 1
        t.attacks_per_round[self.round_attacks] += 1
        t.rules_fired.update(self.fired)
        t.choices.update(self.choices)
        for agent in self.agents:
            t.offered.update(agent.offered)
            t.chosen.update(agent.chosen)
        chances = self.chances or [[1.0 if q == winner else 0.0 for q in range(n)]]
        changes, drama, clear = tension(chances, winner)
        t.lead_changes[changes] += 1
        t.drama[micro(drama)] += 1
        t.clear_turns[clear] += 1
        t.clear_share[micro(clear / len(chances))] += 1
        errors = fair = 0.0
        count = 0
        for row in self.chances:
            live = sum(1 for x in row if x > 0) or 1
            for q, x in enumerate(row):
                won = 1 if q == winner else 0
                b = min(int(x * BINS), BINS - 1)
                t.calib_n[b] += 1
                t.calib_p[b] += micro(x)
                t.calib_won[b] += won
                errors += (x - won) ** 2
                fair += ((1 / live if x > 0 else 0.0) - won) ** 2
                count += 1
        if count:
            t.brier[micro(errors / count)] += 1
            t.brier_fair[micro(fair / count)] += 1


class Explorer:
    """An agent that tries every answer: a question whose answers are yes or no is answered
    at random; any other decision is made at random one time in EXPLORE_EVERY, else by the
    agent it wraps (so rounds stay like the agents' own). Its generator is seeded per seat
    and round: the same rounds with any split of the work."""

    def __init__(self, agent: Agent, seed: int) -> None:
        self.agent = agent
        self.name = f"{agent.name}:exploring"
        self.searches = getattr(agent, "searches", False)
        self.rng = random.Random(seed)

    def choose(self, game: Any, decision: Decision) -> Any:
        options = decision.options
        if len(options) > 1 and (all(isinstance(o, bool) for o in options)
                                 or self.rng.randrange(EXPLORE_EVERY) == 0):
            return options[self.rng.randrange(len(options))]
        return self.agent.choose(game, decision)


EXPLORE_EVERY = 5


class ExploreWatch:
    """The coverage of a round played by Explorers: rules fired, decisions asked, answers
    offered and chosen, committed to `tally` at the round's end."""

    events: tuple[str, ...] = ("choice", "rule_fired", "round_end")

    def __init__(self, tally: LabTally, seed: int) -> None:
        self.tally, self.seed = tally, seed
        self.fired: Counter[str] = Counter()
        self.choices: Counter[str] = Counter()
        self.agents: list[WatchedAgent] = []
        self.done = False

    def seat(self, bots: list[Agent]) -> list[Agent]:
        self.agents = [WatchedAgent(Explorer(b, self.seed * 131 + p), self.tally) for p, b in enumerate(bots)]
        return list(self.agents)

    def __call__(self, game: Any, name: str, data: dict[str, Any]) -> None:
        if self.done:
            return
        if name == "choice":
            self.choices['ask "' + data["prompt"] + '"' if data["kind"] == "ask" else data["kind"]] += 1
        elif name == "rule_fired":
            self.fired[data["rule"]] += 1
        elif name == "round_end":
            self.done = True
            t = self.tally
            t.rules_fired.update(self.fired)
            t.choices.update(self.choices)
            for agent in self.agents:
                t.offered.update(agent.offered)
                t.chosen.update(agent.chosen)


class GameWatch:
    """Whole games: a tie is a game won by more than one team (the engine names every winner
    of a tie that `scoring.tie_break` does not settle)."""

    events: tuple[str, ...] = ("game_end",)

    def __init__(self, ties: Counter[str]) -> None:
        self.ties = ties

    def __call__(self, game: Any, name: str, data: dict[str, Any]) -> None:
        if name != "game_end":
            return
        teams = {game.team(p) for p in data["winners"]}
        self.ties["tied" if len(teams) > 1 else "alone"] += 1

    def seat(self, bots: list[Agent]) -> list[Agent]:
        return bots


__all__ = ["CLEAR", "EXPLORE_EVERY", "ExploreWatch", "Explorer", "GameWatch", "LabTally", "RoundWatch", "TrainWatch",
           "WatchedAgent"]
