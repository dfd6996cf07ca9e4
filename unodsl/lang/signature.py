"""What the language knows about its primitives and built-in names.

The engine registers each primitive (one short function) with its parameter
types and its phrase (Says); the checker uses the signatures, the compiler binds
the functions, the language reference is generated from the docstrings, and the
rulebook's English from the phrases (tools/phrases.py). A primitive that reads a
field of the game, or folds over items with a test, is declared as that form
instead (lang/nodes/forms.py: Reads, Fold): its function and the text generated
code writes for it are both made from the declaration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from .nodes.forms import Fold, Reads

# Static types of the language. "zone" is a card list that cards can be moved
# to and from (a hand, a pile); "fn" is a lambda; "any" fits every type.
Type = Literal["card", "cards", "zone", "player", "players", "color", "int", "bool",
               "str", "fn", "any", "none", "answer"]
# An answer to a decision, as a rule reads it (the `value` of a choice): the card played
# or chosen, a colour, a seat, true or false, or one of these action words.
ACTION_WORDS = ("draw", "keep", "pass")
Kind = Literal["query", "effect", "choice"]

SUBTYPES: dict[str, set[str]] = {
    "cards": {"zone"},
    "players": set(),
    "str": {"color"},
    "color": {"str"},
    "int": set(),
}


def fits(actual: str, expected: str) -> bool:
    """Can a value of static type `actual` be used where `expected` is wanted?"""
    return (actual == expected or "any" in (actual, expected) or actual == "none"
            or actual in SUBTYPES.get(expected, ()))


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str
    default: str | None = None  # language text, compiled where used ("player")
    words: tuple[str, ...] = ()  # a str parameter that takes only these texts (`at: str{top|bottom}`)


Words = tuple[str | None, str]  # a clause: (subject, verb)


@dataclass(frozen=True, slots=True)
class Says:
    """A primitive's phrase in the rulebook's English, which tools/english.py puts into
    sentences (merging clauses about the same subject).

    A clause is (subject, verb). In both, `{param}` is that argument in words,
    `{param:form}` the argument in one of the rulebook's forms (tools/phrases.py:
    `amount` "2 cards", `poss` "your", `some` "a wild card or a card of the current colour", …),
    `{param.inner}` an argument of a call given as that argument, `{call}` the call
    itself and `{player}` whoever it applies to. The verb's marks ({s} {es} {is}
    {has} {do} {their} {they}) agree with the subject; a subject "" is an
    instruction ("shuffle the draw pile"), None a clause with no subject to merge."""

    clause: Words | None = None    # what it does, or what it states as a condition
    negative: Words | None = None  # the condition's negation
    noun: str | None = None        # its value as a noun phrase
    act: Words | None = None       # as a statement, where that reads otherwise than `clause`
    many: bool = False             # the subject takes a plural verb ("the next 2 players lose …")
    # Said instead, the first whose shapes all hold: "param:shape" (`count:one`, `items:hand`,
    # `color:chosen`…, tools/phrases.py) or "param=text" (a literal argument: `at=top`).
    cases: tuple[tuple[str, Says], ...] = ()


def says_of(said: Says | Words | None) -> Says | None:
    """A declaration's phrase: a (subject, verb) pair is a clause's."""
    return said if isinstance(said, Says) or said is None else Says(clause=said)


@dataclass(frozen=True, slots=True)
class Primitive:
    """One function of the language: its signature, its kind and its code."""

    name: str
    kind: Kind
    params: tuple[Param, ...]
    returns: str
    impl: Callable[..., Any]
    doc: str
    elem: str | None = None  # for list-returning functions: the element type follows arg 0
    nullable: bool = False  # its value may be none (a choice from nothing, the top of an empty pile)
    fold: Fold | None = None  # a fold over items with a test: its comprehension (nodes/lambdas.py)
    reads: Reads | None = None  # a field of the game it reads by its arguments (nodes/forms.py)
    # Its phrase in the rulebook's English (Says).
    says: Says | None = None

    def usage(self) -> str:
        parts = [f"{p.name}: {p.default}" if p.default else p.name for p in self.params]
        return f"{self.name}({', '.join(parts)})"


@dataclass(frozen=True, slots=True)
class BuiltinName:
    """A name every expression can read (`top`, `current_color`, `next`, …)."""

    name: str
    type: str
    getter: Callable[..., Any]  # (game, env) -> value
    doc: str
    nullable: bool = False  # its value may be none (`top` before the first card)
    says: str | None = None  # its phrase in the rulebook ("the top card"; `{player:poss}`: "your", "the dealer's")
    reads: Reads | None = None  # the field of the game it reads (getter is made from it: nodes/forms.py)


def _parse_params(spec: str) -> tuple[Param, ...]:
    """`name: type = default, …`; a type `str{a|b}` takes only the texts a and b."""
    params = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        head, _, default = part.partition("=")
        name, _, typ = head.partition(":")
        typ, _, words = typ.strip().partition("{")
        params.append(Param(name.strip(), typ or "any", default.strip() or None,
                            tuple(words.rstrip("}").split("|")) if words else ()))
    return tuple(params)



@dataclass
class Registry:
    """The primitives and names of the language, filled in by the engine."""

    primitives: dict[str, Primitive] = field(default_factory=dict)
    names: dict[str, BuiltinName] = field(default_factory=dict)

    def _add(self, kind: Kind, spec: str, returns: str, elem: str | None, none: bool = False,
             says: Says | Words | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            name = fn.__name__.rstrip("_")
            self.primitives[name] = Primitive(name, kind, _parse_params(spec), returns, fn, _doc(fn.__doc__), elem,
                                              none, says=says_of(says))
            return fn
        return register

    def query(self, spec: str = "", returns: str = "any", elem: str | None = None, none: bool = False,
              says: Says | Words | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register a side-effect-free function (`none`: its value may be none; `says`: its
        phrase, see Says)."""
        return self._add("query", spec, returns, elem, none, says)

    def fold(self, fold: Fold, spec: str, returns: str = "any", elem: str | None = None,
             says: Says | Words | None = None) -> None:
        """Register a query declared as a fold over items with a test (nodes/lambdas.py): its
        function and docstring are the fold's run."""
        name = fold.run.__name__.rstrip("_")
        self.primitives[name] = Primitive(name, "query", _parse_params(spec), returns, fold.run,
                                          _doc(fold.run.__doc__), elem, fold=fold, says=says_of(says))

    def lookup(self, name: str, spec: str, reads: Reads, doc: str, returns: str = "any",
               says: Says | Words | None = None) -> None:
        """Register a query that reads a field of the game by its arguments (`reads`, whose
        `at` and `has` are its parameters): its function is made from that."""
        params = _parse_params(spec)
        impl = reads.query(tuple(p.name for p in params))
        self.primitives[name] = Primitive(name, "query", params, returns, impl, _doc(doc), reads=reads,
                                          says=says_of(says))

    def effect(self, spec: str = "", returns: str = "none", elem: str | None = None, none: bool = False,
               says: Says | Words | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register an effect: it changes the game (and may give a value back; `elem`,
        `none` and `says` as for a query). Effects may not be used in
        conditions: an effect that only draws from the game's generator (`random`) is one
        too, so that conditions such as `legal_if` and `match` give the same answer each time."""
        return self._add("effect", spec, returns, elem, none, says=says)

    def choice(self, spec: str, returns: str, none: bool = False, says: Says | Words | None = None
               ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register a choice: it returns a Decision the engine puts to a player (`says` as
        for a query)."""
        return self._add("choice", spec, returns, None, none, says=says)

    def name(self, type_: str, none: bool = False, says: str | None = None
             ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register a built-in name read by a getter (game, env) -> value (`none`: it may be none;
        `says`: its phrase in the rulebook)."""
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            name = fn.__name__.rstrip("_")
            self.names[name] = BuiltinName(name, type_, fn, _doc(fn.__doc__), none, says)
            return fn
        return register

    def field(self, name: str, type_: str, reads: Reads, doc: str, none: bool = False,
              says: str | None = None) -> None:
        """Register a built-in name that is a field of the game (`reads`): its getter is made
        from that, as the text generated code writes for it is (nodes/forms.py)."""
        self.names[name] = BuiltinName(name, type_, reads.getter(), _doc(doc), none, says, reads)


def _doc(text: str | None) -> str:
    """A docstring as one line: an entry of the language reference."""
    return " ".join((text or "").split())


CARD_ATTRS: dict[str, tuple[str, str]] = {
    "kind": ("str", "the card kind's name, as in the `cards:` table"),
    "color": ("color", "its colour, or none for a colourless (wild) card"),
    "rank": ("int", "its number, or none for an action card"),
    "points": ("int", "what it scores at the end of a round"),
    "wild": ("bool", "true when it may be played on anything"),
    "symbol": ("str", "what it matches besides colour: its rank as text, or its kind"),
    "back": ("card", "the face on the other side (public at a real table), or none"),
}

# Card attributes whose value may be none: an action card's rank, a wild's colour, a one-sided back.
NULLABLE_ATTRS = frozenset({"rank", "color", "back"})

PLAYER_ATTRS: dict[str, tuple[str, str]] = {
    "hand": ("zone", "the player's hand"),
    "score": ("int", "the player's game score so far"),
    "seat": ("int", "the seat number, 0-based, clockwise"),
}


# Types with the same run-time values: a colour is a string, a pile is a list of
# cards, a player is a seat number. Values of other pairs of types never compare equal.
_RUNTIME = {"color": "str", "zone": "cards", "player": "int"}
TYPE_WORDS = {"card": "a card", "cards": "a list of cards", "zone": "a list of cards", "player": "a player",
              "players": "a list of players", "color": "a colour", "int": "a number", "bool": "true or false",
              "str": "a string"}


def comparable(a: str, b: str) -> bool:
    """Can values of static types `a` and `b` ever be equal?"""
    return "any" in (a, b) or "none" in (a, b) or _RUNTIME.get(a, a) == _RUNTIME.get(b, b)
