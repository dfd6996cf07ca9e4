"""Information-set Monte Carlo tree search (SO-ISMCTS, Cowling, Powley and Whitehouse 2012).

The searching player cannot see the others' hands or the draw pile, so each
iteration first *determinises*: `game.resample(me, rng)` deals the unseen cards
again at random, consistently with everything `me` has seen. The iteration then
walks one tree, shared by all determinisations, on a clone of that game:

- a node is reached by a path of actions from the root (the searcher's own
  decision now). Its children are keyed by (who decides, what kind of decision,
  the action), so a node stands for every state the searcher cannot tell apart
  after that path: an information set as the searcher sees it, never the true
  history of a determinised game (that would leak the hidden cards);
- an action is its encoded answer (`encode_answer`), except that a card is known
  by its faces (its label and the face it shows outward), not by its id: two red
  sevens are the same move, and an opponent's card has a different id in every
  determinisation;
- selection is UCB1 over the actions *available in this determinisation*, with
  availability counts in place of the parent's visits (the "subset-armed bandit"
  of the paper); the first unseen action found is expanded, at random;
- every kind of decision is searched (a turn, the card just drawn, a colour, a
  seat, a card, yes or no), by every player: each node's reward is that of the
  player who chose it, so opponents are modelled as trying to win too;
- a rollout plays the round out with a cheap policy (expert, greedy or random agents);
- with `infer` (the default) each deal is made to fit what the opponents' draws
  showed: an opponent who began a turn by drawing (no penalty pending) held no card
  that could be played then, so enough of the cards dealt to them that could not be
  newer are swapped with unplayable ones from the draw pile (`_Observer`, `_Fit`).
  It models opponents who draw only when they cannot play.

The reward is the round's outcome: 1 to the player who wins the round, 0 to the
others. Winning rounds is what every variant's scoring rewards; points are left
to the variant's scoring of the rounds won. A rollout longer than
`rollout_turns` turns is stopped and scored by hand sizes (each player's share of
1/(cards + 1)).

Deterministic for a seed: with `iterations` the search reads no clock. With
`seconds` it searches for that long per decision (and so depends on the machine).

The agent copies the game it is asked about, so it says so (`searches = True`):
`Game.autoplay` then asks it where the game has stopped and is a value, never
from inside a running step.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..engine.actions import Decision, Play, decode_answer, encode_answer
from ..engine.cards import Card
from ..engine.events import EVENTS, arrivals, forgotten
from ..engine.game import Chooser, Game
from ..engine.information import Redeal, shuffle
from ..engine.view import outward
from ..errors import IllegalAction, RunawayRound, UnoDslError

Policy = Callable[[random.Random], Chooser]


class _Node:
    """Statistics of one action in one information set (the tree's edge into it)."""

    __slots__ = ("avail", "children", "player", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the action that leads here
        self.children: dict[Any, _Node] = {}
        self.visits = 0
        self.avail = 0  # iterations in which this action was available
        self.total = 0.0  # the sum of `player`'s rewards


def action_key(choice: Any) -> Any:
    """An answer as the searcher knows it across determinisations: a card by its faces
    (label, outward face), anything else by its encoded form."""
    kind = type(choice)
    if kind is Play:
        card = choice.card
        return ("play", card.label, outward(card))
    if kind is Card:
        return ("card", choice.label, outward(choice))
    return encode_answer(choice)


class ISMCTSAgent:
    """Searches every decision it is asked with SO-ISMCTS (see the module docstring).

    `iterations`: determinisations (and tree walks) per decision; `seconds`: search
    for this long instead (not reproducible); `rollout`: the policy of the rollouts,
    a factory of agents given a generator; `c`: UCB1's exploration constant;
    `rollout_turns`: a rollout's turns before it is scored by hand sizes.
    """

    name = "ismcts"
    searches = True  # it clones and resamples the game: autoplay asks it where the game has stopped

    def __init__(self, rng: random.Random | int | None = None, *, rollout: Policy,
                 iterations: int = 200, seconds: float | None = None, c: float = 0.7,
                 rollout_turns: int = 20, prior: float = 8.0, infer: bool = True,
                 opponents: Policy | None = None) -> None:
        if iterations < 1:
            raise UnoDslError(f"iterations must be at least 1, not {iterations}")
        if seconds is not None and not seconds > 0:
            raise UnoDslError(f"seconds must be more than 0, not {seconds}")
        if not c >= 0:
            raise UnoDslError(f"c must be 0 or more, not {c}")
        if rollout_turns < 1:
            raise UnoDslError(f"rollout_turns must be at least 1, not {rollout_turns}")
        seed = rng.getrandbits(64) if isinstance(rng, random.Random) else (rng or 0)
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.rollout_turns = rollout_turns
        self.prior = prior  # progressive bias towards the rollout policy's choice: prior / (visits + 1)
        self._policy = rollout
        self._opponents = opponents  # the others' policy in rollouts and priors (None: the rollout policy)
        self._me = -1
        self.infer = infer  # deals fit the opponents' draws: they draw only when they cannot play
        self._seen: _Observer | None = None
        self._fit: list[_Fit] = []
        self._rollout_agents: list[Chooser] = []
        self.last_root: dict[Any, tuple[int, float]] = {}  # the last search's root: key → (visits, mean)

    # -- the agent ------------------------------------------------------------
    def choose(self, game: Game, decision: Decision) -> Any:
        options = decision.options
        if len(options) == 1:
            return options[0]
        position = game
        me = decision.player
        root = _Node(-1)
        rng = self.rng
        self._fit = self._constraints(game, me) if self.infer else []
        if me != self._me:
            self._me, self._rollout_agents = me, []
        deal = Redeal(position, me)  # the unseen places, found once for every determinisation
        if self.seconds is None:
            for _ in range(self.iterations):
                self._iterate(deal, me, root, rng)
        else:
            deadline = time.perf_counter() + self.seconds
            while True:
                self._iterate(deal, me, root, rng)
                if time.perf_counter() >= deadline:
                    break
        children = root.children
        self.last_root = {k[2]: (n.visits, n.total / n.visits if n.visits else 0.0) for k, n in children.items()}

        def merit(i: int) -> tuple[int, float, int]:
            node = children.get((me, decision.kind, action_key(options[i])))
            return (node.visits, node.total / node.visits, -i) if node and node.visits else (0, 0.0, -i)

        return options[max(range(len(options)), key=merit)]

    # -- one iteration ----------------------------------------------------------
    def _iterate(self, deal: Redeal, me: int, root: _Node, rng: random.Random) -> None:
        g: Game = deal(rng)  # position.resample(me, rng)
        if self._fit:
            _fit_deal(g, self._fit, rng)
        outcome = _RoundEnd()
        g.watch(outcome, ("round_end",))
        rounds = len(g.round_turns)
        path: list[_Node] = []
        try:  # the round's end stops the clone where it is decided (see _RoundEnd)
            self._walk(g, root, path, rounds, outcome, rng)
            rewards = self._rollout(g, rounds, outcome, rng)
        except _RoundOver:
            rewards = [1.0 if q == outcome[0] else 0.0 for q in range(g.n)]
        for n in path:
            n.visits += 1
            n.total += rewards[n.player]

    def _walk(self, g: Game, node: _Node, path: list[_Node], rounds: int, outcome: _RoundEnd,
              rng: random.Random) -> None:
        """Down the tree from `node` on `g`, each step's node appended to `path`, until a
        node is expanded (or the round ends)."""
        log = math.log
        c = self.c
        while not outcome:
            d = g.decision
            if d is None or len(g.round_turns) > rounds:
                break
            children = node.children
            # each action once, with its first option, in the options' order (dicts: a decision
            # may offer many options, a choose_number up to 1,000)
            fresh: dict[Any, Any] = {}
            taken: dict[int, tuple[_Node, Any]] = {}
            for option in d.options:
                key = (d.player, d.kind, action_key(option))
                child = children.get(key)
                if child is None:
                    if key not in fresh:
                        fresh[key] = option
                elif id(child) not in taken:
                    child.avail += 1
                    taken[id(child)] = (child, option)
            if fresh:
                # the rollout policy's own choice first: the tree's frontier plays as the rollouts do
                hint = (d.player, d.kind, action_key(self._agents(g.n, rng)[d.player].choose(g, d)))
                if hint in fresh:
                    key, option = hint, fresh[hint]
                else:
                    key, option = list(fresh.items())[math.floor(rng.random() * len(fresh))]
                child = children[key] = _Node(d.player)
                child.avail = 1
                path.append(child)
                g.apply(option)
                break
            seen = list(taken.values())
            best, best_value = seen[0], -math.inf
            favoured = None  # the rollout policy's choice, whose value gets a bonus that fades with visits
            if self.prior:
                hint = (d.player, d.kind, action_key(self._agents(g.n, rng)[d.player].choose(g, d)))
                favoured = children.get(hint)
            for pair in seen:
                n = pair[0]
                value = n.total / n.visits + c * math.sqrt(log(n.avail) / n.visits)
                if n is favoured:
                    value += self.prior / (n.visits + 1)
                if value > best_value:
                    best, best_value = pair, value
            node = best[0]
            path.append(node)
            g.apply(best[1])

    def _constraints(self, game: Game, me: int) -> list[_Fit]:
        """What the opponents' draws tell: for each turn an opponent began by drawing
        (no penalty pending), the cards they held then could not be played on the
        top card and colour of that moment, and of their hand now at most as many
        cards as they have received since can be newer. Read from the game played
        again from its answers with only public events watched (nothing hidden is
        read); none for a game that cannot be played again (arranged, resampled)."""
        seen = self._seen
        if not game.replayable:
            return []
        actions = game.actions
        if seen is None or not seen.follows(game, actions):
            seen = self._seen = _Observer(game)
        if not seen.catch_up(actions) or not seen.agrees(game, me):
            self._seen = None
            return []
        probe = game.clone()  # a table to ask "could this card be played then?"
        for q in range(game.n):
            if q != me:
                probe.hands[q] = []  # (what a legality test may read of a hand: nothing hidden)
        fits: list[_Fit] = []
        for q, top, color, side, received in seen.draws:
            need = len(game.hands[q]) - (seen.received[q] - received)
            if q != me and need > 0 and side == game.side:
                fits.append(_Fit(q, need, probe, top, color))
        return fits

    def _agents(self, n: int, rng: random.Random) -> list[Chooser]:
        """The rollout policy's agents, one per seat (made once; the opponents' policy
        for the others' seats when one is given)."""
        agents = self._rollout_agents
        if len(agents) != n:
            others = self._opponents or self._policy
            agents[:] = [(self._policy if q == self._me else others)(rng) for q in range(n)]
        return agents

    def _rollout(self, g: Game, rounds: int, outcome: _RoundEnd, rng: random.Random) -> Sequence[float]:
        """Play the round out with the rollout policy; each player's reward."""
        if not outcome and g.decision is not None and len(g.round_turns) == rounds:
            agents = self._agents(g.n, rng)
            g.max_turns = min(g.max_turns, g.turns + self.rollout_turns)
            try:
                g.autoplay(agents, rounds=1)
            except RunawayRound:
                return _by_hand_sizes(g)
        if outcome:
            return [1.0 if q == outcome[0] else 0.0 for q in range(g.n)]
        return _by_hand_sizes(g)


class _Observer:
    """The game played again from its answers, watching public events only: where
    each player began a turn by drawing (see ISMCTSAgent._constraints). What it counts
    and forgets is read from the events' declarations (engine/events.py): the cards
    each hand gains (`arrivals`), and the hands an event makes unknown again
    (`forgotten`: a hand moved whole, away or to another seat, cards arriving
    uncounted, every card turned over). Any event that moves cards or forgets is
    watched, so an event declared tomorrow is read the same way."""

    TURN = ("turn_start", "card_played", "card_drawn", "penalty_taken")  # where a turn's first act is seen

    def __init__(self, game: Game) -> None:
        self.variant, self.n, self.seed = game.variant, game.n, game.seed
        self.received = [0] * game.n  # cards each player has received so far
        self.draws: list[tuple[int, Card, str | None, int, int]] = []  # (player, top, colour, side, received)
        self._turn: int | None = None  # the player whose turn began, until they play or draw
        self.moving = frozenset(name for name, e in EVENTS.items() if e.moves or e.forgets)
        self.events = (*self.TURN, *sorted(self.moving - set(self.TURN)))
        self.game = Game(game.variant, game.n, game.seed, max_turns=game.max_turns, max_rounds=game.max_rounds,
                         listeners=[self], listen_to=self.events)
        self.done = 0  # answers given to the copy

    def follows(self, game: Game, actions: list[Any]) -> bool:
        return (game.variant is self.variant and game.n == self.n and game.seed == self.seed
                and len(actions) >= self.done and actions[:self.done] == self.game.actions)

    def catch_up(self, actions: list[Any]) -> bool:
        g = self.game
        try:
            for action in actions[self.done:]:
                d = g.decision
                if d is None:
                    return False
                g.apply(decode_answer(d, action))
                self.done += 1
        except IllegalAction:
            return False
        return True

    def agrees(self, game: Game, me: int) -> bool:
        """The copy shows `me` what the game does (else it was dealt another way)."""
        a, b = self.game.view(me), game.view(me)
        return (a.discard_pile == b.discard_pile and [c.label for c in a.hand] == [c.label for c in b.hand]
                and [o.hand_size for o in a.opponents] == [o.hand_size for o in b.opponents])

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        p: int = data.get("player", -1)
        if name == "turn_start":
            self._turn = p if not game.penalty else None
        elif name == "card_drawn" and p == self._turn and game.discard_pile:
            self.draws.append((p, game.discard_pile[-1], game.current_color, game.side, self.received[p]))
        if name in self.moving:
            n = self.n
            for q, count in arrivals(name, data, n):
                self.received[q] += count
            gone = forgotten(name, data, n)
            if gone:  # a new deal, hands exchanged, the deck turned over: what was learned of them no longer holds
                self.draws = [d for d in self.draws if d[0] not in gone]
                if self._turn in gone:
                    self._turn = None
        if name in self.TURN[1:]:  # the turn's first act is seen: a later draw is no sign
            self._turn = None


class _Fit:
    """One observed draw: at least `need` cards of `player`'s hand could not be
    played on `top` and `color` (asked of `probe`, a copy of the game with the top
    and colour of then, each face once)."""

    __slots__ = ("color", "need", "player", "probe", "top", "unplayable")

    def __init__(self, player: int, need: int, probe: Game, top: Card, color: str | None) -> None:
        self.player, self.need, self.probe, self.top, self.color = player, need, probe, top, color
        self.unplayable: dict[int, bool] = {}

    def fits(self, card: Card) -> bool:
        known = self.unplayable.get(card.face_id)
        if known is None:
            probe = self.probe
            pile, color = probe.discard_pile, probe.current_color
            pile.append(self.top)
            probe.current_color = self.color
            try:
                known = not probe.playable(card, self.player)
            except UnoDslError:
                known = True
            finally:
                pile.pop()
                probe.current_color = color
            self.unplayable[card.face_id] = known
        return known


def _fit_deal(g: Game, fits: list[_Fit], rng: random.Random) -> None:
    """Swap cards between an opponent's hand and the draw pile (same outward face)
    until each observed draw fits: enough of their cards unplayable then."""
    pile = g.draw_pile
    for fit in fits:
        hand = g.hands[fit.player]
        known, ask = fit.unplayable, fit.fits  # (the answers so far by face, and the question)
        flags = [known[c.face_id] if c.face_id in known else ask(c) for c in hand]
        short = fit.need - sum(flags)
        if short <= 0:
            continue
        wrong = [i for i, ok in enumerate(flags) if not ok]
        spare = [j for j, c in enumerate(pile) if (known[c.face_id] if c.face_id in known else ask(c))]
        shuffle(wrong, rng)
        shuffle(spare, rng)
        for i in wrong:
            if short <= 0:
                break
            back = outward(hand[i])
            for k, j in enumerate(spare):
                if outward(pile[j]) == back:
                    hand[i], pile[j] = pile[j], hand[i]
                    del spare[k]
                    short -= 1
                    break


class _RoundOver(Exception):
    """Raised by _RoundEnd: the round of a searched clone is decided."""


class _RoundEnd(list[int]):
    """A listener that notes who won the round, and stops the clone there: the reward
    is the winner alone, so the round's end rules, the scores and the next round's
    deal would be work thrown away. (A listener's exception leaves apply and autoplay
    as itself; the clone is dropped.)"""

    def __call__(self, game: Game, name: str, data: dict[str, Any]) -> None:
        if name == "round_end":
            self.append(data["player"])
            raise _RoundOver


def _by_hand_sizes(g: Game) -> list[float]:
    """A round stopped before its end, scored by hand sizes: shares of 1/(cards + 1)."""
    weights = [1.0 / (len(h) + 1) for h in g.hands]
    total = sum(weights)
    return [w / total for w in weights]
