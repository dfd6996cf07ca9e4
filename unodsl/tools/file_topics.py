"""The topics of `unodsl explain` on the variant file's sections: deck, cards, round, turn,
scoring, teams, players out, moves, rules, options, design and extends."""

from __future__ import annotations

_DECK = """\
A one-sided deck lists `colors:` and `deck:` groups; `deck_size:` (optional) is
checked against their sum. Each group names one or more `kind`s from `cards:`,
optional `ranks:` (one number, `1-9`, or a list) and either `per_color:` (copies
in each colour; `colors:` may narrow them) or `count:` (colourless copies).

```yaml part
players: {min: 2, max: 3}     # checked: 3 hands of up to 10 (option hand_size) and a first card fit
colors: [red, blue]
deck_size: 44
deck:
  - {kind: number, ranks: 1-9, per_color: 2}
  - {kind: [skip, reverse], per_color: 1}
  - {kind: wild, count: 4}
```

A kind in `cards:` that no deck group names is reported as a warning.

A two-faced deck uses `sides:` instead: a list of `{name, colors, deck}`, one per
side, each listing as many cards; `pairing: shuffled` (default) or `in_order`
pairs the faces, and `flip()` turns everything over (see variants/flip.yaml)."""

_CARDS = """\
`cards:` has one entry per kind in the deck: `points:` (a number, or `rank` for
its face value), `wild: true` if it may be played on anything, `on_play:` (a
program run when it is played: `player` played it, `card` is it), `legal_if:`
(a condition on top of matching) and `description:`.

```yaml part
cards:
  skip:
    points: 20
    description: The next player misses a turn and draws a card.
    on_play: draw(next, 1); skip()
```"""

_MOVES = """\
Cards move without being played with `move(source, target, count)` (from the top
of one zone to another), `move_all(source, target)`, `put(card, zone)` (one card,
wherever it is) and `put_all(cards, zone)`: every card at once, wherever each
is, with one `hand_changed` per hand when all have moved — a hand emptied this
way goes out once, with no UNO call on the way down. `at: "bottom"` puts them
under the zone instead of on top (any other word is refused). `pass_hands()`
and `redeal(first, direction: -1)` move whole hands.

```unodsl at=cards.skip.on_play
put_all(filter(hand, c -> c.color == card.color), discard_pile, at: "bottom")
```

Draws are private: only the drawer sees the cards. `reveal(cards)` shows cards
to every player (`card_revealed`); a card in a hand stays known to all while it
stays there, and a player's information state and `resample` keep it. `draw`
and `draw_until` give the cards drawn, so cards turned up for everyone until a
colour shows are:

```unodsl at=cards.wild.on_play
named = choose_color(by: next);
set_color(named);
reveal(draw_until(next, c -> c.color == named));
skip()
```"""

_ROUND = """\
`round:` says how a round begins: `first_dealer:` (default seat 0, e.g.
`cut(c -> c.rank)`), `next_dealer:` (default `left_of(dealer)`) and `setup:`,
the program run by the dealer (`player`) that shuffles, deals and turns up the
first card. The player after the dealer starts, unless `start_with(p)` says
otherwise; `apply(top)` runs the first card's action.

```unodsl at=round.setup
shuffle(draw_pile); deal(5); turn_up(); start_with(dealer)
```"""

_TURN = """\
`turn:` says what a player may do: `match:` (when a card may go on the discard
pile; `card`, `top`, `current_color`), `must_play_if_able:` (then drawing is
only offered when nothing can be played) and `draw:` — `count:`,
`until_playable:` with `max:`, `allowed_if:`, and `then:` `may_play`,
`must_play` or `keep` for a playable drawn card.

`count:` (default 1) is a number, or an expression read at each draw (`player`
is who draws, and `random` may be used): a draw of 0 to 6 cards at random is
`count: "random(0, 6)"`. `until_playable: true` draws one card at a time until a
playable one comes or the draw pile (refilled from the discard pile) runs out;
`max:` caps it, as a number or an expression read when the draw begins.

```yaml part
turn:
  draw: {until_playable: true, max: 25 - count(hand), then: must_play}
```

```yaml part
turn:
  draw: {count: "random(0, 6)", then: keep}   # quoted: a comma inside {…} ends the value
```"""

