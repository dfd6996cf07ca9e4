"""Functions a variant defines (`define:`): named expressions with typed parameters.

A function's body is checked once, where it is defined, with its parameters as names of
their declared types. A call is checked for the number and types of its arguments, then
put in place as the body with each parameter replaced by its argument (`expand`): the
checker records that tree against the call (Context.expansions), and both backends
compile or write the call as that tree, node by node as any other, so a function has no
meaning of its own to keep in step. The call stays in the syntax tree for messages and
the rulebook. A lambda of the body whose parameter an argument names is renamed, so that
the argument keeps meaning what it meant where the call is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace

from . import ast
from .walk import calls, nodes

# The types a parameter may be declared with (the schema lists the same).
PARAM_TYPES = ("card", "cards", "player", "players", "color", "int", "bool", "str")


@dataclass(frozen=True)
class Function:
    """A checked function: `flat` is its body with the functions it calls put in place,
    `types` the static type of each of flat's nodes, `returns` the body's type."""

    name: str
    params: tuple[tuple[str, str], ...]  # (name, type), in order
    body: ast.Node  # as written (the rulebook reads it)
    flat: ast.Node
    types: Mapping[int, str]
    returns: str
    nullable: bool  # its value may be none
    says: str | None = None

    def usage(self) -> str:
        return f"{self.name}({', '.join(f'{p}: {t}' for p, t in self.params)})"


def callees(body: ast.Node, defined: Iterable[str]) -> list[ast.Call]:
    """The calls of defined functions in a body, in source order."""
    names = set(defined)
    return sorted((c for c in calls(body) if c.func in names), key=lambda c: c.at)


def cycles(bodies: Mapping[str, ast.Node]) -> dict[str, tuple[ast.Call, list[str]]]:
    """For each function that calls itself, directly or through others: the call that
    starts the circle and the names around it (`f`, `g`, `f`)."""
    found: dict[str, tuple[ast.Call, list[str]]] = {}
    for start in bodies:
        # depth first from start's calls, looking for a way back to start
        stack: list[tuple[str, list[str], ast.Call | None]] = [(start, [start], None)]
        seen: set[str] = set()
        while stack and start not in found:
            name, path, first = stack.pop()
            for call in callees(bodies[name], bodies):
                step = first or call
                if call.func == start:
                    found[start] = (step, [*path, start])
                    break
                if call.func not in seen:
                    seen.add(call.func)
                    stack.append((call.func, [*path, call.func], step))
    return found


def order(bodies: Mapping[str, ast.Node]) -> list[str]:
    """The functions (with no circle among them) in an order where each comes after the
    ones it calls."""
    done: list[str] = []
    placed: set[str] = set()

    def visit(name: str, trail: frozenset[str]) -> None:
        if name in placed or name in trail:
            return
        for call in callees(bodies[name], bodies):
            visit(call.func, trail | {name})
        placed.add(name)
        done.append(name)

    for name in bodies:
        visit(name, frozenset())
    return done


def copy(node: ast.Node, swap: Mapping[str, ast.Node], types: Mapping[int, str], out: dict[int, str],
         inline: Mapping[int, ast.Node], taken: frozenset[str]) -> ast.Node:
    """A copy of `node` with names in `swap` replaced (a replacement is used as it is: its
    types are already known) and the calls in `inline` replaced by their trees; each new
    node's type, from `types`, recorded in `out`. A lambda whose parameter is in `taken`
    (named by an argument) gets a fresh parameter."""
    match node:
        case ast.Name(id=name) if name in swap:
            return swap[name]
        case ast.Call() if id(node) in inline:
            return copy(inline[id(node)], {}, types, out, {}, frozenset())
        case ast.Lambda(param=param, body=body):
            inner = {k: v for k, v in swap.items() if k != param}
            fresh = param
            if param in taken:
                n, used = 1, {x.id for x in nodes(body) if isinstance(x, ast.Name)}
                while f"{param}_{n}" in taken or f"{param}_{n}" in used:
                    n += 1
                fresh = f"{param}_{n}"
                use = next((n for n in nodes(body) if isinstance(n, ast.Name) and n.id == param), body)
                inner[param] = ast.Name(node.at, fresh)
                out[id(inner[param])] = types.get(id(use), "any")
            new: ast.Node = ast.Lambda(node.at, fresh, copy(body, inner, types, out, inline, taken | {fresh}))
        case _:
            changes: dict[str, object] = {}
            for f in fields(node):
                value = getattr(node, f.name)
                if isinstance(value, ast.Node):
                    changes[f.name] = copy(value, swap, types, out, inline, taken)
                elif isinstance(value, tuple):
                    changes[f.name] = tuple(
                        (v[0], copy(v[1], swap, types, out, inline, taken)) if isinstance(v, tuple)
                        else copy(v, swap, types, out, inline, taken) if isinstance(v, ast.Node) else v
                        for v in value)
            new = replace(node, **changes)  # type: ignore[arg-type]
    out[id(new)] = types.get(id(node), "any")
    return new


def expand(fn: Function, args: tuple[ast.Node, ...], out: dict[int, str]) -> ast.Node:
    """A call of `fn` put in place: its flat body with each parameter replaced by its
    argument (the arguments' types are recorded already)."""
    swap = {p: a for (p, _), a in zip(fn.params, args, strict=True)}
    taken = frozenset(n.id for a in args for n in nodes(a) if isinstance(n, ast.Name))
    return copy(fn.flat, swap, fn.types, out, {}, taken)
