"""A primitive's call in the rulebook's English, from the phrase it declares (`Says`,
lang/signature.py): its arguments bound, the case that fits them chosen, and each slot
put into words.

A slot is `{param}` (the argument as a noun phrase), `{param:form}` (the argument in
one of FORMS), `{param.inner}` (an argument of the call given as `param`), `{call}`
(the call as written) or `{player}`; anything else in braces is a mark of the verb
({s} {is} {their} …), which agrees with the subject later (clauses.py). A case holds
when each of its shapes does: `param:shape` (SHAPES) or `param=text` (a literal, or a name,
as written).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from ..engine.primitives import REGISTRY
from ..lang import ast
from ..lang.parse import parse
from ..lang.signature import Says, Words
from .clauses import Clause
from .inline import lit
from .wording import CARD_WORDS, article, cards, join, plural, possessive, quote, words

T = TypeVar("T")


class Speaker(Protocol):
    """What the phrases need of the renderer (english.English)."""

    player: str
    vars: dict[str, str]  # the names bound here (a lambda's parameter, a variable, a function's parameter)

    def value(self, node: ast.Node) -> str: ...

    def cond(self, node: ast.Node) -> tuple[Clause, Clause]: ...

    def owner(self, zone: ast.Node) -> str | None: ...

    def card_nouns(self, fn: ast.Node) -> list[str]: ...

    def with_var(self, var: str, phrase: str, render: Callable[[], T]) -> T: ...


@dataclass
class Args:
    """A call's arguments bound to the primitive's parameters (defaults filled in)."""

    call: ast.Call
    bound: dict[str, ast.Node]
    given: set[str]
    params: frozenset[str]  # the primitive's parameters, bound or not

    def __getitem__(self, name: str) -> ast.Node:
        return self.bound[name]


def bind(call: ast.Call) -> Args:
    prim = REGISTRY.primitives[call.func]
    bound: dict[str, ast.Node] = dict(zip((p.name for p in prim.params), call.args, strict=False))
    bound.update(call.kwargs)
    given = set(bound)
    for p in prim.params:
        if p.name not in bound and p.default is not None:
            bound[p.name] = parse(p.default)
    return Args(call, bound, given, frozenset(p.name for p in prim.params))


@dataclass(frozen=True, slots=True)
class Said:
    """What a primitive's call says: as a noun phrase, as a clause, and negated."""

    noun: str | None = None
    clause: Clause | None = None
    negative: Clause | None = None
    act: Clause | None = None  # as a statement, when that reads differently from the clause


def said(e: Speaker, call: ast.Call) -> Said | None:
    """The call in words, or None for a function the language does not have."""
    prim = REGISTRY.primitives.get(call.func)
    if prim is None or prim.says is None:
        return None
    a = bind(call)
    says = prim.says
    while True:
        case = next((c for shapes, c in says.cases if all(_holds(e, a, s) for s in shapes.split())), None)
        if case is None:
            break
        says = case
    return Said(noun=None if says.noun is None else _fill(e, a, says.noun, False),
                clause=_clause(e, a, says.clause, says.many), negative=_clause(e, a, says.negative, says.many),
                act=_clause(e, a, says.act, says.many))


_SLOT = re.compile(r"\{(\w+)(?:\.(\w+))?(?::(\w+)(?: ([^{}]*))?)?\}")


def _clause(e: Speaker, a: Args, words: Words | None, many: bool) -> Clause | None:
    if words is None:
        return None
    subject, verb = words
    # a verb is formatted for its marks when it has a subject, so the words put in are escaped
    return Clause(None if subject is None else _fill(e, a, subject, False),
                  _fill(e, a, verb, subject is not None), many)


def _fill(e: Speaker, a: Args, template: str, escape: bool) -> str:
    def put(slot: re.Match[str]) -> str:
        name, inner, form, extra = slot[1], slot[2], slot[3], slot[4] or ""
        if name == "call":
            return _escaped(quote(a.call), escape)
        if name == "player":
            return _escaped(e.player, escape)
        if name not in a.params:
            return slot[0]  # a mark of the verb: {s}, {is}, {their} …
        args, name = (bind(_call(a[name])), inner) if inner else (a, name)
        if form is None:
            return _escaped(e.value(args[name]), escape)
        text = FORMS[form](e, args, name, extra)
        return text if form in VERB_FORMS else _escaped(text, escape)
    return _SLOT.sub(put, template)


def _escaped(text: str, escape: bool) -> str:
    return text.replace("{", "{{").replace("}", "}}") if escape else text


