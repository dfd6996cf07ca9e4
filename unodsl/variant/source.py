"""Read YAML safely while keeping the file, line and column of every node.

Only the plain YAML types are built (maps, lists, strings, numbers, booleans,
null); any other tag is refused, so loading a variant never runs code. Duplicate
keys are refused with both lines. Documents that expand past a node budget
(alias bombs), that nest deeper than a fixed limit, and oversized files are
refused too; none of them can exhaust memory, the stack or the clock.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode

from ..errors import Diagnostic, Pos, VariantError

MAX_BYTES = 1_000_000
MAX_NODES = 100_000  # a variant has a few hundred; the limit keeps reading a hostile file fast
MAX_DEPTH = 64  # nested maps and lists; PyYAML's composer recurses per level
MAX_CHARS = 2 * MAX_BYTES  # characters of text once aliases are expanded
MAX_DIGITS = 100  # an integer longer than this is no count or score a game can use

Key = tuple[str | int, ...]

_INT = re.compile(r"[-+]?(0|[1-9][0-9_]*)$")
_FLOAT = re.compile(r"[-+]?([0-9][0-9_]*)?\.[0-9]+([eE][-+]?[0-9]+)?$")
_TRUE = {"true", "True", "TRUE", "yes", "Yes", "on", "On"}
_FALSE = {"false", "False", "FALSE", "no", "No", "off", "Off"}
_NULL = {"", "~", "null", "Null", "NULL"}
_SCALAR_TAGS = {f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null")}
# libyaml when PyYAML has it: ten times faster, so a 1 MB file reads in a fraction of a second.
# Its error messages differ, so a file it refuses is read again by the Python loader for
# the message (same position, words designers already see).
_FAST: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_TIMESTAMP = "tag:yaml.org,2002:timestamp"  # a variant has no dates: `2024-05-01` stays text
# Control characters (C0 but tab and newline, DEL, C1) and the invisible bidi overrides:
# the first can drive a terminal, the second make text read differently than it runs.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|\r?\n|.)", re.S)
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
            "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
            "L": "\u2028", "P": "\u2029"}


def _unescape(code: str) -> str:
    """The text one escape of a double-quoted YAML scalar stands for (code: after the backslash)."""
    if code[0] in "xuU" and len(code) > 1:
        return chr(int(code[1:], 16))
    return _ESCAPES.get(code, "")


@dataclass(frozen=True, slots=True)
class Span:
    """Where a scalar's text starts, and how its inner offsets map to the file."""

    pos: Pos
    style: str | None  # None plain, "'" or '"' quoted, "|" or ">" block
    indent: int  # column (0-based) of the text of a block scalar
    # The whole text of the file (shared, not copied) and where the scalar's source is in it:
    text: str = field(default="", compare=False, repr=False)
    start: int = 0
    end: int = 0
    # Made once on the first position asked for (an expression's every step asks for one):
    # the source index of each character of the value, and the line breaks of the source.
    _maps: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def locate(self, line: int, col: int, value: str | None = None) -> Pos:
        """File position of 1-based (line, col) inside the scalar's text.

        Given the scalar's value, the position is found by walking its source, so
        it is right in folded, multi-line and escaped scalars too."""
        if value is not None and self.text:
            index, at = 0, 1
            while at < line:
                nl = value.find("\n", index)
                if nl < 0:
                    break
                index, at = nl + 1, at + 1
            return self.at_index(value, index + col - 1)
        if self.style in ("|", ">"):
            return Pos(self.pos.file, self.pos.line + line, self.indent + col)
        if line == 1:
            shift = 1 if self.style in ("'", '"') else 0
            return Pos(self.pos.file, self.pos.line, self.pos.col + shift + col - 1)
        return Pos(self.pos.file, self.pos.line + line - 1, col)

    def at_index(self, value: str, target: int) -> Pos:
        """File position of character `target` of the scalar's value (its end if beyond).
        The first call walks the scalar once; every later one is a look-up."""
        maps = self._maps.get("value")
        if maps is None or maps[0] != value:
            breaks = [m.start() for m in re.finditer("\n", self.text[self.start:self.end])]
            maps = self._maps["value"] = (value, self._source_indexes(value), breaks,
                                          self.text.rfind("\n", 0, self.start))
        _, indexes, breaks, before = maps
        j = indexes[max(0, min(target, len(value)))]
        k = bisect.bisect_left(breaks, j - self.start)  # line breaks of the scalar before j
        line_start = self.start + breaks[k - 1] + 1 if k else before + 1
        return Pos(self.pos.file, self.pos.line + k, j - line_start + 1)

    def _source_indexes(self, value: str) -> list[int]:
        """Walk the value and its source together: the source index of each value[i], and
        of its end.

        Each value character is matched to the next source character that makes
        it: an escape, a line break folded into a space, or the character itself;
        indentation and the breaks of continuation lines are skipped. Linear in the
        length of the scalar."""
        text, end, style = self.text, self.end, self.style
        j = self.start
        out: list[int] = []
        if style in ('"', "'"):
            j += 1
        elif style in ("|", ">"):
            nl = text.find("\n", j, end)
            j = nl + 1 if nl >= 0 else end
            j = self._skip_indent(j)
        for c in value:
            step = 1
            while j < end:
                r = text[j]
                if style == '"' and r == "\\":
                    m = _ESCAPE.match(text, j)
                    if m is None:
                        break
                    if _unescape(m.group(1)) == c:
                        step = m.end() - j
                        break
                    j = m.end()
                    continue
                if r == c or (r == "\n" and c in " \n"):
                    break
                j += 1
            out.append(min(j, end))
            if j >= end:
                break
            j += step
            if text[j - 1] == "\n":
                j = self._skip_indent(j)
        out += [min(j, end)] * (len(value) + 1 - len(out))
        return out

    def _skip_indent(self, j: int) -> int:
        """After a line break inside the scalar: past the indentation of the next line."""
        text, end = self.text, self.end
        if self.style in ("|", ">"):
            stop = min(j + self.indent, end)
            while j < stop and text[j] == " ":
                j += 1
            return j
        while j < end and text[j] in " \t":
            j += 1
        return j


