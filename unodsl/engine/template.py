"""The hot steps of the engine written once, as templates: the same text is a function
the interpreter calls and, for the generated module, code put in place of the call,
specialised by what the variant fixes.

A template is the body of a function of `g` (the game), in Python with four marks:

    $name           a local of the template, or one of its parameters
    @name           an entry of the program's variables (`e['name']`)
    %name           a steady field of the game (`g.name`; state.STEADY: bound when the
                    game is made and changed only in place; state.STILL: never bound while
                    the game runs; %_quiet: state.QUIET, a value of them), which a loop may
                    read once
    #if fact:       a test the variant may decide (see FACTS; `watched(event)`: the event
                    is watched, sure to be when a rule hears it). Its block is indented as
    #elif fact:     under an `if`; where the variant decides it, only the branch taken
    #else:          is kept (dedented), else the fact's test stays in the code
    #call $x = hot(args)   a call of another template, put in place (in a function too,
                    when `hot` was made before it; else `g.hot(args)`), its value bound to `$x`
    #emit event data        `g.emit('event', data)`; in generated code, an event with rules
                    goes straight to them while no one else hears events (see Render)

and a value (`Template.value`, the expression it gives), or for a choice of the flow
(`Template.asks`) the decision it puts, with the answer it takes without asking when
`Template.takes` holds. A template never returns from its middle, and never hands its
variables on (`e` alone): code put in place then means the same as the call.

`function(template)` is the template as a function of the game (facts undecided: every
test stays), made once; `Render` writes it in place for a variant's facts (engine/codegen.py).
The text is the engine's own, never a variant's: a variant's values reach it only as facts,
which are booleans.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model import Variant
from .state import QUIET, STEADY, STILL

# -- facts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fact:
    """What a variant may fix for all its games: `test`, the same in a game (None: no test
    is needed where the variant leaves it open: the block runs, and tests what it needs
    itself), and `of`, its value for a variant (None: left open)."""

    test: str | None
    of: Callable[[Variant], bool | None]
    doc: str


def _rules_on(*events: str) -> Callable[[Variant], bool | None]:
    """True when a rule of the variant waits for one of `events` (then always watched)."""
    return lambda v: True if any(rule.event in events for rule in v.rules) else None


FACTS: Mapping[str, Fact] = {
    "pure_match": Fact("g._memo is not None", lambda v: v.turn.match_is_pure,
                       "the match reads only the top card's face and the colour (memoised by face)"),
    "must_play": Fact("g._must_play", lambda v: v.turn.must_play_if_able, "a player who can play must"),
    "until_playable": Fact("g._draw_rule.until_playable", lambda v: v.turn.draw.until_playable,
                           "the turn's draw goes on until a card can be played"),
    "draw_allowed_if": Fact("g._draw_rule.allowed_if is not None", lambda v: v.turn.draw.allowed_if is not None,
                            "the turn's draw has a condition"),
    "draw_one": Fact("g._draw_rule.count == 1", lambda v: type(v.turn.draw.count) is int and v.turn.draw.count == 1,
                     "the turn's draw (no penalty, not until playable) is one card"),
    "declared_plays": Fact("g._ways", lambda v: bool(v.turn.plays), "the turn offers plays of `turn: plays:`"),
    "rules": Fact(None, lambda v: bool(v.rules), "the variant has rules (they may queue)"),
    "loud_turn": Fact("%_loud_turn", _rules_on("turn_start", "turn_end", "choice"),
                      "a turn's events or choices are watched"),
    "loud_play": Fact("%_loud_play", _rules_on("card_played", "hand_changed"), "a play is told or counted"),
    "tell_play": Fact("%_tell_play", _rules_on("card_played", "hand_changed"), "a play is told"),
    "loud_draw": Fact("%_loud_draw", _rules_on("card_drawn", "hand_changed"), "a draw is told"),
}

Facts = Mapping[str, bool | None]
OPEN: Facts = {}  # every fact left open: the function's text


def facts_of(variant: Variant) -> dict[str, bool | None]:
    """What `variant` fixes of each fact."""
    return {name: fact.of(variant) for name, fact in FACTS.items()}


# -- templates ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Template:
    """A hot step's body (see the module's docstring): `params` after `g` (and `e` for a
    step of a program: `step=True`), its value or the decision it asks."""

    name: str
    doc: str
    body: str
    params: tuple[str, ...] = ()
    value: str | None = None  # the expression it gives
    pauses: str | None = None  # a program's step: the test that it paused (it gives PAUSED, else None)
    asks: str | None = None  # a choice of the flow: the decision it puts
    takes: tuple[str, str] | None = None  # (test, answer): the answer taken without asking when test holds
    defaults: tuple[str, ...] = ()  # the params' defaults, from the last (Python literals)
    globals: Mapping[str, Any] = field(default_factory=dict)  # the engine's objects its text names
    step: bool = False  # a step of a program: a function of (g, e)

    def events(self) -> list[tuple[str, str]]:
        """The events its #emit lines tell: (event, the text of its fields)."""
        return [(m[1], m[2]) for m in map(_EMIT.match, (line.strip() for line in _lines(self.body))) if m]

    def __post_init__(self) -> None:
        lines = _lines(self.body)
        for line in lines:
            text = line.strip()
            if re.search(r"(?<![\w.@$])e(?![\w])", text.split("#", 1)[0] if not text.startswith("#") else ""):
                raise ValueError(f"template {self.name}: hands its variables on ({text!r}); use @name")
            for name in _FIELD.findall(text):
                if name not in STEADY and name not in STILL and name != "_quiet":
                    raise ValueError(f"template {self.name}: %{name} is not a steady field (state.STEADY, STILL)")
            if re.match(r"return\b", text):
                raise ValueError(f"template {self.name}: returns from its middle ({text!r})")
            if text.startswith("#") and not (_HEAD.match(text) or _CALL.match(text) or _EMIT.match(text)):
                raise ValueError(f"template {self.name}: not a directive: {text!r}")


