"""What the language server knows about a variant file: pure functions, no protocol.

Positions here are 0-based lines and characters (code points), as the Language
Server Protocol counts them; `unodsl.errors.Pos` is 1-based. A Document is the
text of one file and what the checks found in it (`variant.load.analyse_text`);
the server turns the results into protocol messages (see server.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...engine.events import EVENTS, rule_env, who_sees
from ...engine.primitives import REGISTRY
from ...errors import Diagnostic, VariantError
from ...lang import ast
from ...lang.signature import CARD_ATTRS, PLAYER_ATTRS
from ...lang.walk import nodes
from ...variant.load import Analysis, analyse_text
from ...variant.resolve import base_path
from ...variant.schema import schema as variant_schema
from ...variant.source import Key, Source, parse_source
from ..reference import entry

CARD_ENV = {"player": "player", "card": "card"}
PLAYER_ENV = {"player": "player"}
# The keys whose values are expressions, and the names the engine binds there
# (as variant/build.py compiles them); a rule's keys bind its event's fields.
EXPRESSION_KEYS: dict[str, Mapping[str, str] | None] = {
    "on_play": CARD_ENV, "legal_if": CARD_ENV, "match": CARD_ENV,
    "first_dealer": PLAYER_ENV, "next_dealer": PLAYER_ENV, "setup": PLAYER_ENV, "allowed_if": PLAYER_ENV,
    "if": None, "do": None,
}
KEYWORDS = ("if", "then", "else", "for", "in", "do", "while", "repeat", "and", "or", "not",
            "true", "false", "none")

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\"[^\"]*\"?|'[^']*'?")


@dataclass(frozen=True, slots=True)
class Range:
    start_line: int
    start_char: int
    end_line: int
    end_char: int


@dataclass(frozen=True, slots=True)
class Location:
    path: str
    range: Range


@dataclass(frozen=True, slots=True)
class Problem:
    """A diagnostic placed in the open file (a base's problem is shown at `extends:`)."""

    range: Range
    severity: str  # "error" or "warning"
    message: str
    related: Location | None = None  # where a problem inherited from a base really is


@dataclass(frozen=True, slots=True)
class Item:
    """A completion: `kind` is function, variable, field, constant, keyword, event, property or class."""

    label: str
    kind: str
    detail: str = ""
    doc: str = ""


@dataclass(frozen=True, slots=True)
class Symbol:
    name: str
    kind: str  # namespace, class (a card kind), event (a rule), boolean (an option)
    range: Range
    selection: Range
    detail: str = ""
    children: tuple[Symbol, ...] = ()


@dataclass
class Document:
    """One open variant file: its text, its own parse (positions of this file) and the checks' findings."""

    path: str
    text: str
    lines: list[str] = field(default_factory=list)
    own: Source | None = None  # this file alone, for positions and the outline
    analysis: Analysis = field(default_factory=Analysis)

    @classmethod
    def check(cls, path: str, text: str, previous: Document | None = None) -> Document:
        """Analyse `text` as the file `path`; what can't be worked out now is kept from `previous`."""
        doc = cls(path, text, text.splitlines())
        try:
            doc.own = parse_source(text, path)
        except VariantError:
            doc.own = previous.own if previous else None
        doc.analysis = analyse_text(text, path)
        if previous is not None and doc.analysis.source is None:  # keep hover and completion working
            old = previous.analysis
            doc.analysis = Analysis(old.source, old.model, old.expressions, doc.analysis.diagnostics)
        return doc

    # -- what is at a position ------------------------------------------------
    def line(self, n: int) -> str:
        return self.lines[n] if 0 <= n < len(self.lines) else ""

    def word_at(self, line: int, char: int) -> tuple[str, Range] | None:
        for m in _WORD.finditer(self.line(line)):
            if m.start() <= char <= m.end():
                return m.group(), Range(line, m.start(), line, m.end())
        return None

    def key_at(self, line: int, char: int) -> tuple[Key, bool] | None:
        """The key path of the node under the cursor in this file, and whether the cursor is on a key."""
        if self.own is None:
            return None
        best: tuple[tuple[int, int], Key, bool] | None = None
        here = (line + 1, char + 1)
        for spans, on_key in ((self.own.spans, False), (self.own.key_spans, True)):
            for key, span in spans.items():
                at = (span.pos.line, span.pos.col)
                if at <= here and (best is None or at > best[0] or (at == best[0] and not on_key)):
                    best = (at, key, on_key)
        if best is None:
            return None
        _, key, on_key = best
        if on_key:  # on the key itself, or in a value that is a plain scalar after it
            word = self.word_at(line, char)
            on_key = (word is not None and bool(key) and word[0] == key[-1]
                      and best[0] == (line + 1, word[1].start_char + 1))
        return key, on_key

    def merged(self) -> Any:
        src = self.analysis.source
        return src.data if src is not None else (self.own.data if self.own else None)

    def kinds(self) -> dict[str, Any]:
        data = self.merged()
        cards = data.get("cards") if isinstance(data, dict) else None
        return cards if isinstance(cards, dict) else {}

    def colors(self) -> list[str]:
        data = self.merged()
        if not isinstance(data, dict):
            return []
        found = [c for c in data.get("colors") or [] if isinstance(c, str)]
        for side in data.get("sides") or []:
            if isinstance(side, dict):
                found += [c for c in side.get("colors") or [] if isinstance(c, str) and c not in found]
        return found


def expression_env(doc: Document, key: Key) -> Mapping[str, str] | None:
    """The names the engine binds in the expression at `key`, or None if `key` holds no expression."""
    if not key or not isinstance(key[-1], str) or key[-1] not in EXPRESSION_KEYS:
        return None
    env = EXPRESSION_KEYS[key[-1]]
    if env is not None:
        return env
    data = doc.merged()
    rules = data.get("rules") if isinstance(data, dict) else None
    if len(key) >= 3 and key[0] == "rules" and isinstance(key[1], int) and isinstance(rules, list) \
            and key[1] < len(rules) and isinstance(rules[key[1]], dict):
        event = rules[key[1]].get("on")
        return rule_env(event) if isinstance(event, str) and event in EVENTS else PLAYER_ENV
    return None


# -- diagnostics ----------------------------------------------------------------
def problems(doc: Document) -> list[Problem]:
    """The file's diagnostics (the same as `unodsl validate`), with ranges; a base's at `extends:`."""
    out = []
    for d in doc.analysis.diagnostics:
        if _same_file(d.pos.file, doc.path):
            out.append(Problem(token_range(doc, d.pos.line - 1, d.pos.col - 1), d.severity, _text(d)))
            continue
        where = doc.own.key_pos(("extends",)) if doc.own else None
        at = token_range(doc, where.line - 1, where.col - 1) if where else Range(0, 0, 0, 0)
        base = Location(d.pos.file, Range(d.pos.line - 1, d.pos.col - 1, d.pos.line - 1, d.pos.col - 1))
        out.append(Problem(at, d.severity, f"in the file this one extends, {d.pos}: {_text(d)}", base))
    return out


def _same_file(a: str, b: str) -> bool:
    try:
        return a == b or Path(a).resolve() == Path(b).resolve()
    except (OSError, RuntimeError, ValueError):  # a loop of links (RuntimeError before 3.13), a NUL
        return False


def _text(d: Diagnostic) -> str:
    return f"{d.message}\nhint: {d.hint}" if d.hint else d.message


def token_range(doc: Document, line: int, char: int) -> Range:
    """From (line, char) to the end of the word, number or string there, or else to the end of the line."""
    text = doc.line(line)
    m = _TOKEN.match(text, char) if char < len(text) else None
    if m is not None:
        return Range(line, char, line, m.end())
    end = len(text.rstrip())
    if char >= end:  # at the end of a line: mark its last character
        return Range(line, max(0, end - 1), line, max(end, 1))
    return Range(line, char, line, end)


# -- hover ------------------------------------------------------------------------
def hover(doc: Document, line: int, char: int) -> tuple[str, Range] | None:
    """Markdown describing what is under the cursor, and the range it describes."""
    word = doc.word_at(line, char)
    if word is None:
        return None
    name, rng = word
    where = doc.key_at(line, char)
    key, on_key = where if where else ((), False)
    text = doc.line(line)
    after_dot = rng.start_char > 0 and text[rng.start_char - 1] == "."
    if key and key[-1] == "on" and not on_key and name in EVENTS:
        return _event_text(name), rng
    if key and key[0] == "cards" and len(key) == 2 and on_key and name in doc.kinds():
        return kind_text(doc, name), rng
    env = expression_env(doc, key) if not on_key else None
    if env is None:
        if name in doc.kinds() and not on_key:  # a deck group's kind, or a name in a list
            return kind_text(doc, name), rng
        return None
    if after_dot:
        attrs = {**CARD_ATTRS, **PLAYER_ATTRS}
        if name in attrs:
            t, d = attrs[name]
            return f"`.{name}`: {t}\n\n{d}", rng
        return None
    if name in REGISTRY.primitives:
        return entry(name) or name, rng  # the reference entry is Markdown
    if name in doc.kinds() and _in_string(text, rng.start_char):
        return kind_text(doc, name), rng
    event = _rule_event(doc, key) if key[0] == "rules" else None
    if name in env and event is not None and name in EVENTS[event].fields:
        f = EVENTS[event].fields[name]
        seen = who_sees(event, name) or "everyone"
        return f"`{name}`: {f.type} — field of event `{event}`\n\n{f.doc}\n\nseen by: {seen}", rng
    if name in REGISTRY.names:
        return entry(name) or name, rng  # the reference entry is Markdown
    typ = name_type(doc, key, line, rng.start_char, name)
    if typ is not None:
        return f"`{name}`: {typ}", rng
    if name in env:
        return f"`{name}`: {env[name]}", rng
    return None


def _in_string(text: str, char: int) -> bool:
    return text[:char].count('"') % 2 == 1 or text[:char].count("'") % 2 == 1


def _rule_event(doc: Document, key: Key) -> str | None:
    data = doc.merged()
    try:
        event = data["rules"][key[1]]["on"]
    except (KeyError, IndexError, TypeError):
        return None
    return event if isinstance(event, str) and event in EVENTS else None


def _event_text(name: str) -> str:
    e = EVENTS[name]
    fields = []
    for k, f in e.fields.items():
        who = who_sees(name, k)
        seen = f" (seen only by {who})" if who else ""
        fields.append(f"- `{k}`: {f.type} — {f.doc}{seen}")
    return f"**event `{name}`**: {e.doc}\n\n" + "\n".join(fields)


def kind_text(doc: Document, name: str) -> str:
    """A card kind: how many the deck has (per side), its points and what it does."""
    raw = doc.kinds().get(name)
    raw = raw if isinstance(raw, dict) else {}
    model = doc.analysis.model
    counts = []
    if model is not None:
        for side in model.sides:
            n = sum(1 for f in side.faces if f.kind == name)
            counts.append(f"{n} on side {side.name}" if len(model.sides) > 1 else f"{n} in the deck")
    lines = [f"**card kind `{name}`**: {', '.join(counts) or 'count unknown until the deck checks'}; "
             f"points: {raw.get('points', '?')}" + ("; wild" if raw.get("wild") else "")]
    if raw.get("description"):
        lines.append(str(raw["description"]))
    for k in ("legal_if", "on_play"):
        if isinstance(raw.get(k), str):
            lines.append(f"{k}:\n```\n{raw[k].rstrip()}\n```")
    return "\n\n".join(lines)


def _expr_pos(doc: Document, key: Key, node: ast.Node) -> tuple[int, int] | None:
    src = doc.analysis.source
    span = src.spans.get(key) if src is not None else None
    if span is None or not _same_file(span.pos.file, doc.path):
        return None
    p = span.locate(*node.at)
    return p.line - 1, p.col - 1


def name_type(doc: Document, key: Key, line: int, char: int, name: str) -> str | None:
    """The static type the checker gave the name written at (line, char) of the expression at `key`."""
    exprs = doc.analysis.expressions
    if exprs is None or key not in exprs.trees:
        return None
    types = exprs.types.get(key, {})
    for node in nodes(exprs.trees[key]):
        if isinstance(node, ast.Name) and node.id == name and _expr_pos(doc, key, node) == (line, char):
            return types.get(id(node))
    # a variable or lambda parameter where it is bound: the type of a use of it
    for node in nodes(exprs.trees[key]):
        if isinstance(node, ast.Name) and node.id == name and id(node) in types:
            return types[id(node)]
    return None


# -- completion ---------------------------------------------------------------------
def complete(doc: Document, line: int, char: int) -> list[Item]:
    """What may be written at the cursor: in an expression, its names; elsewhere, YAML keys."""
    text = doc.line(line)[:char]
    if re.fullmatch(r"\s*(- )?[A-Za-z_]*", text):
        return key_items(doc, line, text)
    where = doc.key_at(line, char)
    key = where[0] if where else ()
    env = expression_env(doc, key)
    if env is None and re.search(r"\b(on_play|legal_if|match|if|do|setup|first_dealer|next_dealer|allowed_if):",
                                 text):  # a value just being typed, not parsed yet
        env = PLAYER_ENV if key and key[0] == "rules" else CARD_ENV
    if key and key[-1] == "on":
        return [Item(e, "event", "event", EVENTS[e].doc) for e in EVENTS]
    if env is None:
        return []
    dot = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\.[A-Za-z_]*$", text)
    if dot:
        return attribute_items(doc, key, dot.group(1), env)
    items = [Item(p.name, "function", p.usage(), p.doc) for p in REGISTRY.primitives.values()]
    items += [Item(n.name, "variable", n.type, n.doc) for n in REGISTRY.names.values()]
    items += [Item(n, "field", t, "bound here by the engine") for n, t in env.items()]
    expr = _expression_text(doc, key)
    local = set(re.findall(r"([A-Za-z_]\w*)\s*=(?!=)", expr)) | set(re.findall(r"([A-Za-z_]\w*)\s*->", expr)) \
        | set(re.findall(r"\bfor\s+([A-Za-z_]\w*)\s+in\b", expr))
    items += [Item(n, "variable", "local", "a variable or parameter of this expression")
              for n in sorted(local - set(env) - set(REGISTRY.names))]
    items += [Item(k, "class", "card kind", "") for k in doc.kinds()]
    items += [Item(c, "constant", "colour", "") for c in doc.colors()]
    items += [Item(k, "keyword") for k in KEYWORDS]
    return items


def _expression_text(doc: Document, key: Key) -> str:
    value: Any = doc.own.data if doc.own else None
    for part in key:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return ""
    return value if isinstance(value, str) else ""


def attribute_items(doc: Document, key: Key, obj: str, env: Mapping[str, str]) -> list[Item]:
    """The attributes of `obj`: a card's or a player's, or both when its type is not known."""
    t = env.get(obj) or (REGISTRY.names[obj].type if obj in REGISTRY.names else None)
    if t is None:
        exprs = doc.analysis.expressions
        if exprs is not None and key in exprs.trees:
            types = exprs.types.get(key, {})
            t = next((types[id(n)] for n in nodes(exprs.trees[key])
                      if isinstance(n, ast.Name) and n.id == obj and id(n) in types), None)
    tables = [CARD_ATTRS] if t == "card" else [PLAYER_ATTRS] if t == "player" else [CARD_ATTRS, PLAYER_ATTRS]
    return [Item(a, "property", ty, d) for table in tables for a, (ty, d) in table.items()]


def key_items(doc: Document, line: int, before: str) -> list[Item]:
    """YAML keys the schema allows where a key is being typed (found from the indentation above)."""
    schema = variant_schema()
    path = _parents(doc, line, len(before) - len(before.lstrip(" -")), before.lstrip().startswith("- "))
    node: Any = schema
    for step in path:
        node = _resolve(schema, node)
        if step == "-":
            node = node.get("items", {})
        else:
            props = node.get("properties", {})
            node = props[step] if step in props else node.get("additionalProperties", {})
    node = _resolve(schema, node)
    if node.get("type") == "array":
        node = _resolve(schema, node.get("items", {}))
    props = node.get("properties", {}) if isinstance(node, dict) else {}
    return [Item(k, "property", "key", str(v.get("description", ""))) for k, v in props.items()]


def _resolve(schema: dict[str, Any], node: Any) -> dict[str, Any]:
    while isinstance(node, dict) and "$ref" in node:
        target: Any = schema
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target.get(part, {})
        node = target
    return node if isinstance(node, dict) else {}


def _parents(doc: Document, line: int, indent: int, item: bool) -> list[str]:
    """The keys (and list items, "-") that enclose a key typed at column `indent` on `line`."""
    path: list[str] = ["-"] if item else []
    target = indent - 2 if item else indent
    for n in range(line - 1, -1, -1):
        text = doc.line(n)
        col = len(text) - len(text.lstrip(" "))
        if not text.strip() or text.lstrip().startswith("#") or col >= target:
            continue
        if text[col:].startswith("- "):
            key = re.match(r"([A-Za-z_]\w*)\s*:", text[col + 2:])
            if key and col + 2 < target:  # inside the value of the item's first key
                path.insert(0, key.group(1))
            path.insert(0, "-")
        else:
            key = re.match(r"([A-Za-z_]\w*)\s*:", text[col:])
            if key:
                path.insert(0, key.group(1))
        target = col
        if col == 0:
            break
    return path


# -- definition ---------------------------------------------------------------------
def definition(doc: Document, line: int, char: int) -> Location | None:
    """A card kind's `cards:` entry (maybe in a base file), or the file `extends:` names."""
    word = doc.word_at(line, char)
    where = doc.key_at(line, char)
    if where is not None and where[0] == ("extends",):
        data = doc.own.data if doc.own else None
        ref = data.get("extends") if isinstance(data, dict) else None
        path = base_path(ref, doc.path) if isinstance(ref, str) else None
        return Location(str(path), Range(0, 0, 0, 0)) if path else None
    if word is None or word[0] not in doc.kinds():
        return None
    src = doc.analysis.source or doc.own
    if src is None:
        return None
    pos = src.key_pos(("cards", word[0]))
    return Location(pos.file, Range(pos.line - 1, pos.col - 1, pos.line - 1, pos.col - 1 + len(word[0])))


# -- outline ------------------------------------------------------------------------
def outline(doc: Document) -> list[Symbol]:
    """Cards, rules (by `name:`, else by event) and options of this file."""
    if doc.own is None or not isinstance(doc.own.data, dict):
        return []
    data, out = doc.own.data, []
    for section, kind in (("cards", "class"), ("options", "boolean")):
        entries = data.get(section)
        if isinstance(entries, dict):
            children = tuple(_symbol(doc, (section, name), name, kind) for name in entries)
            out.append(_symbol(doc, (section,), section, "namespace", children))
    rules = data.get("rules")
    if isinstance(rules, list):
        found = []
        for i, rule in enumerate(rules):
            if isinstance(rule, dict):
                name = str(rule.get("name") or f"on {rule.get('on', '?')}")
                found.append(_symbol(doc, ("rules", i), name, "event", detail=str(rule.get("on", ""))))
        out.append(_symbol(doc, ("rules",), "rules", "namespace", tuple(found)))
    return out


def _symbol(doc: Document, key: Key, name: str, kind: str, children: tuple[Symbol, ...] = (),
            detail: str = "") -> Symbol:
    assert doc.own is not None
    pos = doc.own.key_pos(key) if key in doc.own.key_spans else doc.own.pos(key)
    line, char = pos.line - 1, pos.col - 1
    end = _block_end(doc, line, char - 2 if isinstance(key[-1], int) else char)  # a list item: its dash
    selection = Range(line, char, line, char + len(name) if key in doc.own.key_spans else len(doc.line(line)))
    return Symbol(name, kind, Range(line, char, end, len(doc.line(end))), selection, detail, children)


def _block_end(doc: Document, line: int, indent: int) -> int:
    """The last line of the block that starts at `line`: before the next line indented no deeper."""
    last = line
    for n in range(line + 1, len(doc.lines)):
        text = doc.lines[n]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if len(text) - len(text.lstrip(" ")) <= indent:
            break
        last = n
    return last