@dataclass
class Source:
    """Plain data read from one file, plus where each node and key came from.

    After an overlay (see overlay.py) the data may come from several files; each
    span carries its own file, so positions still point where a value was written.
    `file` is the file that was asked for (the overlay, not its base).
    """

    data: Any
    file: str
    spans: dict[Key, Span] = field(default_factory=dict)
    key_spans: dict[Key, Span] = field(default_factory=dict)
    # Overlay bookkeeping, read by the schema check to explain its findings:
    removed: dict[Key, Pos] = field(default_factory=dict)  # key -> the `null` that removed it
    added: dict[Key, tuple[str, ...]] = field(default_factory=dict)  # new key -> base siblings
    notes: list[Diagnostic] = field(default_factory=list)  # warnings found while merging

    def pos(self, key: Key) -> Pos:
        """The position of the node at `key`, or of its nearest ancestor."""
        for n in range(len(key), -1, -1):
            span = self.spans.get(key[:n])
            if span is not None:
                return span.pos
        return Pos(self.file, 1, 1)

    def key_pos(self, key: Key) -> Pos:
        """The position of the mapping key naming `key` (falls back to the value)."""
        span = self.key_spans.get(key)
        return span.pos if span else self.pos(key)


def read_text(path: str | Path) -> tuple[str, str]:
    """Read a variant file, refusing what is not a reasonably sized UTF-8 text file."""
    name = str(path)
    p = Path(path)
    try:
        if p.is_dir():
            raise VariantError.at(Pos(name, 1, 1), "is a directory, not a variant file")
        if p.exists() and not p.is_file():  # a device or a pipe could block or never end
            raise VariantError.at(Pos(name, 1, 1), "is not a regular file")
        with p.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise VariantError.at(Pos(name, 1, 1), "no such file") from None
    except PermissionError:
        raise VariantError.at(Pos(name, 1, 1), "permission denied") from None
    except OSError as exc:
        raise VariantError.at(Pos(name, 1, 1), f"can't read the file ({exc.strerror or exc})") from None
    if len(data) > MAX_BYTES:
        size = p.stat().st_size
        raise VariantError.at(
            Pos(name, 1, 1),
            f"file is {size:,} bytes; variant files are limited to {MAX_BYTES:,}",
            "a variant is a short description; split out or remove generated content",
        )
    try:
        return name, data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = len(data[data.rfind(b"\n", 0, exc.start) + 1: exc.start].decode("utf-8", "replace")) + 1
        raise VariantError.at(Pos(name, line, col), f"not UTF-8 text ({exc.reason})",
                              "save the file as UTF-8") from None