def _lines(text: str) -> list[str]:
    """The template's lines, dedented to its first line, blank lines dropped."""
    lines = [line for line in text.split("\n") if line.strip()]
    if not lines:
        return []
    cut = len(lines[0]) - len(lines[0].lstrip())
    return [line[cut:] for line in lines]


DEPTH = 6  # the most levels of blocks a function of generated code has (its body is level 1)
_LOCAL = re.compile(r"\$(\w+)")
_ENV = re.compile(r"@(\w+)")
_FIELD = re.compile(r"%(\w+)")
_CALL = re.compile(r"#call (?:(\$\w+) = )?(\w+)\((.*)\)$")
_EMIT = re.compile(r"#emit (\w+) (.+)$")


class Render:
    """Writes templates for one set of facts: in place (`inline`, locals prefixed, calls of
    other templates in place too), or as a function's body (see `function`). `env` says how a
    variable of the program is read (`e['name']` by default); `objects` collects the
    engine objects the text names (for the generated module's namespace)."""

    def __init__(self, facts: Facts, env: Callable[[str], str] | None = None,
                 templates: Mapping[str, Template] | None = None, fires: Mapping[str, str] | None = None) -> None:
        self.facts = facts
        self.fires = fires or {}  # the generated module's function queueing each event's rules
        self.env = env or (lambda name: f"e[{name!r}]")
        self.field: Callable[[str], str] = read_field  # how a steady field is read
        self.templates = templates  # those a #call puts in place (None: a call is a call)
        self.objects: dict[str, Any] = {}
        self.placed = 0
        self._names: Mapping[str, str] = {}  # the parameters given as names or literals, while writing
        self.deepest = 4 * DEPTH  # the indent of the deepest line a template in place may write

    def inline(self, t: Template, ind: str, args: Mapping[str, str] | None = None,
               into: str | None = None) -> tuple[list[str], str, dict[str, str]]:
        """`t` in place: its lines at indent `ind`, the prefix of its locals and the names
        given to some of them. `args`: the text of each parameter's argument (a name stands
        for the parameter, unless the body assigns it; anything else is bound to it first).
        `into`: where its value goes (a value that is a local of its own is written there)."""
        self.placed += 1
        prefix = f"i{self.placed}_"
        names: dict[str, str] = {}
        out: list[str] = []
        assigned = _assigned(t.body)
        given = " ".join((args or {}).values())
        for param, arg in (args or {}).items():
            if (arg.isidentifier() or _LITERAL.fullmatch(arg)) and param not in assigned:
                names[param] = arg
            else:
                out.append(f"{ind}{prefix}{param} = {arg}")
        drop = set()
        for line, copies in _copies(t.body).items():  # a copy of a name read as a local: that name
            made = {local: self.expr(source, prefix, names) for local, source in copies}
            if all(text.isidentifier() for text in made.values()):
                names.update(made)
                drop.add(line)
        own = None if t.value is None else re.fullmatch(r"\$(\w+)", t.value)
        if into is not None and own is not None and own[1] not in names and into not in given:
            names[own[1]] = into  # (never an argument's name: the body may read it after)
        out += self._lines(t, ind, prefix, names, drop)
        if into is not None and t.value is not None and names.get(own[1] if own else "") != into:
            out.append(f"{ind}{into} = {self.expr(t.value, prefix, names)}")
        return out, prefix, names

    def expr(self, text: str, prefix: str, names: Mapping[str, str] | None = None) -> str:
        """An expression of a template (its value, a test) for the locals' `prefix`."""
        named = names or {}
        text = _LOCAL.sub(lambda m: named.get(m[1]) or prefix + m[1], text)
        text = _FIELD.sub(lambda m: self.field(m[1]), text)
        return _ENV.sub(lambda m: self.env(m[1]), text)

    def _lines(self, t: Template, ind: str, prefix: str, names: Mapping[str, str],
               drop: set[str] | frozenset[str] = frozenset()) -> list[str]:
        self.objects.update(t.globals)
        out: list[str] = []
        outer, self._names = self._names, names
        decided = list(self._decided(_lines(t.body)))
        self._names = outer
        for depth, text in decided:
            if depth == 0 and text in drop:  # (a copy whose names stand for its locals)
                continue
            at = ind + " " * depth
            told = _EMIT.match(text)
            if told is not None:
                out.append(at + self.expr(self.told(told[1], told[2]), prefix, names))
                continue
            call = _CALL.match(text)
            if call is None:
                out.append(at + self.expr(text, prefix, names))
                continue
            target, callee, args = call[1], call[2], _split(call[3])
            known = (self.templates or {}).get(callee)
            given = [self.expr(a, prefix, names) for a in args]
            bound = None if target is None else self.expr(target, prefix, names)
            if known is None:
                out.append(f"{at}{'' if bound is None else bound + ' = '}g.{callee}({', '.join(given)})")
                continue
            params = known.params
            missing = len(params) - len(given)
            full = given + list(known.defaults[len(known.defaults) - missing:]) if missing else given
            lines, _, _ = self.inline(known, at, dict(zip(params, full, strict=True)), bound)
            if max(len(line) - len(line.lstrip()) for line in lines) > self.deepest:  # too deep: called
                lines = [f"{at}{'' if bound is None else bound + ' = '}g.{callee}({', '.join(given)})"]
            out += lines
        return out

    def told(self, event: str, data: str) -> str:
        """An event told: to its rules alone when only they hear it (no log kept, no
        listener: read at the event, so a listener attached by hand hears it too)."""
        told = f"g.emit({event!r}, {data})"
        fire = self.fires.get(event)
        return told if fire is None else f"{fire}(g, {data}) if %_quiet else {told}"

    def decided(self, body: str) -> Iterator[tuple[int, str]]:
        """The lines of a template's `body` the facts leave (its #if chains decided where
        they can be)."""
        return self._decided(_lines(body))

    def _decided(self, lines: list[str]) -> Iterator[tuple[int, str]]:
        """(indent, text) of each line, with each #if chain decided by the facts where it can
        be, else written as Python's if, elif and else."""
        i = 0
        while i < len(lines):
            line = lines[i]
            text = line.lstrip()
            depth = len(line) - len(text)
            if _HEAD.match(text) is None:
                yield depth, text
                i += 1
                continue
            branches: list[tuple[str | None, list[str]]] = []  # (condition, block); None: #else
            while i < len(lines):
                line = lines[i]
                text = line.lstrip()
                head = _HEAD.match(text)
                if head is None or len(line) - len(text) != depth or (branches and head[1] == "if"):
                    break
                block: list[str] = []
                i += 1
                while i < len(lines) and len(lines[i]) - len(lines[i].lstrip()) > depth:
                    block.append(lines[i])
                    i += 1
                branches.append((head[2], block))
            yield from self._chain(branches, depth)

    def cond(self, text: str) -> str | bool:
        """A condition of a directive: `[not ]fact`, `[not ]fact and|or REST`, `REST and|or
        [not ]fact` (REST without and/or: tested first, the cheaper when the fact is open),
        or Python (REST). True or False where the facts decide it, else the Python test."""
        text = _WATCHED.sub(lambda m: "True" if m[1] in self.fires else f"{m[1]!r} in %_watch", text)
        if text == "True":
            return True
        given = re.fullmatch(r"(not )?\$(\w+)", text)  # a parameter given as a literal
        if given and self._names.get(given[2]) in ("True", "False"):
            return (self._names[given[2]] == "True") != bool(given[1])
        last = re.fullmatch(r"((?:(?! and | or ).)+) (and|or) (not )?(\w+)", text)
        if last and last[4] in FACTS:
            folded = self.cond(f"{last[3] or ''}{last[4]}")
            if folded is True or folded is False:
                return last[1] if folded == (last[2] == "and") else folded
            return f"{last[1]} {last[2]} {f'({folded})' if ' and ' in folded or ' or ' in folded else folded}"
        m = re.match(r"(not )?(\w+)(?: (and|or) (.+))?$", text)
        if m is None or m[2] not in FACTS:
            return text
        fact = FACTS[m[2]]
        known = self.facts.get(m[2])
        if known is None and fact.test is None:
            known = True  # open, with no test: as if it held
        rest = None if m[4] == "True" and m[3] == "and" else m[4]  # (`fact and watched(x)`, x always heard)
        if known is not None:
            value = known != bool(m[1])
            if rest is None:
                return value
            if m[3] is None or (m[3] == "and" and not value) or (m[3] == "or" and value):
                return value
            return rest
        assert fact.test is not None
        test = f"not {_paren(fact.test)}" if m[1] else fact.test
        return test if m[3] is None or rest is None else f"{_paren(test)} {m[3]} {rest}"

    def _chain(self, branches: list[tuple[str | None, list[str]]], depth: int) -> Iterator[tuple[int, str]]:
        """An #if chain: the branches the facts leave, as if/elif/else (a branch sure to run
        ends it; the first of them, with nothing before it, is written without a test)."""
        written = 0
        for condition, block in branches:
            decided = True if condition is None else self.cond(condition)
            if decided is False:
                continue
            inner = self._decided(_lines("\n".join(block)))
            if decided is True:
                if written:
                    yield depth, "else:"
                    yield from ((depth + 4 + d, s) for d, s in inner)
                else:
                    yield from ((depth + d, s) for d, s in inner)
                return
            yield depth, f"{'elif' if written else 'if'} {decided}:"
            yield from ((depth + 4 + d, s) for d, s in inner)
            written += 1


