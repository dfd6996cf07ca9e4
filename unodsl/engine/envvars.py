"""A generated loop runner's env entries as Python locals.

The flow's loops (the turns of a round) read and write a few entries of their env on
every pass — `e['player']`, `e['_action']` … — where a local variable costs a third as
much. `localised` rewrites a runner's text so that each `e['name']` is the local
`E_name`, loaded from the env when the runner starts and written back wherever the env
can be seen: before any statement that hands `e` on (a pause keeps it in a frame, a step
called rather than put in place reads it) and before the runner returns. After a
statement that handed it on and goes on, the locals are loaded again (the callee may
have bound a variable). So the env holds, whenever anyone can look, what the program
wrote. A runner where `e` is handed on inside a test (`if step(g, e):`) is left as it is.

`steadied` does the same for the game's steady fields (state.STEADY: the zones, the
hands, the table's size), which are bound when a game is made and only changed in
place: each `g.hands` is the local `G_hands`, read once when the runner starts.

`direct` lets an event with rules go straight to the function that queues them (the
module's `fire_N`, what Machine.emit calls through the backend) when no one else would hear it: no log is
kept and no listener attached (read at the event: a listener appended to
`g.listeners` by hand hears it too).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

from .state import STEADY

UNSET = "E_UNSET"  # the namespace's name for "not in the env (yet)"
_KEY = re.compile(r"[A-Za-z_]\w*")
_HEADERS = ("if ", "elif ", "while ", "for ", "with ", "try", "except", "else", "finally")


def localised(text: str) -> str:
    """`text` (one `def` of a generated module, its body in a `try:`) with its env entries
    as locals; unchanged if it hands `e` on where no statement can be put before it."""
    lines = text.split("\n")
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    reads: dict[int, list[tuple[int, int, str]]] = {}  # line → (start col, end col, key)
    handed: set[int] = set()  # lines that hand `e` on
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME or tok.string != "e" or tok.start[0] == 1:
            continue  # (line 1: the parameters)
        if i and tokens[i - 1].string == ".":
            continue
        key = _key(tokens[i + 1:i + 4])
        if key is not None:
            reads.setdefault(tok.start[0], []).append((tok.start[1], tokens[i + 3].end[1], key))
        else:
            handed.add(tok.start[0])
    keys = sorted({key for found in reads.values() for _, _, key in found})
    if not keys:
        return text
    for number in handed:
        if lines[number - 1].lstrip().startswith(_HEADERS):
            return text
    out: list[str] = []
    started = False
    for number, line in enumerate(lines, 1):
        for start, end, key in sorted(reads.get(number, ()), reverse=True):
            line = f"{line[:start]}E_{key}{line[end:]}"
        ind = line[:len(line) - len(line.lstrip())]
        stripped = line.strip()
        if not started and stripped == "try:":
            out += _load(keys, ind)
            started = True
        if (number in handed and number - 1 not in handed) or stripped == "return False":
            out += _store(keys, ind)  # (a line after one that handed it on: the env is as it was)
        out.append(line)
        if number in handed and not _leaves(lines, number, handed):
            out += _load(keys, ind)
    return "\n".join(out)


def steadied(text: str) -> str:
    """`text` (one `def` of a generated module, its body in a `try:`) with each read of a
    steady field of the game (`g.hands`) as a local read once before the `try:`; a field
    the text assigns (`g.n = …`) is left as it is."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    reads: list[tuple[int, int, int, str]] = []  # (line, start col, end col, field)
    assigned: set[str] = set()
    for i, tok in enumerate(tokens[:-3]):
        if tok.type != tokenize.NAME or tok.string != "g" or (i and tokens[i - 1].string == "."):
            continue
        dot, name, after = tokens[i + 1:i + 4]
        if dot.string != "." or name.string not in STEADY:
            continue
        if after.type == tokenize.OP and after.string.endswith("=") and after.string not in ("==", "<=", ">=", "!="):
            assigned.add(name.string)
        reads.append((tok.start[0], tok.start[1], name.end[1], name.string))
    fields = sorted({f for *_, f in reads} - assigned)
    if not fields:
        return text
    lines = text.split("\n")
    for number, start, end, field in sorted(reads, reverse=True):
        if field in fields:
            line = lines[number - 1]
            lines[number - 1] = f"{line[:start]}G_{field}{line[end:]}"
    for at, line in enumerate(lines):
        if line.strip() == "try:":
            ind = line[:len(line) - len(line.lstrip())]
            lines[at:at] = [f"{ind}G_{f} = g.{f}" for f in fields]
            break
    else:
        return text
    return "\n".join(lines)


def direct(text: str, fires: dict[str, str]) -> str:
    """`text` (one `def` of a generated module) with each statement `g.emit('event', data)`
    of an event in `fires` (its fire function's name) made
    `fire_N(g, data) if g.events is None and not g.listeners else g.emit('event', data)`:
    one line for one, so the lines keep their numbers."""
    lines = text.split("\n")
    for number, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("g.emit("):
            continue
        try:
            tree = ast.parse(stripped)
        except SyntaxError:
            continue
        match tree.body:
            case [ast.Expr(value=ast.Call(func=ast.Attribute(value=ast.Name(id="g"), attr="emit"),
                                          args=[ast.Constant(value=str() as event), data], keywords=[]))] if (
                    event in fires):
                ind = line[:len(line) - len(line.lstrip())]
                quiet = "g.events is None and not g.listeners"
                lines[number] = f"{ind}{fires[event]}(g, {ast.unparse(data)}) if {quiet} else {stripped}"
    return "\n".join(lines)


def _key(after: list[tokenize.TokenInfo]) -> str | None:
    """The key of `e[<literal>]` from the three tokens after `e`, if it is a plain name."""
    if len(after) < 3 or after[0].string != "[" or after[2].string != "]" or after[1].type != tokenize.STRING:
        return None
    try:
        key = ast.literal_eval(after[1].string)
    except (ValueError, SyntaxError):
        return None
    return key if isinstance(key, str) and _KEY.fullmatch(key) else None


def _store(keys: list[str], ind: str) -> list[str]:
    return [f"{ind}if E_{k} is not {UNSET}: e[{k!r}] = E_{k}" for k in keys]


def _load(keys: list[str], ind: str) -> list[str]:
    return [f"{ind}E_{k} = e.get({k!r}, {UNSET})" for k in keys]


def _leaves(lines: list[str], number: int, handed: set[int]) -> bool:
    """Does the statement after line `number` (at its indent) leave the runner, or hand
    `e` on too (then the load waits for after that one)?"""
    ind = len(lines[number - 1]) - len(lines[number - 1].lstrip())
    for after, line in enumerate(lines[number:], number + 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if len(line) - len(line.lstrip()) != ind:
            return False
        return line.strip().startswith(("return ", "raise ")) or after in handed
    return False