def load_source(path: str | Path) -> Source:
    """Load one YAML file with positions."""
    name, text = read_text(path)
    return parse_source(text, name)


def parse_source(text: str, name: str = "<string>") -> Source:
    """Parse YAML text with positions (see module docstring for what is refused)."""
    lines = text.splitlines()
    try:
        try:
            _check_depth(text, name, _FAST)
            node = yaml.compose(text, Loader=_FAST)
        except yaml.YAMLError:
            _check_depth(text, name, yaml.SafeLoader)
            node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.reader.ReaderError as exc:
        line, col = _line_col(text, exc.position)
        char = f"U+{exc.character:04X}" if isinstance(exc.character, int) else repr(exc.character)
        raise VariantError.at(Pos(name, line, col), f"YAML syntax: character {char} is not allowed",
                              "variant files are printable text; remove control characters") from None
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, name, lines) from None
    except yaml.YAMLError as exc:
        raise VariantError.at(Pos(name, 1, 1), f"YAML syntax: {exc}") from None
    src = Source(None, name)
    if node is None:
        raise VariantError.at(Pos(name, 1, 1), "the file is empty", "start with `unodsl: 1`")
    builder = _NodeReader(src, text, lines)
    src.data = builder.build(node, ())
    return src


def _syntax_error(exc: yaml.MarkedYAMLError, name: str, lines: list[str]) -> VariantError:
    """A PyYAML error in words a designer can act on, at the most useful mark."""
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    problem = exc.problem or "invalid YAML"
    context = exc.context or ""
    opened = exc.context_mark
    hint = None
    if _tab_at(lines, line):
        hint = "YAML indentation must use spaces, not tabs"
    elif "quoted scalar" in context and "end of stream" in problem and opened is not None:
        line, col = opened.line + 1, opened.column + 1
        problem, hint = "this quoted string is never closed", "add the closing quote"
    elif "flow mapping" in context or "flow sequence" in context:
        bracket = "{" if "mapping" in context else "["
        if opened is not None:
            hint = f"the '{bracket}' at line {opened.line + 1}, column {opened.column + 1} is not closed " \
                   "before this point"
    elif "another document" in problem:
        problem, hint = "a second document starts here", "a variant file is one YAML document; remove the '---'"
    elif "<block end>" in problem or "block mapping" in context:
        hint = "the indentation of this line does not match the lines above it"
    elif "mapping values are not allowed" in problem:
        hint = "a value that contains ': ' must be quoted"
    return VariantError.at(Pos(name, line, col), f"YAML syntax: {problem}", hint)


def _check_depth(text: str, name: str, loader: type[yaml.SafeLoader]) -> None:
    """Refuse deep nesting from the event stream (iterative) before composing (recursive)."""
    depth = nodes = 0
    for event in yaml.parse(text, Loader=loader):
        if isinstance(event, (yaml.ScalarEvent, yaml.CollectionStartEvent)):
            nodes += 1
            if nodes > MAX_NODES:
                mark = event.start_mark
                raise VariantError.at(Pos(name, mark.line + 1, mark.column + 1) if mark else Pos(name, 1, 1),
                                      f"the document has more than {MAX_NODES:,} keys, values and items",
                                      "a variant is a short description; remove generated content")
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
                raise VariantError.at(Pos(name, line, col),
                                      f"maps and lists are nested more than {MAX_DEPTH} levels deep",
                                      "a variant is a shallow document; flatten this part")
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


def _tab_at(lines: list[str], line: int) -> bool:
    return 0 < line <= len(lines) and "\t" in lines[line - 1]


