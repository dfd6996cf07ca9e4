"""The checked syntax tree → English a card table can read.

Three renderings of a node, one per place it can stand:
- `value(node)`: a noun phrase ("the top card", "a colour of your choice");
- `cond(node)`: a clause and its negation ("you hold no card of the current colour");
- `stmt(node)`: sentences, where a clause is kept with its subject so that
  consecutive clauses about the same player merge ("The next player draws 2
  cards and loses their turn.").

Every primitive declares its phrase next to its function (`says=`, put into words
by phrases.py); the words, clauses and sentences are in wording.py and clauses.py.
A construct with no phrase is quoted as written, in backticks, rather than put into
invented words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from ..engine.events import EVENTS
from ..engine.primitives import REGISTRY
from ..lang import ast
from ..lang.parse import parse
from ..lang.static import option_read
from ..model import Define, Zone
from .clauses import Clause, Part, finish, run_on
from .inline import code, lit
from .phrases import said
from .wording import CARD_WORDS, PLAYER_WORDS, article, cards, humanise, join, possessive, quote, words

T = TypeVar("T")

# -- the renderer --------------------------------------------------------------

# The rulebook's words for `on: <event>`, and who `player` is in a rule on it: each event's
# own declaration (engine/events.py).
EVENT_PHRASES: dict[str, str] = {name: e.english for name, e in EVENTS.items()}
EVENT_PLAYERS: dict[str, str] = {name: e.player_is for name, e in EVENTS.items() if e.player_is}

FIELDS: dict[str, str] = {
    "size": "the number of cards in their hand", "count": "the number of cards",
    "missing": "the number of cards missing", "total": "the total to draw",
    "other": "the other player", "color": "the colour", "direction": "the direction",
    "side": "the side now in play", "flag": "the mark", "kind": "the kind of choice",
    "value": "the choice", "round": "the round number", "zone": "the pile",
    "source": "the pile they come from", "target": "the pile they go to",
    "points": "the points", "scores": "the scores", "team": "the winning team",
}

_COMPARE = {"==": "{is}", "!=": "{is} not", "<": "{is} less than", "<=": "{is} at most",
            ">": "{is} more than", ">=": "{is} at least"}
_OPPOSITE = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_ARITH = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}


@dataclass
class English:
    """Renders the programs of one variant; `player` and `card` say what those names mean here."""

    kinds: frozenset[str]
    player: str = "you"
    card: str = "this card"
    fields: Mapping[str, str] = field(default_factory=dict)
    vars: dict[str, str] = field(default_factory=dict)
    functions: Mapping[str, Define] = field(default_factory=dict)  # the variant's `define:`, by name
    zones: Mapping[str, Zone] = field(default_factory=dict)  # the variant's `zones:`, by name

    # -- entry points --------------------------------------------------------
    def program(self, source: str) -> list[str]:
        """An effect program as sentences."""
        return finish(self.stmt(parse(source)))

    def steps(self, source: str) -> list[str]:
        """A program's top-level statements, one item each (for a numbered list)."""
        node = parse(source)
        body = node.body if isinstance(node, ast.Seq) else (node,)
        return [" ".join(s) for s in self._grouped(body)]

    def value_of(self, source: str) -> str:
        """An expression as a noun phrase."""
        return self.value(parse(source))

    def condition(self, source: str) -> str:
        """A condition as a clause (lower case, no stop)."""
        return self.cond(parse(source))[0].text()

    def _grouped(self, body: tuple[ast.Node, ...]) -> list[list[str]]:
        groups: list[list[str]] = []
        pending: list[Part] = []
        for stmt in body:
            parts = self.stmt(stmt)
            if (pending and parts and isinstance(parts[0], Clause) and isinstance(pending[-1], Clause)
                    and parts[0].subject == pending[-1].subject and parts[0].subject is not None):
                pending += parts
                continue
            if pending:
                groups.append(finish(pending))
            pending = list(parts)
        if pending:
            groups.append(finish(pending))
        return groups

    # -- names ---------------------------------------------------------------
    def who(self) -> str:
        return self.player

    def name(self, name: str) -> str:
        if name in self.vars:
            return self.vars[name]
        if name == "player":
            return self.player
        if name == "card":
            return self.card
        if name in self.fields:
            return self.fields[name]
        if name in self.zones:
            return self.zone_name(self.zones[name], self.player)
        builtin = REGISTRY.names.get(name)
        if builtin is not None and builtin.says is not None:
            return builtin.says.replace("{player:poss}", possessive(self.player))
        return code(name)

    def zone_name(self, zone: Zone, owner: str) -> str:
        """A declared zone by its name, said as a place: "the center row", "the bonus row"
        (a name that is no place's word gets its shape), or one per player: "your stock"."""
        said = lit(zone.called)
        return f"{possessive(owner)} {said}" if zone.owner == "player" else f"the {said}"

    # -- noun phrases --------------------------------------------------------
    def value(self, node: ast.Node) -> str:
        match node:
            case ast.Literal(value=bool() as b):
                return "yes" if b else "no"
            case ast.Literal(value=None):
                return "nothing"
            case ast.Literal(value=int() as n):
                return str(n)
            case ast.Literal(value=str() as s):
                return humanise(s) if s in self.kinds else f"“{lit(words(s))}”"
            case ast.Name(id=name):
                return self.name(name)
            case ast.Attr(name=attr) if option_read(node) is not None:
                return f"{humanise(attr)} (option `{attr}`)"  # its value is in the rulebook's list of options
            case ast.Attr(obj=obj, name=attr):
                owner = self.value(obj)
                if attr in self.zones:  # a player's zone of `zones:` (`p.stock`)
                    return self.zone_name(self.zones[attr], owner)
                if attr == "back":
                    return f"the back of {owner}"
                word = CARD_WORDS.get(attr) or PLAYER_WORDS.get(attr)
                if word and (owner.endswith((" onto", " played")) or " of " in owner):
                    return f"the {word} of {owner}"  # "the colour of the top card of the vault pile"
                return f"{possessive(owner)} {word}" if word else quote(node)
            case ast.Call() if (text := self.defined(node)) is not None:
                return text
            case ast.Call() if (says := said(self, node)) is not None:
                if says.noun is not None:
                    return says.noun
                if says.clause is not None:
                    return "whether " + says.clause.text()
                return quote(node)
            case ast.Binary(op=op, left=a, right=b) if op in _ARITH:
                return f"{self.operand(a)} {_ARITH[op]} {self.operand(b)}"
            case ast.Unary(op="-", operand=x):
                return f"minus {self.value(x)}"
            case ast.Binary() | ast.Unary(op="not"):
                return "whether " + self.cond(node)[0].text()
            case ast.If(cond=c, then=a, orelse=b) if b is not None:
                return f"{self.value(a)} if {self.cond(c)[0].text()}, otherwise {self.value(b)}"
            case ast.ListExpr(items=items):
                return join([self.value(i) for i in items])
        return quote(node)

    def operand(self, node: ast.Node) -> str:
        """An operand of arithmetic: an `if` in brackets, so that "plus" says what it adds."""
        said = self.value(node)
        return f"({said})" if isinstance(node, ast.If) and node.orelse is not None else said

    def defined(self, node: ast.Call) -> str | None:
        """A call of a function the variant defines: in its words (`says:`, each `{param}`
        the argument's words), or as its name and its arguments' words."""
        fn = self.functions.get(node.func)
        if fn is None or node.kwargs or len(node.args) != len(fn.params):
            return None
        values = dict(zip(fn.params, (self.value(a) for a in node.args), strict=True))
        if fn.says is None:
            return f"{lit(fn.name.replace('_', ' '))}({', '.join(values.values())})"
        parts = re.split(r"{([^{}]*)}", " ".join(fn.says.split()))
        return "".join(values.get(p, lit(f"{{{p}}}")) if i % 2 else lit(p) for i, p in enumerate(parts))

    def definition(self, fn: Define) -> str:
        """A function's definition as a sentence: its name and parameters, and what it is."""
        head = f"{lit(fn.name.replace('_', ' '))}({', '.join(code(p) for p in fn.params)})"
        saved = dict(self.vars)
        self.vars.update({p: code(p) for p in fn.params})
        try:
            node = parse(fn.text)
            if (isinstance(node, ast.Binary) and node.op not in _ARITH) or (isinstance(node, ast.Unary) and \
                    node.op == "not"):
                return f"{head} holds when {self.cond(node)[0].text()}."
            return f"{head} is {self.value(node)}."
        finally:
            self.vars = saved

    def noun(self, node: ast.Node) -> str:
        """A value as a sentence's subject (a bare variable keeps its name)."""
        return self.value(node)

    # -- conditions ----------------------------------------------------------
    def cond(self, node: ast.Node) -> tuple[Clause, Clause]:
        """The clause saying `node` holds, and the one saying it does not."""
        match node:
            case ast.Unary(op="not", operand=x):
                yes, no = self.cond(x)
                return no, yes
            case ast.Binary(op="and" | "or" as op, left=a, right=b):
                parts = [self.cond(x) for x in _flatten(node, op)]
                both = join([p[0].text() for p in parts], op)
                neither = join([p[1].text() for p in parts], "or" if op == "and" else "and")
                return Clause(None, both), Clause(None, neither)
            case ast.Binary(op=op, left=a, right=b) if op in _COMPARE:
                return self.compare(op, a, b), self.compare(_OPPOSITE[op], a, b)
            case ast.Binary(op="in", left=a, right=b):
                return (Clause(self.value(a), f"{{is}} one of {self.value(b)}"),
                        Clause(self.value(a), f"{{is}} none of {self.value(b)}"))
            case ast.Attr(obj=obj, name="wild"):
                return Clause(self.value(obj), "{is} wild"), Clause(self.value(obj), "{is} not wild")
            case ast.Name(id=name) if name in self.vars:
                return Clause(None, self.vars[name]), Clause(None, f"not {self.vars[name]}")
            case ast.Literal(value=True):
                return Clause(None, "always"), Clause(None, "never")
            case ast.Literal(value=False):
                return Clause(None, "never"), Clause(None, "always")
            case ast.Call() if (text := self.defined(node)) is not None:
                fn = self.functions[node.func]
                return Clause(None, text), Clause(None, f"it is not so that {text}" if fn.says else f"not {text}")
            case ast.Call() if (says := said(self, node)) is not None:
                if says.clause is not None and says.negative is not None:
                    return says.clause, says.negative
        shown = quote(node)
        return Clause(None, f"{shown} holds"), Clause(None, f"{shown} does not hold")

    def compare(self, op: str, a: ast.Node, b: ast.Node) -> Clause:
        if isinstance(b, ast.Literal) and b.value is None and op in ("==", "!="):
            if isinstance(a, ast.Attr) and a.name in CARD_WORDS and option_read(a) is None and a.name != "back":
                word = CARD_WORDS[a.name]  # "it has no number", "the top card has a colour"
                return Clause(self.value(a.obj), f"{{has}} no {word}" if op == "==" else f"{{has}} {article(word)}")
            said = self.value(a)
            owned = re.fullmatch(r"(.+?)'s ([a-z]+(?: [a-z]+)*)", said)  # "that card's number": it has none
            if owned is not None:
                word = owned[2]
                return Clause(owned[1], f"{{has}} no {word}" if op == "==" else f"{{has}} {article(word)}")
            thing = said.removeprefix("the ")
            return Clause(None, f"there is no {thing}" if op == "==" else f"there is {article(thing)}")
        held = self._held(a, op, b)
        if held is not None:
            return held
        if (isinstance(a, ast.Attr) and a.name == "kind" and isinstance(b, ast.Literal)
                and isinstance(b.value, str) and b.value in self.kinds and op in ("==", "!=")):
            return Clause(self.value(a.obj), f"{_COMPARE[op]} {article(humanise(b.value))}")
        if isinstance(a, ast.Attr) and a.name == "rank" and isinstance(b, ast.Literal) and op in ("==", "!="):
            return Clause(self.value(a.obj), f"{_COMPARE[op]} a {self.value(b)}")
        return Clause(self.value(a), f"{_COMPARE[op]} {self.value(b)}")

    def _held(self, a: ast.Node, op: str, b: ast.Node) -> Clause | None:
        """`count(hand) == 0` → "you hold no cards"."""
        if not (isinstance(a, ast.Call) and a.func == "count" and len(a.args) == 1 and not a.kwargs
                and isinstance(b, ast.Literal) and isinstance(b.value, int) and not isinstance(b.value, bool)):
            return None
        owner = self.owner(a.args[0])
        if owner is None:
            return None
        n = b.value
        verb = {"==": "no cards" if n == 0 else f"exactly {cards(n)}",
                "!=": "at least one card" if n == 0 else f"other than {cards(n)}",
                ">": f"more than {cards(n)}" if n else "at least one card",
                ">=": f"at least {cards(n)}", "<": f"fewer than {cards(n)}", "<=": f"at most {cards(n)}"}[op]
        return Clause(owner, f"hold{{s}} {verb}")

    def owner(self, zone: ast.Node) -> str | None:
        """Whose hand a zone is (`hand`, `p.hand`), or None for a pile."""
        if isinstance(zone, ast.Name) and zone.id == "hand":
            return self.player
        if isinstance(zone, ast.Attr) and zone.name == "hand":
            return self.value(zone.obj)
        return None

    # -- what a lambda picks ------------------------------------------------
    def picked(self, fn: ast.Node) -> list[str] | None:
        """The cards `c -> …` accepts, as nouns without article ("card of the current colour");
        None if the test is not a plain description of a card."""
        if not isinstance(fn, ast.Lambda):
            return None
        param, body = fn.param, fn.body

        def mine(n: ast.Node, attr: str) -> bool:
            return isinstance(n, ast.Attr) and n.name == attr and isinstance(n.obj, ast.Name) and n.obj.id == param

        def one(n: ast.Node) -> list[str] | None:
            match n:
                case ast.Binary(op="or", left=x, right=y):
                    a, b = one(x), one(y)
                    return a + b if a is not None and b is not None else None
                case ast.Attr() if mine(n, "wild"):
                    return ["wild card"]
                case ast.Binary(op="==", left=x, right=y) if mine(x, "color"):
                    return [f"card of {self.value(y)}"]
                case ast.Binary(op="==", left=x, right=ast.Literal(value=str() as k)) if mine(x, "kind"):
                    return [humanise(k)]
                case ast.Binary(op="in", left=x, right=ast.ListExpr(items=ks)) if mine(x, "kind") and all(
                        isinstance(k, ast.Literal) and isinstance(k.value, str) for k in ks):
                    return [humanise(str(k.value)) for k in ks if isinstance(k, ast.Literal)]
                case ast.Binary(op="==", left=x, right=ast.Attr(obj=o, name="symbol")) if mine(x, "symbol"):
                    return [f"card with the same number or symbol as {self.value(o)}"]
            return None

        return one(body)

    def such_that(self, fn: ast.Node, noun: str) -> str:
        """`c -> …` as "card such that it …" when no plainer words fit."""
        if not isinstance(fn, ast.Lambda):
            return f"{noun} passing {quote(fn)}"
        saved = self.vars.get(fn.param)
        self.vars[fn.param] = "it"
        try:
            said = self.cond(fn.body)[0].text()
        finally:
            self._restore(fn.param, saved)
        return f"{noun} such that {said}"

    def with_var(self, var: str, phrase: str, render: Callable[[], T]) -> T:
        saved = self.vars.get(var)
        self.vars[var] = phrase
        try:
            return render()
        finally:
            self._restore(var, saved)

    def _restore(self, var: str, saved: str | None) -> None:
        if saved is None:
            self.vars.pop(var, None)
        else:
            self.vars[var] = saved

    def card_nouns(self, fn: ast.Node) -> list[str]:
        return self.picked(fn) or [self.such_that(fn, "card")]

    # -- statements ----------------------------------------------------------
    def stmt(self, node: ast.Node) -> list[Part]:
        match node:
            case ast.Seq(body=stmts):
                return [p for s in stmts for p in self.stmt(s)]
            case ast.If(cond=c, then=a, orelse=b):
                return self.if_(c, a, b)
            case ast.For(var=var, iterable=items, body=body):
                head = self.each(var, items)
                inner = self.with_var(var, var, lambda: run_on(finish(self.stmt(body))))
                return [f"{head}: {inner}."]
            case ast.While(cond=c, body=body):
                return [f"As long as {self.cond(c)[0].text()}: {run_on(finish(self.stmt(body)))}."]
            case ast.Repeat(count=n, body=body):
                times = "once" if isinstance(n, ast.Literal) and n.value == 1 else f"{self.value(n)} times"
                return [f"Repeat {times}: {run_on(finish(self.stmt(body)))}."]
            case ast.Assign(name=var, value=value):
                return self.assign(var, value)
            case ast.Call() if (says := said(self, node)) is not None:
                act = says.act or says.clause
                if act is not None:
                    return [act]
        return [f"Do {quote(node)}."]

    def if_(self, c: ast.Node, a: ast.Node, b: ast.Node | None) -> list[Part]:
        cond = self.cond(c)[0].text()
        then = finish(self.stmt(a))
        out: list[Part] = [f"If {cond}{', ' if len(then) == 1 else ': '}{run_on(then)}."]
        if b is not None:
            orelse = finish(self.stmt(b))
            out.append(f"Otherwise, {run_on(orelse)}.")
        return out

    def each(self, var: str, items: ast.Node) -> str:
        match items:
            case ast.Name(id="players"):
                return f"For each player {var} in turn order, starting with {self.player}"
            case ast.Name(id="opponents"):
                return f"For each of {possessive(self.player)} opponents {var} in turn order"
            case ast.Call(func="others", args=(who,)):
                return f"For each other player {var}, in turn order after {self.value(who)}"
            case ast.Call(func="opponents_of", args=(who,)):
                who_ = self.value(who)
                return f"For each of {possessive(who_)} opponents {var}, in turn order after {who_}"
        return f"For each {var} of {self.value(items)}"

    def assign(self, var: str, value: ast.Node) -> list[Part]:
        label = " ".join("colour" if w == "color" else w for w in words(var).split())  # `named_color`
        bool_like = isinstance(value, ast.Binary | ast.Unary) or (
            isinstance(value, ast.Call) and value.func in REGISTRY.primitives
            and REGISTRY.primitives[value.func].returns == "bool")
        if isinstance(value, ast.Call) and value.func in REGISTRY.primitives \
                and REGISTRY.primitives[value.func].kind == "choice" and (says := said(self, value)) is not None:
            act = says.act or says.clause
            assert act is not None
            self.vars[var] = label if bool_like or len(var) <= 2 else f"the {label}"
            return [Clause(act.subject, f"{act.verb} (“{label}”)", act.many)]
        shown = self.value(value)
        self.vars[var] = label if bool_like or len(var) <= 2 else f"the {label}"  # a letter is a name: "c", "na"
        return [f"Note {shown} (“{label}”)."]


def _flatten(node: ast.Node, op: str) -> list[ast.Node]:
    if isinstance(node, ast.Binary) and node.op == op:
        return _flatten(node.left, op) + _flatten(node.right, op)
    return [node]


def event_phrase(event: str) -> str:
    return EVENT_PHRASES.get(event, f"{code(event)} happens")


# Fields whose words differ on one event: a declared play's `target` is a card, not a pile.
EVENT_FIELDS: dict[str, dict[str, str]] = {
    "cards_played": {"cards": "the cards played", "target": "the card played onto", "play": "the play's name",
                     "to": "where the cards go"},
}


def field_phrases(event: str) -> dict[str, str]:
    fields = EVENTS[event].fields if event in EVENTS else {}
    own = EVENT_FIELDS.get(event, {})
    return {f: own.get(f) or FIELDS[f] for f in fields if f in own or f in FIELDS}


def is_fallback(sentence: str) -> bool:
    """Whether a rendering had to quote an expression."""
    return "`" in sentence