_SCORING = """\
`scoring:` — `round: winner_scores_others` (the player who goes out scores the
others' cards) or `each_scores_own` (everyone else scores their own), `target:`
(the game ends when a total reaches it) and `winner: highest` or `lowest`.

```yaml part
scoring: {round: each_scores_own, target: 100, winner: lowest}
```

`game_over:` (optional) is a condition checked after each round's scoring and
its `round_end` rules, with `player` the round's winner: the game also ends when
it holds, and the best total wins. With `game_over:`, `target:` may be left out:
`game_over: "true"` is a one-round game, and with players put out of the game
(`eliminate(p, out_of: "game")`), `game_over: player_count == 1` is "the last
player standing wins".

```yaml part
scoring: {game_over: round_number == 3}
```

```yaml part
scoring: {round: winner_scores_others, game_over: "true", tie_break: -count(hand)}
```

A tie is a tie: when several players (teams) share the best total, every one of
them wins — `game_end` names them all in `winners` — unless `tie_break:` gives a
number for each tied player (`player`), and the highest wins (above: the fewest
cards left). A player, or a whole team, out of the last round never wins.

Scores can change during a round too: `add_score(who, points)` adds (points may
be negative), `set_score(who, points)` sets; with `teams:` they change the
team's score. `win_round(who)` ends the round with `who` as its winner, as if
they had gone out, once the turn in progress is over with its effects and
rules; the round is then scored as usual.

```yaml part
rules:
  - name: a wild scores 10 at once
    on: card_played
    if: card.wild
    do: add_score(player, 10)
  - name: a 7 on a 7 wins the round
    on: card_played
    if: card.rank == 7 and previous_top != none and previous_top.rank == 7
    do: win_round(player)
  - name: a 0 on a 0 loses every point
    on: card_played
    if: card.rank == 0 and previous_top != none and previous_top.rank == 0
    do: set_score(player, 0)
```"""

_TEAMS = """\
`teams:` makes partners, by seat: `opposite` pairs each seat with the one across
the table (every player count must then be even, e.g. `players: {min: 4, max:
4}`), or a list of teams, each a list of seats from 0 (every seat in exactly one
team, and the players exactly those seats). A team shares one score (each
partner's `score` is the team's) and wins the round when one of its players goes
out: `round: winner_scores_others` gives the winning team the points of the other
teams' hands; the game ends when a team reaches the `target`. The `round_end` and
`game_end` events carry the winner's `team`.

With teams, `opponents` are the players of the other teams, while `others(p)`
still gives every other player, partners too. `partner` is `player`'s first
partner in turn order, `teammates` all of them, and `team_of(p)` a player's team
number (without teams: their seat, each player a team of one).

```yaml part
players: {min: 4, max: 4}
teams: [[0, 1], [2, 3]]
cards:
  skip:
    on_play: skip(); if partner != none then draw(partner, 1)
rules:
  - name: a 7 makes every opponent draw one
    on: card_played
    if: card.rank == 7
    do: for o in opponents do draw(o, 1)
  - name: a 1 passed to a partner makes them draw one
    on: card_played
    if: card.rank == 1 and team_of(next) == team_of(player)
    do: for t in teammates do draw(t, 1)
```"""

_OUT = """\
`eliminate(who)` puts a player out of the round: their cards go under the draw
pile (or `eliminate(who, discard_pile, at: "top")`: where the variant says), and
until the next round, when they are back in, play passes over them and no name
gives them (`next`, `previous`, `players`, `opponents`, `others`, `next_of`,
`left_of`, `player_count` counts only the players in); the deal skips them and
no decision is put to them. A skip still passes over the seat of a player put
out during the same turn (so a draw that puts the next player out, followed by
`skip()`, does not skip the one after). When one player (with teams, one team)
is left, they win the round; a variant that wants another end calls `win_round`
from a rule `on: eliminated`. `is_out(p)` tells whether `p` is out.

A player out takes no part in anything that walks the table: `pass_hands` and
`redeal` pass and deal among the players still in, `draw`, `give` and
`swap_hands` give them no cards, and `choose_player` never offers them. With
`out_of: "game"` they stay out of every later round too (the deal skips them and
they never win the game): `scoring: {game_over: player_count == 1}` then ends
the game with the last player standing.

```yaml part
rules:
  - name: 20 cards or more and you are out
    on: hand_changed
    if: size >= 20
    do: eliminate(player)
  - name: 30 cards or more and you are out for good
    on: hand_changed
    if: size >= 30
    do: 'eliminate(player, out_of: "game")'
  - name: a player out's cards are shuffled in
    on: eliminated
    do: shuffle(draw_pile)
  - name: a dealer out makes the next player draw one
    on: eliminated
    if: is_out(dealer)
    do: draw(next, 1)
```

`seats` is every player at the table, in or out, so a rule can count those who
are out: here the round's winner scores 250 points for each player knocked out.

```yaml part
rules:
  - name: 250 points for each player knocked out
    on: round_end
    do: add_score(player, 250 * count(seats, s -> is_out(s)))
```"""

_RULES = """\
`rules:` is a list; each rule waits for an event (`on:`), tests a condition over
its fields (`if:`, optional) and runs a program (`do:`). Its `name:` is shown by
`unodsl run -v` when it fires. Rules queued by one step run after that step, in
order. The events and their fields: `unodsl explain events`.

```yaml part
rules:
  - name: a seven makes everyone else draw one
    on: card_played
    if: card.rank == 7
    do: for o in opponents do draw(o, 1)
```"""

