"""The checked syntax tree → English a card table can read.

Three renderings of a node, one per place it can stand:
- `value(node)`: a noun phrase ("the top card", "a colour of your choice");
- `cond(node)`: a clause and its negation ("you hold no card of the current colour");
- `stmt(node)`: sentences, where a clause is kept with its subject so that
  consecutive clauses about the same player merge ("The next player draws 2
  cards and loses their turn.").

Every primitive of the language has one entry in PHRASES (a test holds the
table to the registry). A construct with no phrase is quoted as written, in
backticks, rather than put into invented words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from ..engine.events import EVENTS
from ..engine.primitives import REGISTRY
from ..lang import ast
from ..lang.check import option_read, show
from ..lang.parse import parse
from .inline import code, lit

# -- words -------------------------------------------------------------------


def humanise(name: str) -> str:
    """`king_of_hearts` → "King Of Hearts" (a card kind's name, from data)."""
    return " ".join(w.capitalize() for w in name.split("_") if w)


def words(name: str) -> str:
    """`uno_missed` → "uno missed" (a flag, a question, a variable)."""
    return name.replace("_", " ")


def article(noun: str) -> str:
    """`Draw Two` → "a Draw Two", `opponent` → "an opponent"."""
    return ("an " if noun[:1].lower() in "aeio" else "a ") + noun


def plural(noun: str) -> str:
    """`card of the current colour` → "cards of the current colour", `Wild` → "Wilds"."""
    if noun == "card" or noun.startswith("card "):
        return "cards" + noun[4:]
    if " card" in noun:
        return noun.replace(" card", " cards", 1)
    return noun + "s"


def cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def possessive(who: str) -> str:
    return {"you": "your", "it": "its", "they": "their"}.get(who, f"{who}'s")


def quote(node: ast.Node) -> str:
    """The fallback: the expression as written."""
    return code(show(node, 200))


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def decapitalise(text: str) -> str:
    """Lower the first letter, unless the first word is in capitals ("UNO")."""
    first = text.split(" ", 1)[0]
    return text if first.isupper() and len(first) > 1 else text[:1].lower() + text[1:]


def join(items: list[str], conj: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conj} {items[-1]}"


# -- clauses -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Clause:
    """A subject and a verb phrase with conjugation marks: {s} {es} {is} {has} {do}
    {their} {they}. A subject of "" is an instruction (imperative); None is a
    finished text that does not merge."""

    subject: str | None
    verb: str
    many: bool = False

    def text(self) -> str:
        said = join([self._say(v) for v in self.verb.split(AND)])
        return f"{self.subject} {said}" if self.subject else said

    def _say(self, verb: str) -> str:
        if self.subject is None:
            return verb
        if not self.subject:
            return verb.format(s="", es="", ies="y", **{"is": "are", "has": "have", "do": "do"},
                                    their="your", they="you")
        many = self.many or self.subject in ("you", "they")
        body = verb.format(
            s="" if many else "s", es="" if many else "es", ies="y" if many else "ies",
            their="your" if self.subject == "you" else "their",
            they="you" if self.subject == "you" else "they",
            **{"is": "are" if many else "is", "has": "have" if many else "has",
               "do": "do" if many else "does"})
        return body


def text(clause: Clause) -> Clause:
    """A clause frozen as text (so a subject of its own does not merge later)."""
    return Clause(None, clause.text())


Part = Clause | str  # a clause, or a finished sentence
AND = "\x1f"  # between the verb phrases of merged clauses


def finish(parts: Iterable[Part]) -> list[str]:
    """Merge clauses with the same subject, then make sentences."""
    merged: list[Part] = []
    for part in parts:
        last = merged[-1] if merged else None
        if (isinstance(part, Clause) and isinstance(last, Clause) and part.subject is not None
                and part.subject == last.subject and part.many == last.many):
            merged[-1] = Clause(part.subject, f"{last.verb}{AND}{part.verb}", part.many)
        else:
            merged.append(part)
    out = []
    for part in merged:
        if isinstance(part, Clause):
            out.append(capitalise(part.text()) + ".")
        else:
            out.append(part)
    return out


def run_on(sentences: list[str]) -> str:
    """Sentences as one clause list: `a; b` without the final stop, for a branch."""
    return "; ".join(decapitalise(s.rstrip(".")) for s in sentences)


# -- the renderer --------------------------------------------------------------

NAMES: dict[str, str] = {
    "top": "the top card",
    "previous_top": "the previous top card",
    "current_color": "the current colour",
    "next": "the next player",
    "previous": "the previous player",
    "dealer": "the dealer",
    "players": "the players",
    "seats": "the players at the table, in or out",
    "opponents": "{poss} opponents",
    "player_count": "the number of players",
    "hand": "{poss} hand",
    "draw_pile": "the draw pile",
    "discard_pile": "the discard pile",
    "aside": "the cards set aside",
    "side": "the side in play",
    "direction": "the direction of play",
    "penalty": "the waiting penalty",
    "round_number": "the round number",
    "partner": "{poss} partner",
    "teammates": "{poss} partners",
}

# The words for a card's attributes (the digit word is spelt out of two parts for the
# hygiene check, which reads the quoted word as the name of a card kind).
CARD_WORDS: dict[str, str] = dict(kind="kind", color="colour", rank="num" "ber", points="points",
                                  wild="wildness", symbol="number or symbol", back="back")

PLAYER_WORDS: dict[str, str] = {"hand": "hand", "score": "score", "seat": "seat"}

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
class Args:
    """A call's arguments bound to the primitive's parameters (defaults filled in)."""

    call: ast.Call
    bound: dict[str, ast.Node]
    given: set[str]

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
    return Args(call, bound, given)


@dataclass(frozen=True, slots=True)
class Said:
    """What a primitive's call says: as a noun phrase, as a clause, and negated."""

    noun: str | None = None
    clause: Clause | None = None
    negative: Clause | None = None
    act: Clause | None = None  # as a statement, when that reads differently from the clause


@dataclass
class English:
    """Renders the programs of one variant; `player` and `card` say what those names mean here."""

    kinds: frozenset[str]
    player: str = "you"
    card: str = "this card"
    fields: Mapping[str, str] = field(default_factory=dict)
    vars: dict[str, str] = field(default_factory=dict)

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
        if name in NAMES:
            return NAMES[name].format(poss=possessive(self.player))
        return code(name)

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
                if attr == "back":
                    return f"the back of {owner}"
                word = CARD_WORDS.get(attr) or PLAYER_WORDS.get(attr)
                return f"{possessive(owner)} {word}" if word else quote(node)
            case ast.Call(func=func) if func in PHRASES:
                said = PHRASES[func](self, bind(node))
                if said.noun is not None:
                    return said.noun
                if said.clause is not None:
                    return "whether " + said.clause.text()
                return quote(node)
            case ast.Binary(op=op, left=a, right=b) if op in _ARITH:
                return f"{self.value(a)} {_ARITH[op]} {self.value(b)}"
            case ast.Unary(op="-", operand=x):
                return f"minus {self.value(x)}"
            case ast.Binary() | ast.Unary(op="not"):
                return "whether " + self.cond(node)[0].text()
            case ast.If(cond=c, then=a, orelse=b) if b is not None:
                return f"{self.value(a)} if {self.cond(c)[0].text()}, otherwise {self.value(b)}"
            case ast.ListExpr(items=items):
                return join([self.value(i) for i in items])
        return quote(node)

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
            case ast.Call(func=func) if func in PHRASES:
                said = PHRASES[func](self, bind(node))
                if said.clause is not None and said.negative is not None:
                    return said.clause, said.negative
        shown = quote(node)
        return Clause(None, f"{shown} holds"), Clause(None, f"{shown} does not hold")

    def compare(self, op: str, a: ast.Node, b: ast.Node) -> Clause:
        if isinstance(b, ast.Literal) and b.value is None and op in ("==", "!="):
            thing = self.value(a).removeprefix("the ")
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

    def with_var(self, var: str, phrase: str, render: Callable[[], str]) -> str:
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
            case ast.Call(func=func) if func in PHRASES:
                said = PHRASES[func](self, bind(node))
                act = said.act or said.clause
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
        if isinstance(value, ast.Call) and value.func in PHRASES and value.func in REGISTRY.primitives \
                and REGISTRY.primitives[value.func].kind == "choice":
            said = PHRASES[value.func](self, bind(value))
            act = said.act or said.clause
            assert act is not None
            self.vars[var] = label if bool_like else f"the {label}"
            return [Clause(act.subject, f"{act.verb} (“{label}”)", act.many)]
        shown = self.value(value)
        self.vars[var] = label if bool_like else f"the {label}"
        return [f"Note {shown} (“{label}”)."]


def _flatten(node: ast.Node, op: str) -> list[ast.Node]:
    if isinstance(node, ast.Binary) and node.op == op:
        return _flatten(node.left, op) + _flatten(node.right, op)
    return [node]


def _int(node: ast.Node) -> int | None:
    if isinstance(node, ast.Literal) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


# -- the primitives ------------------------------------------------------------

Phrase = Callable[[English, Args], Said]
PHRASES: dict[str, Phrase] = {}


def phrase(fn: Phrase) -> Phrase:
    """Register the phrase of the primitive named like the function (`any_` for any)."""
    PHRASES[fn.__name__.rstrip("_")] = fn
    return fn


_SLOT = re.compile(r"\{(\w+)\}")


def says(template: tuple[str, str]) -> Phrase:
    """The phrase of a primitive that declares what it says (Primitive.says): its
    subject and verb with each `{param}` in words; the verb's marks agree later."""
    subject, verb = template

    def said(e: English, a: Args) -> Said:
        def words(slot: re.Match[str], escape: bool) -> str:
            name = slot[1]
            if name in a.bound:
                text = e.value(a[name])
            elif name == "player":
                text = e.player
            else:
                return slot[0]  # a mark of the verb: {s}, {is}, {their} …
            return text.replace("{", "{{").replace("}", "}}") if escape else text
        return Said(clause=Clause(_SLOT.sub(lambda m: words(m, False), subject),
                                  _SLOT.sub(lambda m: words(m, True), verb)))
    return said


def _players(e: English, node: ast.Node) -> bool:
    return (isinstance(node, ast.Name) and node.id in ("players", "opponents", "seats")) or (
        isinstance(node, ast.Call) and node.func in ("others", "opponents_of"))


def _quantified(e: English, a: Args, some: str, no: str) -> Said:
    items, fn = a["items"], a["test"]
    if _players(e, items) and isinstance(fn, ast.Lambda):
        yes = e.with_var(fn.param, some, lambda: e.cond(fn.body)[0].text())
        nay = e.with_var(fn.param, no, lambda: e.cond(fn.body)[0].text())
        return Said(clause=Clause(None, yes), negative=Clause(None, nay))
    return Said(clause=Clause(None, f"{quote(a.call)} holds"), negative=Clause(None, f"{quote(a.call)} does not hold"))


def _zone(e: English, zone: ast.Node) -> str:
    owner = e.owner(zone)
    return f"{possessive(owner)} hand" if owner is not None else e.value(zone)


@phrase
def any_(e: English, a: Args) -> Said:
    if _players(e, a["items"]):
        return _quantified(e, a, "some player", "no player")
    nouns = e.card_nouns(a["test"])
    owner = e.owner(a["items"])
    some = join([article(n) for n in nouns], "or")
    none = join([f"no {n}" for n in nouns], "and")
    if owner is not None:
        return Said(clause=Clause(owner, f"hold{{s}} {some}"), negative=Clause(owner, f"hold{{s}} {none}"))
    where = e.value(a["items"])
    return Said(clause=Clause(None, f"there is {some} in {where}"),
                negative=Clause(None, f"there is {none} in {where}"))


@phrase
def all_(e: English, a: Args) -> Said:
    if _players(e, a["items"]):
        return _quantified(e, a, "every player", "not every player")
    nouns = join([plural(n) for n in e.card_nouns(a["test"])], "or")
    owner = e.owner(a["items"])
    if owner is not None:
        return Said(clause=Clause(owner, f"hold{{s}} only {nouns}"),
                    negative=Clause(owner, f"hold{{s}} something other than {nouns}"))
    where = e.value(a["items"])
    return Said(clause=Clause(None, f"{where} holds only {nouns}"),
                negative=Clause(None, f"{where} holds something other than {nouns}"))


@phrase
def count_(e: English, a: Args) -> Said:
    items = a["items"]
    test = a.bound.get("test")
    if "test" not in a.given or test is None or isinstance(test, ast.Literal):
        noun = "players" if _players(e, items) else "cards"
        return Said(noun=f"the number of {noun} in {_zone(e, items)}")
    if _players(e, items) and isinstance(test, ast.Lambda):  # `count(seats, s -> is_out(s))`
        saved = e.vars.get(test.param)
        e.vars[test.param] = "who"
        try:
            said = e.cond(test.body)[0]
        finally:
            e._restore(test.param, saved)
        who = Clause("who", said.verb, many=True).text() if said.subject == "who" else f"such that {said.text()}"
        group = "players at the table" if isinstance(items, ast.Name) and items.id == "seats" else e.value(items)
        return Said(noun=f"the number of {group.removeprefix('the ')} {who}")
    return Said(noun=f"the number of {join([plural(n) for n in e.card_nouns(test)], 'or')} in {_zone(e, items)}")


@phrase
def filter_(e: English, a: Args) -> Said:
    nouns = join([plural(n) for n in e.card_nouns(a["test"])], "or")
    return Said(noun=f"the {nouns} in {_zone(e, a['items'])}")


@phrase
def top_of_(e: English, a: Args) -> Said:
    return Said(noun=f"the top card of {e.value(a['zone'])}")


@phrase
def next_of_(e: English, a: Args) -> Said:
    return Said(noun=f"the player after {e.value(a['who'])}")


@phrase
def left_of_(e: English, a: Args) -> Said:
    return Said(noun=f"the player on {possessive(e.value(a['who']))} left")


@phrase
def others_(e: English, a: Args) -> Said:
    return Said(noun=f"every player but {e.value(a['who'])}")


@phrase
def opponents_of_(e: English, a: Args) -> Said:
    return Said(noun=f"{possessive(e.value(a['who']))} opponents")


@phrase
def team_of_(e: English, a: Args) -> Said:
    return Said(noun=f"{possessive(e.value(a['who']))} team")


@phrase
def is_out_(e: English, a: Args) -> Said:
    who = e.value(a["who"])
    return Said(clause=Clause(who, "{is} out of the round"), negative=Clause(who, "{is} still in the round"))


@phrase
def flagged_(e: English, a: Args) -> Said:
    who, flag = e.value(a["who"]), e.value(a["flag"])
    return Said(clause=Clause(who, f"{{is}} marked {flag}"), negative=Clause(who, f"{{is}} not marked {flag}"))


@phrase
def playable_(e: English, a: Args) -> Said:
    card, by = e.value(a["card"]), e.value(a["by"])
    return Said(clause=Clause(card, f"may be played by {by}"), negative=Clause(card, f"may not be played by {by}"))


def amount(e: English, node: ast.Node) -> str:
    """A number of cards: "2 cards", "a random number of cards from 1 to 8", "no cards"."""
    n = _int(node)
    if n is not None:
        return "no cards" if n == 0 else cards(n)
    if isinstance(node, ast.Call) and node.func == "random" and len(node.args) == 2:
        return f"a random number of cards from {e.value(node.args[0])} to {e.value(node.args[1])}"
    if isinstance(node, ast.If) and node.orelse is not None:
        return f"{amount(e, node.then)} if {e.cond(node.cond)[0].text()}, otherwise {amount(e, node.orelse)}"
    return f"{e.value(node)} cards"


@phrase
def draw_(e: English, a: Args) -> Said:
    return Said(clause=Clause(e.value(a["who"]), f"draw{{s}} {amount(e, a['count'])}"))


@phrase
def draw_until_(e: English, a: Args) -> Said:
    nouns = join([article(n) for n in e.card_nouns(a["test"])], "or")
    return Said(clause=Clause(e.value(a["who"]), f"draw{{s}} cards until {{they}} draw {nouns}"))


@phrase
def reveal_(e: English, a: Args) -> Said:
    cards = a["cards"]
    if isinstance(cards, ast.Call) and cards.func in ("draw", "draw_until"):  # a draw face up
        drawn = PHRASES[cards.func](e, bind(cards)).clause
        assert drawn is not None
        return Said(clause=Clause(drawn.subject, f"{drawn.verb}, face up for everyone to see", drawn.many))
    return Said(clause=Clause("", f"show {e.value(cards)} to every player"))


@phrase
def skip_(e: English, a: Args) -> Said:
    n = _int(a["count"])
    if n == 1:
        return Said(clause=Clause(NAMES["next"], "lose{s} {their} turn"))
    players = f"the next {n} players" if n is not None else f"the next {e.value(a['count'])} players"
    return Said(clause=Clause(players, "lose{s} {their} turn", many=True))




@phrase
def start_with_(e: English, a: Args) -> Said:
    return Said(clause=Clause(e.value(a["who"]), "play{s} next"))


@phrase
def set_color_(e: English, a: Args) -> Said:
    color = a["color"]
    if isinstance(color, ast.Call) and color.func == "choose_color":
        return Said(clause=Clause(e.value(bind(color)["by"]), "name{s} the colour to play"))
    return Said(clause=Clause("the colour to play", f"become{{s}} {e.value(color)}"))


@phrase
def pending_draw_(e: English, a: Args) -> Said:
    nouns = join([article(n) for n in e.card_nouns(a["answer"])], "or")
    n = _int(a["count"])
    count = cards(n) if n is not None else f"{e.value(a['count'])} cards"
    return Said(clause=Clause(NAMES["next"], f"must draw {count} unless {{they}} answer with {nouns}, "
                              "which passes the growing total on; whoever takes the draw ends their turn"))



@phrase
def give_(e: English, a: Args) -> Said:
    return Said(clause=Clause(e.value(a["giver"]), f"give{{s}} {e.value(a['card'])} to {e.value(a['receiver'])}"))


def _onto(e: English, target: ast.Node, at: ast.Node) -> str:
    owner = e.owner(target)
    if owner is not None:
        return f"into {possessive(owner)} hand"
    bottom = isinstance(at, ast.Literal) and at.value == "bottom"
    return f"{'under' if bottom else 'onto'} {e.value(target)}"


@phrase
def move_(e: English, a: Args) -> Said:
    n = _int(a["count"])
    what = "the top card" if n == 1 else f"the top {cards(n) if n is not None else e.value(a['count']) + ' cards'}"
    return Said(clause=Clause("", f"put {what} of {_zone(e, a['source'])} {_onto(e, a['target'], a['at'])}"))


@phrase
def move_all_(e: English, a: Args) -> Said:
    return Said(clause=Clause("", f"put all of {_zone(e, a['source'])} {_onto(e, a['target'], a['at'])}"))


@phrase
def shuffle_(e: English, a: Args) -> Said:
    return Said(clause=Clause("", f"shuffle {_zone(e, a['zone'])}"))


@phrase
def deal_(e: English, a: Args) -> Said:
    n = _int(a["count"])
    count = cards(n) if n is not None else f"{e.value(a['count'])} cards"
    return Said(clause=Clause("", f"deal {count} to each player, one at a time, starting on the dealer's left"))


@phrase
def turn_up_(e: English, a: Args) -> Said:
    return Said(clause=Clause("", "turn the top card of the draw pile face up onto the discard pile"))


@phrase
def flip_(e: English, a: Args) -> Said:
    return Said(clause=Clause(None, "every card turns over (the hands, and each pile as a whole), "
                              "and the other side is now in play"))


@phrase
def play_(e: English, a: Args) -> Said:
    quiet = isinstance(a["effect"], ast.Literal) and a["effect"].value is False
    return Said(clause=Clause(e.value(a["by"]), f"play{{s}} {e.value(a['card'])}"
                              + (" without its effect" if quiet else "")))


@phrase
def apply_(e: English, a: Args) -> Said:
    by = e.value(a["by"])
    had = f"{by} had" if by != "you" else "you had"
    return Said(clause=Clause(None, f"{possessive(e.value(a['card']))} effect applies, as if {had} played it"))


@phrase
def jump_in_(e: English, a: Args) -> Said:
    nouns = join([article(n) for n in e.card_nouns(a["test"])], "or")
    return Said(clause=Clause("any other player", f"may play {nouns} out of turn, in turn order from the next "
                              "player; the first who does takes the turn over, and play goes on from them"))



@phrase
def eliminate_(e: English, a: Args) -> Said:
    zone = a["to"]
    top = isinstance(a["at"], ast.Literal) and a["at"].value == "top"
    where = f"{'onto' if top else 'under'} {e.value(zone)}"
    game = isinstance(a["out_of"], ast.Literal) and a["out_of"].value == "game"
    out = "out of the game" if game else "out of the round"
    return Said(clause=Clause(e.value(a["who"]), f"{{is}} {out}, {{their}} cards going {where}"))



@phrase
def add_score_(e: English, a: Args) -> Said:
    points = a["points"]
    n = _int(points.left) if isinstance(points, ast.Binary) and points.op == "*" else None
    said = f"{n} points times {e.value(points.right)}" if isinstance(points, ast.Binary) and n is not None \
        else f"{e.value(points)} points"
    return Said(clause=Clause(e.value(a["who"]), f"score{{s}} {said}"))


@phrase
def set_score_(e: English, a: Args) -> Said:
    return Said(clause=Clause(possessive(e.value(a["who"])) + " score", f"become{{s}} {e.value(a['points'])}"))



@phrase
def cut_(e: English, a: Args) -> Said:
    fn = a["value"]
    if isinstance(fn, ast.Lambda) and isinstance(fn.body, ast.Attr) and isinstance(fn.body.obj, ast.Name) \
            and fn.body.obj.id == fn.param and fn.body.name in CARD_WORDS:
        what = f"the highest {CARD_WORDS[fn.body.name]}"
    else:
        what = f"the highest value of {quote(fn)}"
    return Said(noun=f"the player who cuts {what} (each player cuts a card; ties cut again)",
                act=Clause(None, f"each player cuts a card, and the one who cuts {what} wins (ties cut again)"))


@phrase
def random_(e: English, a: Args) -> Said:
    low, high = e.value(a["low"]), e.value(a["high"])
    number = f"a random number from {low} to {high}"
    return Said(noun=number, act=Clause("", f"draw {number}"))


@phrase
def random_pick_(e: English, a: Args) -> Said:
    options = _options(e, a["items"])
    return Said(noun=f"{options} picked at random", act=Clause("", f"pick {options} at random"))


@phrase
def pass_hands_(e: English, a: Args) -> Said:
    way = a["direction"]
    n = _int(way)
    if isinstance(way, ast.Unary) and way.op == "-" and _int(way.operand) == 1:
        n = -1
    where = ("in the direction of play" if isinstance(way, ast.Name) and way.id == "direction"
             else "to the left" if n == 1 else "to the right" if n == -1 else f"{e.value(way)} seats along")
    return Said(clause=Clause("every player", f"pass{{es}} {{their}} hand {where}, all at once"))


@phrase
def redeal_(e: English, a: Args) -> Said:
    pile = f" and {_zone(e, a['pile'])}" if "pile" in a.given else ""
    way = a["direction"]
    to = ("" if isinstance(way, ast.Name) and way.id == "direction" else " to the left" if _int(way) == 1
          else " to the right" if isinstance(way, ast.Unary) and _int(way.operand) == 1 else f" in direction "
          f"{e.value(way)}")
    return Said(clause=Clause("", f"gather every hand{pile}, shuffle them and deal them out again one at a time{to}, "
                              f"starting with {e.value(a['first'])}"))


@phrase
def put_(e: English, a: Args) -> Said:
    return Said(clause=Clause("", f"put {e.value(a['card'])} {_onto(e, a['zone'], a['at'])} without playing it"))


@phrase
def put_all_(e: English, a: Args) -> Said:
    return Said(clause=Clause("", f"put {e.value(a['cards'])} {_onto(e, a['zone'], a['at'])} all at once, "
                              "without playing them"))


@phrase
def choose_color_(e: English, a: Args) -> Said:
    by = e.value(a["by"])
    return Said(noun=f"a colour {_of_choice(by)}", clause=Clause(by, "name{s} a colour"))


def _of_choice(by: str) -> str:
    return f"of {possessive(by)} choice"


def _options(e: English, options: ast.Node) -> str:
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


@phrase
def choose_player_(e: English, a: Args) -> Said:
    by, who = e.value(a["by"]), _options(e, a["options"])
    return Said(noun=f"{who} {_of_choice(by)}", clause=Clause(by, f"choose{{s}} {who}"))


@phrase
def choose_card_(e: English, a: Args) -> Said:
    by, where = e.value(a["by"]), _zone(e, a["options"])
    return Said(noun=f"a card {_of_choice(by)} from {where}", clause=Clause(by, f"choose{{s}} a card from {where}"))


@phrase
def ask_(e: English, a: Args) -> Said:
    who = e.value(a["who"])
    q = a["question"]
    question = lit(words(q.value)) if isinstance(q, ast.Literal) and isinstance(q.value, str) else e.value(q)
    about = a["about"]
    shown = "" if isinstance(about, ast.Literal) and about.value is None else f", looking at {e.value(about)}"
    return Said(act=Clause(who, f"decide{{s}} whether to {question}{shown}"),
                clause=Clause(who, f"choose{{s}} to {question}"), negative=Clause(who, f"{{do}} not {question}"))


# The primitives that say what they do where they are declared (Primitive.says).
PHRASES.update({name: says(prim.says) for name, prim in REGISTRY.primitives.items() if prim.says is not None})


def event_phrase(event: str) -> str:
    return EVENT_PHRASES.get(event, f"{code(event)} happens")


def field_phrases(event: str) -> dict[str, str]:
    return {f: FIELDS[f] for f in (EVENTS[event].fields if event in EVENTS else {}) if f in FIELDS}


def is_fallback(sentence: str) -> bool:
    """Whether a rendering had to quote an expression."""
    return "`" in sentence


