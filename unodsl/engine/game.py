"""The step-driven game: `decision` is the pending question, `apply` answers it.

The flow of rounds and turns is a generator that yields a Decision whenever a
player must choose; effect programs run as steps inside it, and rule handlers
queued by events run right after the step that emitted them.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Generator, Mapping, Sequence
from types import GeneratorType
from typing import Any

from ..errors import GameError, IllegalAction, RunawayRound, UnoDslError
from ..lang.compile import CHOOSE, DO, FOR, IF, LET, REPEAT, WHILE, Fn, Program
from ..model import Rule, Variant
from .actions import DRAW, KEEP, PASS, Decision, Play
from .cards import Card
from .view import PlayerView, view

Flow = Generator[Decision, Any, Any]
Listener = Callable[["Game", str, dict[str, Any]], None]

WHILE_GUARD = 10_000


class Game:
    """One game of a variant: zones, turn order, scores, one seeded RNG."""

    def __init__(self, variant: Variant, players: int, seed: int = 0, *,
                 max_turns: int = 5_000, record: bool = False,
                 stacked: Sequence[str] | None = None, listeners: Sequence[Listener] = ()) -> None:
        if not variant.min_players <= players <= variant.max_players:
            raise UnoDslError(f"{variant.name} is for {variant.min_players}–{variant.max_players} "
                              f"players, not {players}")
        self.variant = variant
        self.n = players
        self.seed = seed
        self.rng = random.Random(seed) if stacked is None else _Unshuffled(seed)
        self._stacked = stacked
        self.max_turns = max_turns
        self.cards = self._make_cards()
        self._plays = [Play(c) for c in self.cards]
        self.draw_pile: list[Card] = []
        self.discard_pile: list[Card] = []
        self.aside: list[Card] = []
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.flags: list[set[str]] = [set() for _ in range(players)]
        self.scores = [0] * players
        self.side = 0
        self.direction = 1
        self.current = 0
        self.dealer = 0
        self.round = 0
        self.turns = 0
        self.current_color: str | None = None
        self.previous_top: Card | None = None
        self.penalty = 0
        self.penalty_answer: Callable[[Card], Any] | None = None
        self.skips = 0
        self.again = False
        self.next_override: int | None = None
        self.round_winner: int | None = None
        self.winner: int | None = None
        self.round_turns: list[int] = []
        self.events: list[tuple[str, dict[str, Any]]] | None = [] if record else None
        self.listeners: list[Listener] = list(listeners)
        self._subs: dict[str, tuple[Rule, ...]] = {}
        for rule in variant.rules:
            self._subs[rule.event] = (*self._subs.get(rule.event, ()), rule)
        self._watch: set[str] | _All = _ALL if record or listeners else set(self._subs)
        self._queue: deque[tuple[Program, dict[str, Any]]] = deque()
        self._legal_env: dict[str, Any] = {}
        self._match = variant.turn.match
        self._flow = self._game()
        self.decision: Decision | None = None
        self._step(None)

    # -- the public contract ---------------------------------------------
    @property
    def over(self) -> bool:
        return self.winner is not None

    def apply(self, choice: Any) -> None:
        """Answer the pending decision; an illegal choice changes nothing."""
        d = self.decision
        if d is None:
            raise IllegalAction("the game is over; there is nothing to choose")
        if not any(o is choice for o in d.options) and choice not in d.options:
            legal = ", ".join(str(o) for o in d.options[:12])
            raise IllegalAction(f"{choice} is not a legal choice for player {d.player} "
                                f"({d.kind}); legal: {legal}")
        self._step(choice)

    def watch(self, listener: Listener) -> None:
        """Call `listener(game, event, data)` after every event from now on."""
        self.listeners.append(listener)
        self._watch = _ALL

    def legal(self, player: int, card: Card) -> bool:
        """Could `player` play `card` now (the variant's match and legal_if)?"""
        env = self._legal_env
        env["player"] = player
        env["card"] = card
        if not self._match(self, env):
            return False
        test = card.legal_if
        return test is None or bool(test(self, env))

    def view(self, player: int) -> PlayerView:
        """What `player` can see: their hand, public piles, sizes and outward faces."""
        return view(self, player)

    def zones(self) -> dict[str, list[Card]]:
        """Every zone by name: the piles, the aside area and each hand."""
        zones = {"draw_pile": self.draw_pile, "discard_pile": self.discard_pile, "aside": self.aside}
        zones.update({f"hand {p}": h for p, h in enumerate(self.hands)})
        return zones

    def zone_name(self, zone: list[Card]) -> str:
        for name, z in self.zones().items():
            if z is zone:
                return name
        return "cards"

    def arrange(self, hands: Mapping[int, Sequence[str]], discard: Sequence[str] = (),
                draw: Sequence[str] = (), *, current: int = 0, color: str | None = None,
                dealer: int | None = None, direction: int = 1) -> None:
        """Set up a position by card labels ("red 7", "wild draw four") and start
        `current`'s turn there. `discard` ends with the top card; `draw` starts with
        the next card drawn; every other card goes under the draw pile."""
        zones = self._by_labels({"discard": discard, "draw": draw,
                                 **{f"hand {p}": h for p, h in hands.items()}})
        for p, hand in enumerate(self.hands):
            hand[:] = zones.get(f"hand {p}", [])
        self.discard_pile[:] = zones["discard"]
        self.draw_pile[:] = zones["draw"]
        self.aside.clear()
        for flags in self.flags:
            flags.clear()
        self.current = current
        self.dealer = self.dealer if dealer is None else dealer
        self.direction = direction
        top_card = self.discard_pile[-1] if self.discard_pile else None
        self.current_color = color if color is not None else (top_card.color if top_card else None)
        self.penalty, self.penalty_answer, self.round_winner = 0, None, None
        self.skips, self.again, self.next_override = 0, False, None
        self._queue.clear()
        self._flow = self._resume()
        self._step(None)

    def _by_labels(self, wanted: Mapping[str, Sequence[str]]) -> dict[str, list[Card]]:
        """Pick physical cards by label for each zone; the rest go to "draw" (under)."""
        free: dict[str, list[Card]] = {}
        for card in reversed(self.cards):
            free.setdefault(card.label, []).append(card)
        out: dict[str, list[Card]] = {}
        for zone, labels in wanted.items():
            picked = []
            for label in labels:
                if not free.get(label):
                    known = ", ".join(sorted(free)[:8])
                    raise UnoDslError(f"no card {label!r} left for {zone} (labels look like: {known} …)")
                picked.append(free[label].pop())
            out[zone] = picked
        rest = [c for cards in free.values() for c in cards]
        rest.sort(key=lambda c: c.id)
        out["draw"] = rest + out.get("draw", [])[::-1]
        return out

    def _resume(self) -> Flow:
        yield from self._play_round(advance=False)
        while self.winner is None:
            self.round += 1
            yield from self._round()

    # -- driving the flow ---------------------------------------------------
    def _step(self, choice: Any) -> None:
        try:
            self.decision = self._flow.send(choice)
        except StopIteration:
            self.decision = None

    def emit(self, name: str, data: dict[str, Any]) -> None:
        """Record an event, tell listeners, and queue the rules that subscribe."""
        if self.events is not None:
            self.events.append((name, data))
        for listener in self.listeners:
            listener(self, name, data)
        for rule in self._subs.get(name, ()):
            env = dict(data)
            if rule.cond is None or rule.cond(self, env):
                self._queue.append((rule.body, env))

    def watching(self, name: str) -> bool:
        return name in self._watch

    def _drain(self) -> Flow:
        while self._queue:
            body, env = self._queue.popleft()
            yield from self.run(body, env)

    def run(self, program: Program, env: dict[str, Any]) -> Flow:
        """Run an effect program step by step; handlers run after each step."""
        for step in program:
            op = step[0]
            if op == DO:
                result = step[1](self, env)
                if type(result) is GeneratorType:
                    yield from result
            elif op == LET:
                env[step[1]] = step[2](self, env)
            elif op == CHOOSE:
                asked = step[2](self, env)
                env[step[1]] = (yield from self.decide(asked)) if type(asked) is Decision else asked
            elif op == IF:
                body = step[2] if step[1](self, env) else step[3]
                if body:
                    yield from self.run(body, env)
            elif op == FOR:
                for item in list(step[2](self, env)):
                    env[step[1]] = item
                    yield from self.run(step[3], env)
            elif op == WHILE:
                yield from self._while(step[1], step[2], env)
            elif op == REPEAT:
                for _ in range(step[1](self, env)):
                    yield from self.run(step[2], env)
            if self._queue:
                yield from self._drain()

    def _while(self, cond: Fn, body: Program, env: dict[str, Any]) -> Flow:
        for _ in range(WHILE_GUARD):
            if not cond(self, env):
                return
            yield from self.run(body, env)
        raise GameError(f"a while loop ran {WHILE_GUARD:,} times in round {self.round}; "
                        "its condition never became false")

    def decide(self, decision: Decision) -> Flow:
        """Ask a player (a single legal option is taken without asking)."""
        if self._queue:
            yield from self._drain()
        options = decision.options
        choice = options[0] if len(options) == 1 else (yield decision)
        if "choice" in self._watch:
            self.emit("choice", {"player": decision.player, "kind": decision.kind,
                                 "value": choice, "prompt": decision.prompt})
        return choice

    # -- the game -------------------------------------------------------------
    def _make_cards(self) -> list[Card]:
        sides = self.variant.sides
        columns = [list(side.faces) for side in sides]
        if self.variant.pairing == "shuffled":
            for column in columns[1:]:
                self.rng.shuffle(column)
        return [Card(i, tuple(col[i] for col in columns), self.variant.kinds)
                for i in range(len(columns[0]))]

    def _game(self) -> Flow:
        while self.winner is None:
            self.round += 1
            yield from self._round()

    def _reset_round(self) -> None:
        if self.side != 0:
            self.turn_over(0)
        for zone in (self.discard_pile, self.aside, *self.hands):
            zone.clear()
        self.draw_pile[:] = self.cards
        if self._stacked is not None and self.round == 1:
            self.draw_pile[:] = self._by_labels({"draw": self._stacked})["draw"]
        for flags in self.flags:
            flags.clear()
        self.direction = 1
        self.current_color = None
        self.previous_top = None
        self.penalty = 0
        self.penalty_answer = None
        self.skips = 0
        self.again = False
        self.next_override = None
        self.round_winner = None
        self.turns = 0

    def _round(self) -> Flow:
        self._reset_round()
        v = self.variant
        env: dict[str, Any] = {"player": self.dealer}
        pick = v.first_dealer if self.round == 1 else v.next_dealer
        if pick is not None:
            self.dealer = pick(self, env) % self.n
        self.current = self.dealer
        if "round_start" in self._watch:
            self.emit("round_start", {"player": self.dealer, "round": self.round})
        yield from self.run(v.setup, {"player": self.dealer})
        yield from self._drain()
        yield from self._play_round(advance=True)

    def _play_round(self, advance: bool) -> Flow:
        while self.round_winner is None:
            if advance:
                self._advance()
            advance = True
            if self.turns >= self.max_turns:
                raise RunawayRound(f"round {self.round} passed {self.max_turns:,} turns with no "
                                   "winner (raise max_turns, or check the variant's rules)")
            yield from self._turn()
        self.round_turns.append(self.turns)
        self._score()

    def _advance(self) -> None:
        if self.next_override is not None:
            self.current = self.next_override
        elif not self.again:
            p = self.current
            for _ in range(self.skips):
                p = (p + self.direction) % self.n
                if "skipped" in self._watch:
                    self.emit("skipped", {"player": p})
            self.current = (p + self.direction) % self.n
        self.skips = 0
        self.again = False
        self.next_override = None

    def _turn(self) -> Flow:
        p = self.current
        self.turns += 1
        if "turn_start" in self._watch:
            self.emit("turn_start", {"player": p})
            yield from self._drain()
        options = self._turn_options(p)
        if len(options) == 1 and "choice" not in self._watch and not self._queue:
            action = options[0]
        else:
            action = yield from self.decide(Decision(p, "turn", options))
        if action is DRAW:
            yield from self._draw_turn(p)
        elif action is not PASS:
            yield from self.play(p, action.card)
        if "turn_end" in self._watch:
            self.emit("turn_end", {"player": p})
            yield from self._drain()
        for q in (p, *range(self.n)):
            if not self.hands[q]:
                self.round_winner = q
                break

    def _turn_options(self, p: int) -> tuple[Any, ...]:
        legal = self.legal
        plays = self._plays
        if not self.penalty:
            env = self._legal_env
            env["player"] = p
            match = self._match
            options: list[Any] = []
            for c in self.hands[p]:
                env["card"] = c
                if match(self, env) and (c.legal_if is None or c.legal_if(self, env)):
                    options.append(plays[c.id])
            allowed = self.variant.turn.draw.allowed_if
            if allowed is None or allowed(self, {"player": p}):
                options.append(DRAW)
            return tuple(options) if options else (PASS,)
        answer = self.penalty_answer
        options = [plays[c.id] for c in self.hands[p] if answer is not None and answer(c) and legal(p, c)]
        options.append(DRAW)
        return tuple(options)

    def _draw_turn(self, p: int) -> Flow:
        if self.penalty:
            count, self.penalty, self.penalty_answer = self.penalty, 0, None
            self.draw(p, count)
            if "penalty_taken" in self._watch:
                self.emit("penalty_taken", {"player": p, "count": count})
            return
        rule = self.variant.turn.draw
        if rule.until_playable:
            drawn: list[Card] = []
            while len(drawn) < rule.max:
                got = self.draw(p, 1)
                if not got:
                    break
                drawn += got
                if self.legal(p, got[0]):
                    break
        else:
            drawn = self.draw(p, rule.count)
        yield from self._drain()
        if not drawn or rule.then == "keep":
            return
        card = drawn[-1]
        if card not in self.hands[p] or not self.legal(p, card):
            return
        offer = Decision(p, "drawn", (self._plays[card.id], KEEP))
        if rule.then == "may_play" and (yield from self.decide(offer)) is KEEP:
            return
        yield from self.play(p, card)

    def play(self, p: int, card: Card, effect: bool = True) -> Flow:
        """`p` plays `card` from hand onto the discard pile; its effect runs."""
        self.hands[p].remove(card)
        self.previous_top = self.discard_pile[-1] if self.discard_pile else None
        self.discard_pile.append(card)
        if card.color is not None:
            self.current_color = card.color
        if "card_played" in self._watch:
            self.emit("card_played", {"player": p, "card": card})
        if "hand_changed" in self._watch:
            self.emit("hand_changed", {"player": p, "size": len(self.hands[p])})
        if self._queue:
            yield from self._drain()
        if effect and card.on_play:
            yield from self.run(card.on_play, {"player": p, "card": card})

    def draw(self, p: int, count: int) -> list[Card]:
        """`p` draws up to `count` cards; an empty pile is refilled (COM-1)."""
        pile = self.draw_pile
        hand = self.hands[p]
        got: list[Card] = []
        for _ in range(count):
            if not pile:
                self.refill()
                if not pile:
                    if "draw_short" in self._watch:
                        self.emit("draw_short", {"player": p, "missing": count - len(got)})
                    break
            card = pile.pop()
            hand.append(card)
            got.append(card)
            if "card_drawn" in self._watch:
                self.emit("card_drawn", {"player": p, "card": card})
        if got and "hand_changed" in self._watch:
            self.emit("hand_changed", {"player": p, "size": len(hand)})
        return got

    def refill(self) -> None:
        """Shuffle all but the top of the discard pile into the draw pile (COM-1)."""
        discard = self.discard_pile
        if len(discard) <= 1:
            return
        top = discard.pop()
        self.draw_pile.extend(discard)
        discard.clear()
        discard.append(top)
        self.rng.shuffle(self.draw_pile)
        if "reshuffled" in self._watch:
            self.emit("reshuffled", {"player": self.current, "count": len(self.draw_pile)})

    def turn_over(self, side: int) -> None:
        """Show face `side` of every card; piles turn over as a whole (FLIP-8)."""
        self.side = side
        kinds = self.variant.kinds
        for card in self.cards:
            card.show(side, kinds)
        self.draw_pile.reverse()
        self.discard_pile.reverse()
        self.aside.reverse()

    def _score(self) -> None:
        w = self.round_winner
        assert w is not None
        scoring = self.variant.scoring
        held = [sum(c.points for c in hand) for hand in self.hands]
        if scoring.round == "winner_scores_others":
            gained = [0] * self.n
            gained[w] = sum(held) - held[w]
        else:
            gained = held[:]
            gained[w] = 0
        for q in range(self.n):
            self.scores[q] += gained[q]
        if "round_end" in self._watch:
            self.emit("round_end", {"player": w, "points": gained})
        if max(self.scores) >= scoring.target:
            best = max(self.scores) if scoring.winner == "highest" else min(self.scores)
            self.winner = self.scores.index(best)
            if "game_end" in self._watch:
                self.emit("game_end", {"player": self.winner, "scores": list(self.scores)})


class _Unshuffled(random.Random):
    """A generator whose shuffle leaves the order alone (for stacked decks)."""

    def shuffle(self, x: Any, *args: Any) -> None:
        return None


class _All:
    """A set that contains every event name (used while recording)."""

    def __contains__(self, item: object) -> bool:
        return True


_ALL = _All()
