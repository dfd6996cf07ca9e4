"""The topics of `unodsl explain` on the expression language: syntax, statements, lambdas,
variables, operators, types, none, choices and how the bots answer them."""

from __future__ import annotations

_SYNTAX = """\
A condition (`legal_if:`, `turn.match:`, a rule's `if:`) is one **expression**.
An effect (`on_play:`, `round.setup:`, a rule's `do:`) is a **program**: statements
separated by `;` (a trailing `;` is allowed). Brackets `( … )` group statements
into one, which is how a `then` or a `do` runs several. `#` starts a comment to
the end of the line. Text is written `"red"` or `'red'`; numbers are whole.

```unodsl at=cards.skip.on_play
draw(next, 2);   # the next player draws two
skip()           # and loses their turn
```

A call names its arguments in order, or by name after the others:
`draw(next, count: 2)`. See `unodsl explain NAME` for each function."""

_IF = """\
`if CONDITION then STATEMENT else STATEMENT` runs one branch; the `else` part may
be left out in a program. Used as a value, an `if` needs its `else`.
`else if` chains:

```unodsl at=cards.number.on_play
if card.rank == 0 then draw(next, 1) else if card.rank == 7 then skip()
```

A branch that does several things is bracketed:

```unodsl at=cards.reverse.on_play
if player_count == 2 then skip() else (reverse(); flag(player, "reversed"))
```"""

_FOR = """\
`for NAME in LIST do STATEMENT` runs the statement once per item, with `NAME` set
to it. The list is worked out once, before the first run: `players`,
`opponents`, `others(p)`, a zone such as `hand`, or a list `[a, b]`.

```unodsl at=cards.skip.on_play
for o in opponents do draw(o, 1)
```"""

_WHILE = """\
`while CONDITION do STATEMENT` repeats while the condition holds. The condition
is tested before each run; a loop that never ends is stopped with an error after
10,000 runs. This set-up turns up another card while the first is wild:

```unodsl at=round.setup
shuffle(draw_pile);
deal(7);
turn_up();
while top.wild do (move(discard_pile, draw_pile); shuffle(draw_pile); turn_up())
```"""

_REPEAT = """\
`repeat COUNT do STATEMENT` runs the statement COUNT times (worked out once; 0 or
less runs it never, more than 10,000 is an error).

```unodsl at=cards.skip.on_play
repeat 2 do draw(next, 1); skip()
```"""

_LAMBDA = """\
`NAME -> EXPRESSION` is a one-argument function, for the functions that take a
test or a value: `any`, `all`, `count`, `filter`, `cut`, `draw_until`,
`pending_draw`. A lambda can't ask a player (no `choose_…` or `ask` inside).

```unodsl at=cards.wild.legal_if
not any(hand, c -> c.color == current_color)
```"""

_VARIABLES = """\
`NAME = EXPRESSION` keeps a value for the rest of the program (and inside its
loops). A name of the language (`top`, `hand`, `player`, …) can't be given a
value. Variables help to ask first and act later:

```unodsl at=cards.wild.on_play
guilty = any(hand, c -> c.color == current_color);
set_color(choose_color());
if guilty then draw(player, 1)
```"""

_OPERATORS = """\
From the loosest to the tightest binding:

| operators | meaning |
|---|---|
| `NAME -> e`, `if … then … else …` | lambda, conditional |
| `or` | true if either side is (the right side is only worked out when needed) |
| `and` | true if both sides are (the right side is only worked out when needed) |
| `not` | negation |
| `==` `!=` `<` `<=` `>` `>=`, `in` | comparison (one per expression: no `a < b < c`), membership |
| `+` `-` | addition, subtraction |
| `*` `/` `%` | multiplication, whole division (rounded down), remainder |
| `-` (prefix) | negation |
| `.NAME` | attribute: `card.rank`, `next.hand` |

`=` alone gives a variable a value: write `==` to compare. `&&`, `||` and `!`
do not exist: write `and`, `or`, `not`.

```unodsl at=turn.match
card.wild or card.color == current_color or (card.rank != none and card.rank == top.rank)
  or card.symbol == top.symbol
```"""

_TYPES = """\
Every expression has a type, checked before a game is played:

| type | values | examples |
|---|---|---|
| `int` | whole numbers | `7`, `card.rank`, `count(hand)` |
| `bool` | `true`, `false` | `top.wild`, `flagged(p, "uno_missed")` |
| `str` | text | `"call_uno"`, `card.kind`, `side` |
| `color` | a colour of the deck, written as text | `"red"`, `current_color` |
| `card` | one card | `card`, `top`, `previous_top` |
| `player` | a seat | `player`, `next`, `dealer` |
| `zone` | a pile or a hand, a list of cards | `hand`, `draw_pile`, `discard_pile`, `aside` |
| `players`, `cards` | lists | `opponents`, `filter(hand, c -> c.wild)` |
| `fn` | a lambda | `c -> c.rank` |

A comparison that can never be true (a rank with a colour, a card with a
number) is refused with its position. Text compared with a colour or a kind
must name one: `card.kind == "skipp"` is reported. `none` is the value of
nothing: see `unodsl explain none`."""