def _call(node: ast.Node) -> ast.Call:
    assert isinstance(node, ast.Call), "a case's shape makes sure it is a call"
    return node


# -- shapes: what an argument is, for choosing a case ---------------------------------


def _holds(e: Speaker, a: Args, shape: str) -> bool:
    name, eq, text = shape.partition("=")
    if eq:
        node = a.bound.get(name)
        if isinstance(node, ast.Name) and node.id in e.vars:  # a name bound here is not the language's
            return False
        return _literal(node, text)
    name, _, test = shape.partition(":")
    return SHAPES[test](e, a, name)


def _literal(node: ast.Node | None, text: str) -> bool:
    """Whether `node` is the literal (or the name) written `text`."""
    if isinstance(node, ast.Name):
        return node.id == text
    return isinstance(node, ast.Literal) and _literal_text(node.value) == text


def _literal_text(value: object) -> str:
    """A literal as the language writes it: `true`, `none`, `3`, `top`."""
    if value is None or isinstance(value, bool):
        return {True: "true", False: "false", None: "none"}[value]
    return str(value)


def int_literal(node: ast.Node) -> int | None:
    if isinstance(node, ast.Literal) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def is_players(node: ast.Node) -> bool:
    """A list of players: `players`, `opponents`, `seats`, `others(p)`, `opponents_of(p)`."""
    return (isinstance(node, ast.Name) and node.id in ("players", "opponents", "seats")) or (
        isinstance(node, ast.Call) and node.func in ("others", "opponents_of"))


def _choice(node: ast.Node) -> bool:
    prim = REGISTRY.primitives.get(node.func) if isinstance(node, ast.Call) else None
    return prim is not None and prim.kind == "choice"


def _drawn(node: ast.Node) -> bool:
    prim = REGISTRY.primitives.get(node.func) if isinstance(node, ast.Call) else None
    return prim is not None and prim.kind == "effect" and prim.returns == "cards"


Shape = Callable[[Speaker, Args, str], bool]
SHAPES: dict[str, Shape] = {
    "one": lambda e, a, n: int_literal(a[n]) == 1,                       # the number 1
    "players": lambda e, a, n: is_players(a[n]),                         # a list of players
    "lambda": lambda e, a, n: isinstance(a[n], ast.Lambda),              # `c -> …` written there
    "hand": lambda e, a, n: e.owner(a[n]) is not None,                   # a player's hand
    "chosen": lambda e, a, n: _choice(a[n]),                             # a question put to a player
    "drawn": lambda e, a, n: _drawn(a[n]),                               # the cards an effect draws
    "given": lambda e, a, n: n in a.given,                               # written in the call
    "absent": lambda e, a, n: n not in a.given or isinstance(a[n], ast.Literal),  # left out (or none)
}


# -- forms: an argument in words ------------------------------------------------------


def amount(e: Speaker, node: ast.Node) -> str:
    """A number of cards: "2 cards", "a random number of cards from 1 to 8", "no cards"."""
    n = int_literal(node)
    if n is not None:
        return "no cards" if n == 0 else cards(n)
    if isinstance(node, ast.Call) and node.func == "random" and len(node.args) == 2:
        return f"a random number of cards from {e.value(node.args[0])} to {e.value(node.args[1])}"
    if isinstance(node, ast.If) and node.orelse is not None:
        return f"{amount(e, node.then)} if {e.cond(node.cond)[0].text()}, otherwise {amount(e, node.orelse)}"
    return f"{e.value(node)} cards"


def zone(e: Speaker, node: ast.Node) -> str:
    """A hand as "your hand", a pile by its name."""
    owner = e.owner(node)
    return f"{possessive(owner)} hand" if owner is not None else e.value(node)


def _count_of_cards(e: Speaker, node: ast.Node) -> str:
    n = int_literal(node)
    return cards(n) if n is not None else f"{e.value(node)} cards"


def _onto(e: Speaker, a: Args, name: str, extra: str) -> str:
    """Where cards go on `name`: "into your hand", "onto the discard pile", "under the draw pile"."""
    owner = e.owner(a[name])
    if owner is not None:
        return f"into {possessive(owner)} hand"
    at = a["at"]
    bottom = isinstance(at, ast.Literal) and at.value == "bottom"
    return f"{'under' if bottom else 'onto'} {e.value(a[name])}"


