"""The table's operations: cards played, drawn and shuffled, who is seated and whose turn
comes next, what may be played, and scoring. The primitives of the language and the
flow of rounds and turns (flow.py) are written with these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import floor
from operator import attrgetter
from random import Random
from typing import Any

from ..errors import RunawayRound, RuntimeFault, UnoDslError, VariantRuntimeError
from ..lang.compile import MAX_INT
from ..lang.program import Program
from .cards import Card
from .events import hand_zone
from .frames import new_run
from .machine import Machine
from .template import Template, function

_points = attrgetter("points")

# The seats in turn order from each seat, by (players, direction) (see seats_from).
_ORDERS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


class Table(Machine):
    """Cards, seats, legality and scores."""

    # -- cards ----------------------------------------------------------------------
    play = function(Template("play", doc=(
        "`p` plays `card`: put down, the rules that queued, then its on_play (unless not `effect`); "
        "True if a player must be asked before it is all done. Not counted as nesting: each play takes "
        "a card from a hand, so plays end."), params=("p", "card", "effect"), defaults=("True",), body="""
        $hand = %hands[$p]
        $hand.remove($card)
        if not $hand and g.emptied is None:
            g.emptied = $p
        if g.revealed:
            g._still_shown($p)
        $pile = %discard_pile
        g.previous_top = $pile[-1] if $pile else None
        $pile.append($card)
        if $card.color is not None:
            g.current_color = $card.color
        #if loud_play:
            if g.played is not None:
                g.played[$card.kind_id] += 1
            #if tell_play and watched(card_played):
                #emit card_played {'player': $p, 'card': $card}
            #if tell_play and watched(hand_changed):
                #emit hand_changed {'player': $p, 'size': len($hand)}
        #if $effect:
            $program = $card.on_play
        #else:
            $program = ()
        $paused = False
        #if rules and g._queue and g.drain():
            $paused = g.after_rules($program, $p, $card)
        #elif $program:
            $run = $card.run
            $env = {'player': $p, 'card': $card}
            $paused = $run(g, $env) if $run is not None else g.perform($program, $env)
    """, value="$paused"), __name__)

    def after_rules(self, program: Program, p: int, card: Card) -> bool:
        """The rules a play queued wait for a player: the card's effect (if it has one) runs
        after them. True: the play paused."""
        if program:
            self._paused.append(new_run((program, 0, {"player": p, "card": card}, 0)))
        return True

    draw = function(Template("draw", doc="`p` draws up to `count` cards; an empty pile is refilled (COM-1).",
                             params=("p", "count"), body="""
        $pile = %draw_pile
        if $count == 1 and $pile and not g._loud_draw:
            $got = [$pile.pop()]
            %hands[$p] += $got
        else:
            $got = g._draw($p, $count)
    """, value="$got"), __name__)

    draw_one = function(Template("draw_one", doc="`p` draws a card (draw, for one card).", params=("p",), body="""
        #if not loud_draw and %draw_pile:
            $got = [%draw_pile.pop()]
            %hands[$p] += $got
        #else:
            $got = g._draw($p, 1)
    """, value="$got"), __name__)

    def _draw(self, p: int, count: int) -> list[Card]:
        pile = self.draw_pile
        hand = self.hands[p]
        if 0 < count <= len(pile) and not (self._loud_draw and "card_drawn" in self._watch):
            # all there, and no card told one by one: taken at once, top first
            if count == 1:
                got = [pile.pop()]
            else:
                got = pile[:-count - 1:-1]
                del pile[-count:]
            hand += got
        else:
            got = []
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
                if self._loud_draw and "card_drawn" in self._watch:
                    self.emit("card_drawn", {"player": p, "card": card})
        if got and self._loud_draw and "hand_changed" in self._watch:
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
        self.shuffle(self.draw_pile)
        if "reshuffled" in self._watch:
            self.emit("reshuffled", {"player": self.current, "count": len(self.draw_pile)})

    def shuffle(self, zone: list[Card]) -> None:
        """Shuffle a pile with the game's generator: Fisher–Yates, each index from
        one random() (its bias, under k / 2**53 for k cards, is far below anything a
        simulation could see; random.shuffle's exact draws cost half as much again)."""
        if self._stacked is None:
            rand = self.rng.random
            for i in range(len(zone) - 1, 0, -1):
                j = floor(rand() * (i + 1))  # int() for a value ≥ 0, without the call of a type
                zone[i], zone[j] = zone[j], zone[i]

    @property
    def rng(self) -> Random:
        raise NotImplementedError  # (Game's)

    def turn_over(self, side: int) -> None:
        """Show face `side` of every card: the other side's cards take their places;
        piles turn over as a whole (FLIP-8)."""
        self.side = side
        cards = self.cards = self._decks[side]
        self._plays = self._all_plays[side]
        for zone in (self.draw_pile, self.discard_pile, self.aside, *self.hands):
            zone[:] = [cards[c.id] for c in zone]
        self.draw_pile.reverse()
        self.discard_pile.reverse()
        self.aside.reverse()
        if self.previous_top is not None:
            self.previous_top = cards[self.previous_top.id]

    def zones(self) -> dict[str, list[Card]]:
        """Every zone by name: the piles, the aside area and each hand."""
        zones = {"draw_pile": self.draw_pile, "discard_pile": self.discard_pile, "aside": self.aside}
        zones.update({hand_zone(p): h for p, h in enumerate(self.hands)})
        return zones

    def zone_name(self, zone: list[Card]) -> str:
        for name, z in self.zones().items():
            if z is zone:
                return name
        return "cards"

    def by_labels(self, wanted: Mapping[str, Sequence[str]]) -> dict[str, list[Card]]:
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

    def reset_round(self) -> None:
        """A new round's table: every card back in the draw pile (the first round's are
        already there), everyone back in but those out of the game."""
        if self.round == 1:  # a new game: everything is as the start left it but the draw pile
            self.draw_pile[:] = self.cards if self._stacked is None else self.by_labels(
                {"draw": self._stacked})["draw"]
            return
        if self.side != 0:
            self.turn_over(0)
        for zone in (self.discard_pile, self.aside, *self.hands):
            zone.clear()
        self.draw_pile[:] = self.cards
        for flags in self.flags:
            flags.clear()
        self.revealed.clear()
        self.direction = 1
        self.current_color = None
        self.previous_top = None
        self.penalty = 0
        self.penalty_answer = None
        self.skips = 0
        self.again = False
        self.next_override = None
        self.round_winner = None
        self.emptied = None
        self.offered = None
        self.turns = 0
        if self.played is not None:
            self.played = [0] * len(self.played)
        self.out, self._newly_out = self.out_of_game, frozenset()
        self.bent = bool(self.out)

    # -- hands ----------------------------------------------------------------------
    def took_from_hand(self, p: int) -> None:
        """Note that cards left `p`'s hand (every primitive that takes cards from a
        hand calls this): an empty hand ends the round after the current step, and a
        card shown to everyone that left it is private again wherever it goes."""
        if self.emptied is None and not self.hands[p]:
            self.emptied = p
        if self.revealed:
            self._still_shown(p)

    def reveal(self, card: Card, holder: int | None) -> None:
        """Show `card` to every player (card_revealed); held by `holder`, it stays known
        while it stays in their hand (a hand passed or swapped whole keeps it known)."""
        if holder is not None:
            self.revealed[card.id] = holder
        if "card_revealed" in self._watch:
            self.emit("card_revealed", {"player": self.current if holder is None else holder, "card": card})

    def shown(self, p: int) -> list[Card]:
        """The cards of `p`'s hand that everyone has seen (see reveal)."""
        revealed = self.revealed
        return [c for c in self.hands[p] if revealed.get(c.id) == p] if revealed else []

    def hands_moved(self, to: Mapping[int, int | None]) -> None:
        """Whole hands moved (old seat → new seat): cards shown stay shown in their new seat;
        a hand sent to None (a pile, a deal face down) is private again."""
        if self.revealed:
            moved = {c: to.get(q, q) for c, q in self.revealed.items()}
            self.revealed = {c: q for c, q in moved.items() if q is not None}

    def _still_shown(self, p: int) -> None:
        held = {c.id for c in self.hands[p]}
        self.revealed = {c: q for c, q in self.revealed.items() if q != p or c in held}

    def went_out(self) -> bool:
        """End the round if a hand is empty, once the step that emptied it is over
        (a set-up, a turn with its effects and rules): the winner is the first hand
        emptied since the last check, or else the first empty hand in seat order.
        The turn calls it only when `emptied` is set, so it scans no hands."""
        first, self.emptied = self.emptied, None
        if self.round_winner is not None:  # already won (win_round, or the last player left)
            return True
        hands, out = self.hands, self.out
        if first is not None and not hands[first] and first not in out:
            self.round_winner = first
        elif not all(hands):
            self.round_winner = next((q for q, h in enumerate(hands) if not h and q not in out), None)
        return self.round_winner is not None

    # -- seats ----------------------------------------------------------------------
    def seated(self, p: int) -> bool:
        """True if `p` takes part in the round: not out (see put_out). Every primitive that
        walks the table, deals, passes, gives or asks goes by this (or in_order/next_in)."""
        return p not in self.out

    def next_in(self, p: int, step: int = 1, direction: int | None = None) -> int:
        """The player `step` places after `p` among those still in (in the current
        direction, or `direction`); step 0: `p` if they are in, else the next one in."""
        d = self.direction if direction is None else direction
        n, out = self.n, self.out
        if not out:
            return (p + step * d) % n
        if step == 0:
            step = 1
            p = (p - d) % n
        for _ in range(n):
            p = (p + d) % n
            if p not in out:
                step -= 1
                if step == 0:
                    return p
        return p

    def seats_from(self, p: int) -> Sequence[int]:
        """Every player still in, in turn order from `p` (as in_order), for reading only:
        without players out, a tuple shared by all games of as many players."""
        if self.out:
            return self.in_order(p)
        orders = _ORDERS.get((self.n, self.direction))
        if orders is None:
            n, d = self.n, self.direction
            orders = _ORDERS[(n, d)] = tuple(tuple((q + i * d) % n for i in range(n)) for q in range(n))
        return orders[p]

    def in_order(self, p: int, direction: int | None = None) -> list[int]:
        """Every player still in, in turn order from `p` (first, if `p` is in)."""
        d = self.direction if direction is None else direction
        n, out = self.n, self.out
        return [q for q in ((p + i * d) % n for i in range(n)) if q not in out]

    def team(self, p: int) -> int:
        """`p`'s team number (with `teams:`), else `p`: each player is a team of one."""
        return p if self.team_of is None else self.team_of[p]

    def put_out(self, p: int, for_game: bool = False) -> None:
        """`p` is out of the round (see the effect eliminate), and of every later round
        `for_game`: play passes over them. When one player, or the players of one team,
        are left, the first of them wins the round. The last player in is never put out."""
        if p in self.out or len(self.out) >= self.n - 1:
            return
        self.out |= {p}
        self.bent = True
        if for_game:
            self.out_of_game |= {p}
        self._newly_out |= {p}
        left = [q for q in range(self.n) if q not in self.out]
        if len({self.team(q) for q in left}) == 1:
            self.win_round(left[0])

    def win_round(self, p: int) -> None:
        """The round ends with `p` its winner once the step in progress is over (the
        turn, with its effects and rules); a round already won keeps its winner, and a
        player who is out never wins it."""
        if self.round_winner is None and p not in self.out:
            self.round_winner = p

    advance = function(Template("advance", doc=(
        "Whose turn is next: the next player in the direction of play, or as the turn asked (`bent`: "
        "skips, another turn, a chosen next player, players out; see advance_bent)."), body="""
        if g.bent:
            g.advance_bent()
        else:
            g.current = (g.current + g.direction) % g.n
    """), __name__)

    def advance_bent(self) -> None:
        """Whose turn is next when the turn bent the order (see flow.advance): the chosen
        next player, the same player again, or past the skipped ones; with players out,
        see advance_in."""
        if self.out:
            self.advance_in()
        else:
            if self.next_override is not None:
                self.current = self.next_override
            elif not self.again:
                if self.skips and "skipped" in self._watch:
                    for k in range(1, min(self.skips, self.n) + 1):  # each player is told once
                        self.emit("skipped", {"player": (self.current + k * self.direction) % self.n})
                self.current = (self.current + (self.skips + 1) * self.direction) % self.n
            self.skips, self.again, self.next_override = 0, False, None
        self.bent = bool(self.out)

    def advance_in(self) -> None:
        """Whose turn is next, when players are out (see advance_bent). A skip passes over the seats of the players
        who were in when the turn began (one put out during the turn, e.g. by the draw
        that came with the skip, still counts), and the turn lands on the next player
        still in from there."""
        out, gone = self.out, self._newly_out
        p, d, n = self.current, self.direction, self.n
        if self.next_override is not None:
            q = self.next_override
        elif self.again:
            q = p
        else:
            seats = [s for s in ((p + i * d) % n for i in range(1, n + 1)) if s not in out or s in gone]
            k = self.skips
            q = seats[k % len(seats)]
            if k and "skipped" in self._watch:
                for s in seats[:min(k, len(seats))]:  # each player still in is told once
                    if s not in out:
                        self.emit("skipped", {"player": s})
        self.current = self.next_in(q, 0) if q in out else q
        self.skips = 0
        self.again = False
        self.next_override = None
        self._newly_out = frozenset()

    # -- what may be played -------------------------------------------------------------
    playable = function(Template("playable", doc="True if `by` could legally play `card` now.", params=("card", "by"),
                                 body="""
        try:
            $test = $card.legal_if
            #if pure_match:
                $pile = %discard_pile
                $faces = %_memo[$pile[-1].face_id if $pile else -1].get(g.current_color)
                $faces = $faces if $faces is not None else g.matching_faces()
                $legal = $card.face_id in $faces and ($test is None or bool($test(g, {'player': $by, 'card': $card})))
            #else:
                $env = {'player': $by, 'card': $card}
                $legal = bool(g._match(g, $env)) and ($test is None or bool($test(g, {'player': $by, 'card': $card})))
        except (VariantRuntimeError, RecursionError):
            raise
        except Exception as $err:
            raise g.blame($err, {'player': $by, 'card': $card}) from $err
    """, value="$legal", globals={"VariantRuntimeError": VariantRuntimeError}), __name__)
    # (This is also the language's `playable`. Its conditions get their own variables: a
    # card's legal_if may ask whether other cards are playable.)

    def allows(self, card: Card, p: int) -> bool:
        """`card`'s legal_if holds for `p` now (read in the turn's variables, for blame)."""
        env = self._legal_env
        env["player"], env["card"] = p, card
        return bool(card.legal_if(self, env))  # type: ignore[misc]

    def matching_faces(self) -> frozenset[int]:
        """The faces that match the top card and colour now, computed once per
        (top face, colour) for the variant: a pure match reads nothing else."""
        pile = self.discard_pile
        face = pile[-1].face_id if pile else -1
        color = self.current_color
        memo = self._memo
        assert memo is not None
        by_color = memo[face]  # two plain lookups: no key tuple to build and hash
        faces = by_color.get(color)
        if faces is None:
            env: dict[str, Any] = {"player": self.current}
            matching = set()
            for card in {c.face_id: c for d in self._decks for c in d}.values():
                env["card"] = card
                if self._match(self, env):
                    matching.add(card.face_id)
            faces = by_color[color] = frozenset(matching)
        return faces

    def blame(self, err: Exception, env: dict[str, Any] | None = None) -> VariantRuntimeError:
        """`err` came from the match, a card's legal_if or the draw rule's allowed_if
        (conditions have no effects), given `env` (by default the turn's): the first
        that fails again is to blame."""
        env = self._legal_env if env is None else env
        card = env.get("card")
        for test in (self._match, getattr(card, "legal_if", None), self._draw_rule.allowed_if):
            if test is None:
                continue
            try:
                test(self, dict(env))
            except Exception:
                return self.fault(err, test)
        return self.fault(err, None)

    def amount(self, amount: Any, p: int) -> Any:
        """A number of the turn's draw rule: written, or its expression's value for `p`."""
        if amount is None or type(amount) is int:
            return amount
        value = self._value(amount, p)
        if value is None or value < 0:
            raise self.fault(RuntimeFault(f"the number of cards to draw is {value}; it must be 0 or more"),
                              amount)
        return value

    def runaway(self) -> None:
        raise RunawayRound(f"round {self.round} passed {self.max_turns:,} turns with no "
                           "winner (raise max_turns, or check the variant's rules)")

    # -- scores -------------------------------------------------------------------------
    def add_score(self, p: int, points: int) -> None:
        """Add `points` to `p`'s score: with teams, to every score of `p`'s team. A score
        past MAX_INT is a runaway (it doubled every play) and stops the game."""
        for q in range(self.n) if self.team_of is not None else (p,):
            if self.team(q) == self.team(p):
                score = self.scores[q] + points
                if not -MAX_INT <= score <= MAX_INT:
                    raise RuntimeFault(f"a score grew past {MAX_INT:,} (the most a game may count)")
                self.scores[q] = score

    def score_round(self) -> None:
        """The round is over: its points are scored and round_end is told."""
        w = self.round_winner
        assert w is not None
        self.round_turns.append(self.turns)
        scoring = self.variant.scoring
        held = [sum(map(_points, hand)) for hand in self.hands]
        if self.team_of is not None:
            gained = self._team_gains(w, held)
        elif scoring.round == "winner_scores_others":
            gained = [0] * self.n
            gained[w] = sum(held) - held[w]
        else:
            gained = held[:]
            gained[w] = 0
        for q in range(self.n):
            self.scores[q] += gained[q]
        if max(map(abs, self.scores)) > MAX_INT:
            raise RuntimeFault(f"a score grew past {MAX_INT:,} (the most a game may count) in round {self.round}")
        if "round_end" in self._watch:
            self.emit("round_end", {"player": w, "points": gained, "team": self.team(w)})

    def _team_gains(self, w: int, held: list[int]) -> list[int]:
        """What each seat gains this round with teams: all of a team gains its total."""
        team_of = self.team_of
        assert team_of is not None
        won = team_of[w]
        totals: dict[int, int] = {}
        for q, points in enumerate(held):
            totals[team_of[q]] = totals.get(team_of[q], 0) + points
        if self.variant.scoring.round == "winner_scores_others":
            others = sum(v for t, v in totals.items() if t != won)
            return [others if team_of[q] == won else 0 for q in range(self.n)]
        return [0 if team_of[q] == won else totals[team_of[q]] for q in range(self.n)]

    def game_over(self) -> None:
        """After a round and its round_end rules: the game ends when a score reaches the
        target or `game_over` holds; then autoplay's rounds may be done."""
        scoring = self.variant.scoring
        target = scoring.target
        w = self.round_winner
        assert w is not None
        if ((target is not None and max(self.scores) >= target)
                or (scoring.game_over is not None and self._holds(scoring.game_over, w))):
            self.winners = self._winners()
            self.winner = self.winners[0]
            if "game_end" in self._watch:
                self.emit("game_end", {"player": self.winner, "winners": list(self.winners),
                                       "scores": list(self.scores), "team": self.team(self.winner)})
        if self._stop_after is not None and len(self.round_turns) >= self._stop_after:
            self._agents = None  # autoplay's rounds are done: the next decision waits

    def _winners(self) -> tuple[int, ...]:
        """The seats with the best total among the teams still in (a team is out when all
        its players are), in seat order; the variant's tie-break, if any, settles a tie
        between teams (the highest value wins). More than one team left: a tie."""
        scoring = self.variant.scoring
        teams_in = {self.team(q) for q in range(self.n) if q not in self.out}
        seats = [q for q in range(self.n) if self.team(q) in teams_in]
        pick = max if scoring.winner == "highest" else min
        best = pick(self.scores[q] for q in seats)
        tied = [q for q in seats if self.scores[q] == best]
        if scoring.tie_break is not None and len({self.team(q) for q in tied}) > 1:
            values = {q: self._value(scoring.tie_break, q) for q in tied}
            top = max(values.values())
            tied = [q for q in tied if values[q] == top]
        return tuple(tied)