def read_field(name: str) -> str:
    """How a template's %name reads in a function: the game's field (or %_quiet's value)."""
    return f"({QUIET})" if name == "_quiet" else f"g.{name}"


_LITERAL = re.compile(r"True|False|None|-?\d+|'\w*'")  # an argument as plain as a name
_WATCHED = re.compile(r"watched\((\w+)\)")  # in a directive: the event is watched (always, if a rule hears it)
_HEAD = re.compile(r"#(if|elif|else)(?: (.+))?:$")


def _paren(test: str) -> str:
    return f"({test})" if " " in test else test


def _copies(body: str) -> dict[str, list[tuple[str, str]]]:
    """The lines of the body's first level that only copy variables or steady fields into
    locals it never assigns again (`$p = @player`, `$d, $p = @_drawn, @player`), with their
    (local, source) pairs, where the body never assigns the source either. In place, where
    each source reads as a plain name, the local is that name and the line goes."""
    text = "\n".join(_lines(body))
    found: dict[str, list[tuple[str, str]]] = {}
    for line in _lines(body):
        m = re.fullmatch(r"((?:\$\w+, )*\$\w+) = ((?:[@%]\w+, )*[@%]\w+)", line)
        if m is None:
            continue
        pairs = list(zip(m[1].split(", "), m[2].split(", "), strict=False))
        if len(pairs) != m[1].count("$") or len(pairs) != len(m[2].split(", ")):
            continue
        if all(_stores(text, re.escape(local)) == 1 and _stores(text, re.escape(source)) == 0
               for local, source in pairs):
            found[line] = [(local[1:], source) for local, source in pairs]
    return found