def _quantified(e: Speaker, fn: ast.Node, subject: str) -> str:
    """`p -> …` said of `subject` ("some player is out of the round")."""
    assert isinstance(fn, ast.Lambda), "a case's shape makes sure it is a lambda"
    return e.with_var(fn.param, subject, lambda: e.cond(fn.body)[0].text())


def _those(e: Speaker, fn: ast.Node) -> str:
    """`s -> is_out(s)` as a relative clause: "who are out of the round"."""
    assert isinstance(fn, ast.Lambda), "a case's shape makes sure it is a lambda"
    clause = e.with_var(fn.param, "who", lambda: e.cond(fn.body)[0])
    return Clause("who", clause.verb, many=True).text() if clause.subject == "who" else f"such that {clause.text()}"


def _group(e: Speaker, node: ast.Node) -> str:
    group = "players at the table" if isinstance(node, ast.Name) and node.id == "seats" else e.value(node)
    return group.removeprefix("the ")


def one_of(e: Speaker, options: ast.Node) -> str:
    """One of a list of players: "an opponent", "a player other than the dealer"."""
    match options:
        case ast.Name(id="opponents"):
            return "an opponent"
        case ast.Name(id="players"):
            return "a player"
        case ast.Call(func="others", args=(who,)):
            return f"a player other than {e.value(who)}"
        case ast.Call(func="opponents_of", args=(who,)):
            return f"an opponent of {e.value(who)}"
    return f"one of {e.value(options)}"


def _highest(e: Speaker, fn: ast.Node) -> str:
    if isinstance(fn, ast.Lambda) and isinstance(fn.body, ast.Attr) and isinstance(fn.body.obj, ast.Name) \
            and fn.body.obj.id == fn.param and fn.body.name in CARD_WORDS:
        return f"the highest {CARD_WORDS[fn.body.name]}"
    if isinstance(fn, ast.Lambda):  # "the highest value, each card counting 0 if it is wild, otherwise its number"
        return f"the highest value, each card counting {e.with_var(fn.param, 'it', lambda: e.value(fn.body))}"
    return f"the highest value of {quote(fn)}"


def _points(e: Speaker, points: ast.Node) -> str:
    n = int_literal(points.left) if isinstance(points, ast.Binary) and points.op == "*" else None
    if isinstance(points, ast.Binary) and n is not None:
        return f"{n} points times {e.value(points.right)}"
    return f"{e.value(points)} points"


def _way(e: Speaker, way: ast.Node) -> str:
    n = int_literal(way)
    if isinstance(way, ast.Unary) and way.op == "-" and int_literal(way.operand) == 1:
        n = -1
    return ("in the direction of play" if isinstance(way, ast.Name) and way.id == "direction"
            else "to the left" if n == 1 else "to the right" if n == -1 else f"{e.value(way)} seats along")


def _toward(e: Speaker, way: ast.Node) -> str:
    return ("" if isinstance(way, ast.Name) and way.id == "direction" else " to the left" if int_literal(way) == 1
            else " to the right" if isinstance(way, ast.Unary) and int_literal(way.operand) == 1 else
            f" in direction {e.value(way)}")


def _summed(e: Speaker, a: Args, name: str) -> str:
    """`sum(cards, c -> c.rank)` as "the sum of the numbers of the cards played"; another
    lambda as "the sum of the cards in your hand, each counting …" (its parameter said as "it")."""
    fn, items = a[name], a["items"]
    owner = e.owner(items)
    where = f"the cards in {possessive(owner)} hand" if owner is not None else e.value(items)
    if not isinstance(fn, ast.Lambda):
        return f"the sum of {quote(fn)} over {where}"
    body = fn.body
    if isinstance(body, ast.Attr) and isinstance(body.obj, ast.Name) and body.obj.id == fn.param \
            and body.name in CARD_WORDS:
        word = CARD_WORDS[body.name]
        return f"the sum of the {word if word.endswith('s') else plural(word)} of {where}"
    return f"the sum of {where}, each counting {e.with_var(fn.param, 'it', lambda: e.value(body))}"


def _question(e: Speaker, q: ast.Node) -> str:
    return lit(words(q.value)) if isinstance(q, ast.Literal) and isinstance(q.value, str) else e.value(q)


def _purpose(e: Speaker, purpose: ast.Node) -> str:
    """What a card is chosen for, as the file says it (" to give away"), or ""."""
    if isinstance(purpose, ast.Literal):
        return f" {lit(purpose.value)}" if isinstance(purpose.value, str) and purpose.value else ""
    return f" (for {e.value(purpose)})"