_OPTIONS = """\
`options:` names switches a player turns on with `-o NAME` (or off with
`-o NAME=off`); `default: true` makes one on unless asked. Each option's `set:`
is a patch merged into the file when it is on, as an overlay is (see below):
maps merge, lists replace, `rules:` merge by name, and `null` removes a key.

```yaml part
options:
  short_game:
    description: First to 200 points.
    set:
      scoring: {target: 200}
```"""

_EXTENDS = """\
`extends:` names a shipped variant (see `unodsl list`) or a path (relative to
the file) that this file changes; the file states only what differs. Maps merge
(so `cards:` adds or changes kinds), lists replace, and `null` removes a key.
Chains are allowed (an overlay of an overlay); a cycle is an error.

```yaml
extends: base.yaml
name: Quick game
description: The base game to 200 points, and the first round dealt by seat 0.
round:
  first_dealer: null
scoring:
  target: 200
```

Two lists merge so that an overlay can add to them:

- `rules:` merge **by `name:`**: a rule with an inherited rule's name replaces
  it in place, a new name is added after the inherited rules, and
  `{name: NAME, remove: true}` removes one. Every rule an overlay gives needs a
  name (one without is an error: it could not be told apart from the inherited
  ones). Leaving `rules:` out keeps the inherited rules; `rules: null` removes
  them all.
- `deck:` may be `{add: [groups]}`, appended to the inherited deck (which stays
  as it is), or `{replace: [groups]}`. A plain list still replaces the whole
  deck, with a warning, since that is how an overlay loses cards it meant to
  keep; `{replace: …}` says it is meant. `sides:` takes the same forms. A
  `deck_size:` inherited from the base must be set again when groups are added.

This overlay of `base.yaml` (the official rules) adds a rule and four blank
wild cards, makes a missed UNO cost two cards at once, and drops the two rules
that let a missed UNO be caught later:

```yaml
extends: base.yaml
name: Blanks and sevens
deck_size: 112
deck:
  add:
    - {kind: blank, count: 4}
cards:
  blank:
    points: 10
    wild: true
    description: Plays on anything; the colour stays.
rules:
  - name: a seven makes everyone else draw one
    on: card_played
    if: card.rank == 7
    do: for o in opponents do draw(o, 1)
  - name: "COM-2: say UNO when one card is left"
    on: hand_changed
    if: size == 1 and previous_top != none
    do: if not ask(player, "call_uno") then draw(player, 2)
  - {name: "COM-2: a missed UNO can be caught until the next turn starts", remove: true}
  - {name: "COM-2: a hand that no longer holds one card can't be caught", remove: true}
```

The shipped house rules are overlays in `variants/house/`, run by name
(`unodsl run house/seven_zero`; `unodsl list` shows them)."""

_DESIGN = """\
`design:` holds the designer's targets. No game reads them; the balance lab
(`unodsl analyze`, docs/analyze.md) reports against them and the tuner (`unodsl
tune`, docs/tune.md) searches for values that meet them. Every key but `vary`
names a figure of the lab (its `--json` name) and gives a target: `[lo, hi]`,
`{min: …}`, `{max: …}` (or both), `{goal: lowest}` or `{goal: highest}`, or
targets on its sub-figures by name: `turns_per_round: {median: [25, 45]}` is a
target on `turns_per_round.median`, `card_power: {spread: {max: 0.15}}` on
`card_power.spread`. A share is a fraction (0.02 is 2 points). A two-sided bound
on `turns_per_round` or `rounds_per_game` is also the ideal range the lab scores
each round (or game) against (Ludii's IdealDuration).

`vary:` says what `unodsl tune` may change, each with `[lo, hi]` or `true` (its
whole declared range): a number option, a switch (`true`: off and on),
`count.KIND` (the copies of a card kind in its one deck group: per colour in a
`per_color` group, else its `count`), or `deal` (the number option that
`round.setup` deals: `deal(option.hand_size)`). Nothing else changes. A figure
the lab does not compute, a range that runs backwards, a goal with a bound, a
`vary:` entry the file does not declare, or an empty `vary:` is an error at its
position.

```yaml part
design:
  turns_per_round: [20, 60]
  first_seat_advantage: {max: 0.02}
  longest_wait: {p95: {max: 6}}
  vary:
    target: [300, 700]
    draw_until_playable: true
```"""

SECTIONS: dict[str, tuple[str, str]] = {  # name → (title, Markdown)
    "deck": ("The deck: colors, deck, sides", _DECK),
    "cards": ("Card kinds: cards", _CARDS),
    "round": ("The round: round", _ROUND),
    "turn": ("The turn: turn", _TURN),
    "scoring": ("Scoring: scoring", _SCORING),
    "teams": ("Teams: teams", _TEAMS),
    "out": ("Players out of the round: eliminate", _OUT),
    "moves": ("Moving and showing cards: put_all, reveal", _MOVES),
    "rules": ("House rules: rules", _RULES),
    "options": ("Options: options", _OPTIONS),
    "design": ("The designer's targets: design", _DESIGN),
    "extends": ("Overlays: extends", _EXTENDS),
}