def _stores(text: str, name: str) -> int:
    """How many times `text` binds `name` (a $local, @variable or %field), as a target or a loop's."""
    target = rf"(?:^|\n)\s*(?:[$@%\w]+\s*,\s*)*{name}(?!\w)\s*(?:,\s*[$@%\w]+\s*)*(?:[-+*|&]?=)(?!=)"
    return len(re.findall(target, text)) + len(re.findall(rf"(?:for|as|#call) {name}(?!\w)", text))


def _assigned(body: str) -> set[str]:
    """The locals a template's body assigns (its parameters among them)."""
    found: set[str] = set()
    for line in body.split("\n"):
        text = line.strip()
        target = re.match(r"((?:\$\w+\s*,\s*)*\$\w+)\s*(?:[-+*|&]?=)(?!=)", text)
        if target:
            found |= set(_LOCAL.findall(target[1]))
        found |= set(re.findall(r"(?:for|as) \$(\w+)", text))
        call = _CALL.match(text)
        if call and call[1]:
            found.add(call[1][1:])
    return found


def _split(args: str) -> list[str]:
    """The arguments of a #call, split at the commas outside brackets."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(args):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(args[start:i].strip())
            start = i + 1
    if args.strip():
        out.append(args[start:].strip())
    return out


def function(t: Template, module: str) -> Callable[..., Any]:
    """`t` as a function — `(g, e)` for a step of a program, else `(g, params…)` — with every
    fact left open, named `module.name` (so a program holding it pickles by reference). The
    templates it calls that were made before it are put in place: no call between them."""
    render = Render(OPEN, templates=TEMPLATES)
    lines = render._lines(t, "    ", "", {})
    head = ["g", "e"] if t.step else ["g"]
    params = list(t.params)
    for k, default in enumerate(t.defaults):
        params[len(params) - len(t.defaults) + k] += f"={default}"
    if t.asks is not None:
        asks = render.expr(t.asks, "")
        if t.takes is None:
            lines.append(f"    return {asks}")
        else:
            test = render.cond(t.takes[0])
            taken = render.expr(t.takes[1], "")
            assert not isinstance(test, bool)  # (every fact open)
            lines.append(f"    return {taken} if {render.expr(test, '')} else {asks}")
    elif t.pauses is not None:
        lines.append(f"    return PAUSED if {render.expr(t.pauses, '')} else None")
    elif t.value is not None:
        lines.append(f"    return {render.expr(t.value, '')}")
    source = "\n".join([f"def {t.name}({', '.join(head + params)}):", *(lines or ["    pass"])])
    scope: dict[str, Any] = dict(render.objects)
    exec(compile(source, f"<unodsl template {t.name}>", "exec"), scope)  # the engine's own text, never a variant's
    fn: Callable[..., Any] = scope[t.name]
    fn.__module__, fn.__qualname__, fn.__doc__ = module, t.name, t.doc
    fn.template = t  # type: ignore[attr-defined]
    if TEMPLATES.setdefault(t.name, t) is not t:
        raise ValueError(f"two templates named {t.name}")
    return fn


TEMPLATES: dict[str, Template] = {}  # every template made into a function, by name (a #call names one)


def template_of(fn: Any) -> Template | None:
    """The template `fn` was made from (see function), or None."""
    t = getattr(fn, "template", None)
    return t if isinstance(t, Template) else None