_NONE = """\
`none` is the value of "nothing". It appears where there is no value:

- the `rank` of a card without a number (an action card) and the `color` of a
  colourless (wild) card;
- `previous_top` before a second card has been played, `top` with an empty
  discard pile, `top_of(zone)` of an empty zone, a card's `back` on a one-sided
  deck;
- `choose_card(…)` from no cards and `choose_player(…)` from nobody (the player
  is not asked);
- the value of an effect, and of an `if` without `else`.

Compare with it (`card.rank == none`, `previous_top != none`) before reading
further, and let `and` stop early: its right side is only worked out when the
left is true.

```unodsl at=turn.match
card.wild or card.color == current_color
  or (previous_top != none and card.symbol == top.symbol)
```

A test of a card's kind tells what every card of that kind has: if each kind
but `wild` has a rank, `c.kind == "wild" or c.rank >= 2` needs no test of the
rank (this works through `and`, `or`, `not`, `==`, `!=` and `in [...]`).

Every mistake of an expression is reported, each at its own line and column,
not only the first.

`cut(c -> c.rank)` counts a card whose value is none as 0."""

_CHOICES = """\
A choice asks a player and gives the answer: `choose_color()` (a colour of the
side in play), `choose_player(options)`, `choose_card(options)` (with `for:
"to give away"`, the player is asked "pick a card to give away"),
`choose_number(lo, hi)` (a whole number from `lo` to `hi`, at most 1,000 of them)
and `ask(who, "question")` (yes or no). The compiler asks them before the statement
they are in runs, in the order they are written; so a choice can't be inside a
lambda, a `while` condition, the right side of `and`/`or`, or an `if` used as a
value. Each answer is sent as a `choice` event.

```unodsl at=cards.skip.on_play
target = choose_player(opponents);
if target != none then draw(target, 1);
skip()
```

A choice with a single possible answer is taken without asking. How the bots
answer: see `unodsl explain bots`.

A rule `on: choice` reads the answer as `value`: the card played (a turn, a
drawn card played, a jump-in), `"draw"`, `"keep"` or `"pass"`, a colour, a
seat, a card, a number, or true or false. Comparing it with any other text never holds,
so the checker refuses it (`value == "drwa"`: did you mean "draw"?).

```yaml part
rules:
  - name: a player who draws instead of playing is marked
    on: choice
    if: kind == "turn" and value == "draw"
    do: flag(player, "drew")
```"""

_BOTS = """\
`unodsl run`, `simulate` and `play` seat bots (`--agents greedy,random`):

- **random** picks uniformly among the legal options, from the game's seeded
  generator (same seed, same game).
- **greedy** plays its legal card with the most points (it draws only when it
  has no play, and plays a drawn card when it can; of the plays a variant declares
  with `turn: plays:`, the one that sheds the most cards, then the most points), names the colour it holds
  most of, picks the opponent with the fewest cards, picks the card with the most
  points, names the number that is the rank it holds most of (the lowest of
  equals), and answers **yes** to every `ask` — it always calls UNO, always
  catches, always challenges.

A rule that depends on an answer is only tested both ways with the random bot
in the table (the default `greedy,random` does that)."""

_FUNCTIONS = """\
A test written in several places is written once under `define:`, as a
**function**: a name, its parameters with their types (`card`, `cards`,
`player`, `players`, `color`, `int`, `bool`, `str`), and what it `is`, one
expression over them. Call it by name, in any condition or effect:

```yaml part
define:
  same_number:
    params: {a: card, b: card}
    is: a.rank != none and a.rank == b.rank
  pairs:
    params: {cards: cards, like: card}
    is: count(cards, c -> same_number(c, like))
    says: "how many of {cards} have the number of {like}"
rules:
  - name: a pair in hand costs a card
    on: card_played
    if: any(hand, c -> pairs(hand, c) >= 2) and count(hand) < 5
    do: draw(player, 1)
```

A function is checked once, where it is written; each call is checked for the
number and types of its arguments, at the call (`same_number(card)` is "takes 2
argument(s), got 1", with the usage as hint). Like a function of the language,
it can't be given `none` (test first: `top != none and same_number(card, top)`),
and an argument can't ask a player: ask into a variable first. A function may
call another, but not itself, directly or through others. Its body only reads
the game (no effects, no choices); it is worked out afresh at each call, so it
runs as fast as if its text were written there.

The rulebook writes a call by name, "same number(it, the top card)", or in the
words of `says:` (each `{param}` the argument's words), and defines each
function in a section of its own. An overlay's `define:` replaces an inherited
function of the same name whole, and adds new ones."""

LANGUAGE: dict[str, tuple[str, str]] = {  # name → (title, Markdown)
    "syntax": ("Expressions and programs", _SYNTAX),
    "if": ("if … then … else …", _IF),
    "for": ("for … in … do …", _FOR),
    "while": ("while … do …", _WHILE),
    "repeat": ("repeat … do …", _REPEAT),
    "lambda": ("Lambdas: x -> …", _LAMBDA),
    "variables": ("Variables: name = …", _VARIABLES),
    "define": ("Functions: define", _FUNCTIONS),
    "operators": ("Operators and precedence", _OPERATORS),
    "types": ("Types", _TYPES),
    "none": ("none", _NONE),
    "choices": ("Choices: asking a player", _CHOICES),
    "bots": ("How the bots answer", _BOTS),
}
