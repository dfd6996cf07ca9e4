"""A tight hand-written UNO round loop: the pure-Python limit the engine is measured against.

    python tests/benchmarks/handwritten_uno.py [--games N] [--players 2 4] [--check]

It plays the rules of `rlcard_mirror.yaml` (see bench_vs_rlcard.py), one round
per game, random legal play:
- 108 cards: per colour one 0, two each of 1-9, Skip, Reverse, Draw Two; four
  Wild and four Wild Draw Four. Seven cards each; the dealer is the last seat,
  so seat 0 plays first.
- First card: a Wild Draw Four goes back and the draw pile is reshuffled; a Wild
  gets a random colour; a Reverse turns play round and the dealer starts; a Draw
  Two makes seat 0 draw two (seat 0 still plays); a Skip skips seat 0.
- A player who can play must; the card is picked uniformly among the legal cards
  in hand (each copy counts), then a wild's colour uniformly. Otherwise they draw
  one, and a playable drawn card is played at once.
- Reverse has no two-player special case (it only turns play round); Draw Two and
  Wild Draw Four: the next player draws and is skipped. A Wild Draw Four is legal
  only if no other card in hand is playable.
- An empty draw pile takes the discard pile but its top, reshuffled.
- A turn is one player's turn: one play, or one draw (and the drawn card's play).

Cards are ints: colour + 4 * rank for rank 0-9 (numbers), 10 Skip, 11 Reverse,
12 Draw Two; Wild is 52 and Wild Draw Four 53. The colour to match is `col`,
the rank to match `rank` (13 after a wild: nothing matches by rank).
"""

from __future__ import annotations

import argparse
import random
import time

SKIP, REVERSE, DRAW_TWO, WILD, WD4, NO_RANK = 10, 11, 12, 52, 53, 13
DECK = [c + 4 * r for c in range(4) for r in range(13) for _ in range(1 if r == 0 else 2)] + [WILD] * 4 + [WD4] * 4
SORTED_DECK = sorted(DECK)
# PLAYABLE[col * 14 + rank]: the cards that match, Wild included, Wild Draw Four not.
PLAYABLE = [frozenset([WILD] + [c for c in range(52) if c & 3 == col or c >> 2 == rank])
            for col in range(4) for rank in range(14)]


def check(hands: list[list[int]], pile: list[int], discard: list[int]) -> None:
    """Every card is somewhere, once."""
    cards = sorted([c for h in hands for c in h] + pile + discard)
    assert cards == SORTED_DECK, f"{len(cards)} cards, or a changed multiset"


def _round(n: int, rng: random.Random, checking: bool = False) -> int:
    rnd = rng.random

    def shuffle(cards: list[int]) -> None:  # sorting by random keys: uniform, and faster than rng.shuffle
        cards.sort(key=lambda _: rnd())

    pile = DECK[:]
    shuffle(pile)
    hands = [pile[7 * p:7 * p + 7] for p in range(n)]
    del pile[:7 * n]
    top = pile.pop()
    while top == WD4:
        pile.append(top)
        shuffle(pile)
        top = pile.pop()
    discard = [top]
    cur, d = 0, 1
    if top == WILD:
        col, rank = int(rnd() * 4), NO_RANK
    else:
        col, rank = top & 3, top >> 2
        if rank == SKIP:
            cur = 1 % n
        elif rank == REVERSE:
            d, cur = -1, n - 1
        elif rank == DRAW_TWO:
            hands[0] += pile[-2:]
            del pile[-2:]
    turns = 0
    while True:
        if checking:
            check(hands, pile, discard)
        turns += 1
        hand = hands[cur]
        match = PLAYABLE[col * 14 + rank]
        legal = list(filter(match.__contains__, hand))
        if not legal and WD4 in hand:
            legal = [WD4]
        if legal:
            c = legal[int(rnd() * len(legal))]
            hand.remove(c)
        else:
            if not pile:
                pile = discard[:-1]
                del discard[:-1]
                shuffle(pile)
                if not pile:  # every other card is in a hand: the turn passes
                    cur = (cur + d) % n
                    continue
            c = pile.pop()
            if c not in match and c != WD4:  # nothing else was playable: a drawn WD4 is legal
                hand.append(c)
                cur = (cur + d) % n
                continue
        discard.append(c)
        if not hand:
            if checking:
                check(hands, pile, discard)
            return turns
        if c < WILD:
            col, rank = c & 3, c >> 2
            if rank < SKIP:
                cur = (cur + d) % n
                continue
            if rank == REVERSE:
                d = -d
                cur = (cur + d) % n
                continue
            if rank == SKIP:
                cur = (cur + d + d) % n
                continue
            count = 2
        else:
            col, rank = int(rnd() * 4), NO_RANK
            if c == WILD:
                cur = (cur + d) % n
                continue
            count = 4
        nxt = (cur + d) % n
        victim = hands[nxt]
        for _ in range(count):  # one at a time: the pile may run out and be refilled midway
            if not pile:
                pile = discard[:-1]
                del discard[:-1]
                shuffle(pile)
                if not pile:
                    break
            victim.append(pile.pop())
        cur = (nxt + d) % n


def play_round(players: int, seed: int, checking: bool = False) -> int:
    """One game (one round) from its own seeded generator; returns its turns."""
    return _round(players, random.Random(seed), checking)


def run(games: int, players: int, seed: int, checking: bool = False) -> int:
    """`games` games from one seeded generator; returns the total of their turns."""
    rng = random.Random(seed)
    return sum(_round(players, rng, checking) for _ in range(games))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="assert card conservation every turn")
    args = parser.parse_args()
    for players in args.players:
        start = time.perf_counter()
        turns = run(args.games, players, args.seed, args.check)
        elapsed = time.perf_counter() - start
        print(f"{players} players: {args.games / elapsed:9.0f} games/s {turns / elapsed:10.0f} turns/s "
              f"{turns / args.games:7.1f} turns/game")


if __name__ == "__main__":
    main()