def _looking_at(e: Speaker, about: ast.Node) -> str:
    return "" if isinstance(about, ast.Literal) and about.value is None else f", looking at {e.value(about)}"


def _own(e: Speaker, a: Args, name: str) -> Clause:
    """The clause the call given as argument `name` says of itself."""
    inner = said(e, _call(a[name]))
    assert inner is not None and inner.clause is not None, "a case's shape makes sure it says a clause"
    return inner.clause


Form = Callable[[Speaker, Args, str, str], str]
FORMS: dict[str, Form] = {
    "poss": lambda e, a, n, x: possessive(e.value(a[n])),                  # "your", "the dealer's"
    "amount": lambda e, a, n, x: amount(e, a[n]),                          # "2 cards", "no cards"
    "cards": lambda e, a, n, x: _count_of_cards(e, a[n]),                  # "1 card", "X cards"
    "zone": lambda e, a, n, x: zone(e, a[n]),                              # "your hand", "the draw pile"
    "onto": _onto,                                                         # "onto the discard pile" (by `at`)
    "onto_or_under": lambda e, a, n, x: "onto" if _literal(a[n], "top") else "under",
    "round_or_game": lambda e, a, n, x: "game" if _literal(a[n], "game") else "round",
    "owner": lambda e, a, n, x: e.owner(a[n]) or "",                       # whose hand it is
    "some": lambda e, a, n, x: join([article(c) for c in e.card_nouns(a[n])], "or"),  # "a wild card or a card of …"
    "none": lambda e, a, n, x: join([f"no {c}" for c in e.card_nouns(a[n])], "and"),  # "no wild card and no …"
    "plural": lambda e, a, n, x: join([plural(c) for c in e.card_nouns(a[n])], "or"),  # "wild cards or cards of …"
    "of": lambda e, a, n, x: _quantified(e, a[n], x),                      # a lambda's test said of `x`
    "those": lambda e, a, n, x: _those(e, a[n]),                           # "who are out of the round"
    "group": lambda e, a, n, x: _group(e, a[n]),                           # "players at the table"
    "one_of": lambda e, a, n, x: one_of(e, a[n]),                          # "an opponent"
    "highest": lambda e, a, n, x: _highest(e, a[n]),                       # "the highest number"
    "points": lambda e, a, n, x: _points(e, a[n]),                         # "250 points times …"
    "way": lambda e, a, n, x: _way(e, a[n]),                               # "to the left"
    "toward": lambda e, a, n, x: _toward(e, a[n]),                         # " to the left" or ""
    "and_zone": lambda e, a, n, x: f" and {zone(e, a[n])}" if n in a.given else "",
    "summed": lambda e, a, n, x: _summed(e, a, n),                         # "the sum of the numbers of …"
    "question": lambda e, a, n, x: _question(e, a[n]),                     # a question's words
    "looking_at": lambda e, a, n, x: _looking_at(e, a[n]),                 # ", looking at the top card" or ""
    "purpose": lambda e, a, n, x: _purpose(e, a[n]),                       # " to give away" or ""
    "subject": lambda e, a, n, x: _own(e, a, n).subject or "",             # a call's own clause: its subject
    "verb": lambda e, a, n, x: _own(e, a, n).verb,                         # … and its verb, marks and all
}
VERB_FORMS = frozenset({"verb"})  # forms giving verb text whose marks are still to agree (not escaped)

MARKS = frozenset({"s", "es", "ies", "is", "has", "do", "their", "they"})  # the verb's marks (clauses.py)


def mistakes(name: str, says: Says) -> list[str]:
    """What is wrong in a primitive's phrase: a slot naming no parameter, form or mark,
    a case's shape that does not exist (a test holds every declaration to this)."""
    prim = REGISTRY.primitives[name]
    params = {p.name for p in prim.params}
    found: list[str] = []
    for shapes, case in says.cases:
        for shape in shapes.split():
            literal = "=" in shape
            param, _, test = shape.partition("=" if literal else ":")
            if param not in params or (not literal and test not in SHAPES):
                found.append(f"{name}: unknown shape {shape!r}")
        found += mistakes(name, case)
    texts = [says.noun] + [t for words in (says.clause, says.negative, says.act) if words for t in words]
    for text in filter(None, texts):
        for slot in _SLOT.finditer(text):
            param, inner, form = slot[1], slot[2], slot[3]
            known = param in params or param in ("call", "player") or (param in MARKS and not inner and not form)
            if not known or (form is not None and form not in FORMS):
                found.append(f"{name}: unknown slot {slot[0]} in {text!r}")
    return found