class _NodeReader:
    """Turns composed YAML nodes into plain data, recording the span of every value."""

    def __init__(self, src: Source, text: str, lines: list[str]) -> None:
        self.src = src
        self.text = text
        self.lines = lines
        self.count = 0
        self.chars = 0  # characters of text built so far, aliases expanded
        self.checked: set[int] = set()  # scalars whose text was checked (an alias is checked once)
        self.open: set[int] = set()  # the collections being built: an alias back to one is a loop

    def span(self, node: Node) -> Span:
        mark = node.start_mark
        pos = Pos(self.src.file, mark.line + 1, mark.column + 1)
        style = getattr(node, "style", None) or None  # libyaml says '' for plain
        indent = 0
        if style in ("|", ">"):
            # The block's indentation: that of its first line that is not blank.
            for body in self.lines[mark.line + 1: node.end_mark.line + 1]:
                if body.strip():
                    indent = len(body) - len(body.lstrip(" "))
                    break
        return Span(pos, style, indent, self.text, mark.index, node.end_mark.index)

    def build(self, node: Node, key: Key) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise VariantError.at(
                self.span(node).pos,
                f"the document expands to more than {MAX_NODES:,} nodes",
                "aliases that repeat aliases grow exponentially (a 'billion laughs' file)",
            )
        if id(node) in self.open:
            raise VariantError.at(self.span(node).pos, "an alias refers to the node that contains it",
                                  "a variant is plain data; write the value out instead of the loop")
        if len(key) > MAX_DEPTH:  # aliases of aliases can nest deeper than the text does
            raise VariantError.at(
                self.span(node).pos, f"maps and lists are nested more than {MAX_DEPTH} levels deep",
                "a variant is a shallow document; flatten this part (check for aliases of aliases)",
            )
        self.src.spans[key] = self.span(node)
        if isinstance(node, ScalarNode):
            return self.scalar(node)
        self.open.add(id(node))
        try:
            if isinstance(node, MappingNode):
                return self.mapping(node, key)
            self.check_tag(node, "tag:yaml.org,2002:seq")
            return [self.build(item, (*key, i)) for i, item in enumerate(node.value)]
        finally:
            self.open.discard(id(node))

    def check_tag(self, node: Node, expected: str) -> None:
        if node.tag != expected:
            raise VariantError.at(
                self.span(node).pos,
                f"YAML tag {node.tag!r} is not allowed",
                "variant files are plain data: maps, lists, strings, numbers and booleans",
            )

    def mapping(self, node: MappingNode, key: Key) -> dict[str, Any]:
        self.check_tag(node, "tag:yaml.org,2002:map")
        out: dict[str, Any] = {}
        for knode, vnode in node.value:
            if knode.tag == "tag:yaml.org,2002:merge":
                raise VariantError.at(
                    self.span(knode).pos, "YAML merge keys (<<) are not supported",
                    "use `extends:` to build on another variant",
                )
            name = self.build_key(knode)
            child = (*key, name)
            if name in out:
                first = self.src.key_spans[child].pos
                raise VariantError.at(
                    self.span(knode).pos,
                    f"duplicate key {name!r} (first defined at line {first.line})",
                    "remove one of the two; YAML would silently keep only the last",
                )
            self.src.key_spans[child] = self.span(knode)
            out[name] = self.build(vnode, child)
        return out

    def build_key(self, node: Node) -> str:
        if not isinstance(node, ScalarNode):
            raise VariantError.at(self.span(node).pos, "a mapping key must be a plain name")
        value = self.scalar(node)
        return value if isinstance(value, str) else str(node.value)

    def scalar(self, node: ScalarNode) -> Any:
        text = node.value
        self.chars += len(text)
        if self.chars > MAX_CHARS:
            raise VariantError.at(
                self.span(node).pos, f"the document expands to more than {MAX_CHARS:,} characters of text",
                "aliases (*name) repeat the text they refer to; write a shorter variant",
            )
        if id(node) not in self.checked:
            self.checked.add(id(node))
            self.check_text(node)
        if node.tag == _TIMESTAMP and not node.style:
            return text
        if node.tag not in _SCALAR_TAGS:
            self.check_tag(node, "tag:yaml.org,2002:str")
        if node.style or node.tag == "tag:yaml.org,2002:str":
            return text
        if text in _NULL:
            return None
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        if _INT.match(text):
            digits = text.lstrip("+-").replace("_", "")
            if len(digits) > MAX_DIGITS:
                raise VariantError.at(self.span(node).pos, f"a number of {len(digits):,} digits is too large",
                                      f"numbers in a variant have at most {MAX_DIGITS} digits")
            return int(digits) * (-1 if text.startswith("-") else 1)
        if _FLOAT.match(text):
            return float(text.replace("_", ""))
        return text

    def check_text(self, node: ScalarNode) -> None:
        """Refuse control characters, which an escape ("\\e", "\\0") puts in a quoted string."""
        bad = CONTROL.search(node.value)
        if bad is None:
            return
        code = f"U+{ord(bad.group()):04X}"
        raise VariantError.at(self.span(node).at_index(node.value, bad.start()),
                              f"a control character ({code}) in text is not allowed",
                              "variant text is printable; remove the escape or the invisible character")
