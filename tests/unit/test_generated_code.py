"""The generated module of every shipped variant can be read: no function more than six
levels of blocks deep, no constant conditions, no local that is written and never read,
and each step's block headed by the place in the variant file it comes from (or, for
the flow's own steps, the function it runs)."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from tests.property.test_backends import ALL
from unodsl import load_variant
from unodsl.engine.backends import backend_of
from unodsl.engine.ops import AT

MARK = re.compile(rf"^\s*{AT}(\d+)(?: (.+))?$")


@cache
def module(path: Path) -> tuple[str, ast.Module]:
    source = backend_of(load_variant(path)).source
    return source, ast.parse(source)


def constant_tests(tree: ast.Module) -> list[int]:
    return [n.lineno for n in ast.walk(tree)
            if isinstance(n, (ast.If, ast.While, ast.IfExp)) and isinstance(n.test, ast.Constant)]


def too_deep(source: str, tree: ast.Module, most: int = 6) -> list[str]:
    """The functions with a line more than `most` levels deep (a function's body is level 1;
    a level is a block, as its indentation shows)."""
    lines = source.splitlines()
    deep = []
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef):
            levels = [n.col_offset // 4 for n in ast.walk(fn) if isinstance(n, ast.stmt) and n is not fn
                      and len(lines[n.lineno - 1]) - len(lines[n.lineno - 1].lstrip()) == n.col_offset]
            if max(levels) > most:
                deep.append(f"{fn.name}: {max(levels)}")
    return deep


def dead_locals(tree: ast.Module) -> list[str]:
    dead = []
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef):
            names = [n for n in ast.walk(fn) if isinstance(n, ast.Name)]
            read = {n.id for n in names if not isinstance(n.ctx, ast.Store)}
            dead += [f"{fn.name}: {n.id}" for n in names if isinstance(n.ctx, ast.Store) and n.id not in read]
    return dead


def unheaded(source: str) -> list[str]:
    """The steps of each function marked only bare (`#@N`), never with their heading."""
    missing: list[str] = []
    headed: set[int] = set()
    bare: set[int] = set()
    name = ""
    for line in [*source.splitlines(), "def end("]:
        if line.startswith("def "):
            missing += [f"{name} step {k}" for k in sorted(bare - headed - {0})]
            name, headed, bare = line[4:line.index("(")], set(), set()
        found = MARK.match(line)
        if found:
            (headed if found[2] else bare).add(int(found[1]))
    return missing


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_the_generated_module_reads_as_code_a_person_would_write(path: Path) -> None:
    source, tree = module(path)
    assert too_deep(source, tree) == []
    assert constant_tests(tree) == []
    assert dead_locals(tree) == []
    assert unheaded(source) == []


def test_the_checks_find_what_they_look_for() -> None:
    nested = "def f(g, e):\n" + "".join(" " * 4 * k + f"if x{k}:\n" for k in range(1, 8)) + " " * 32 + "pass\n"
    assert too_deep(nested, ast.parse(nested)) == ["f: 8"]
    assert too_deep(nested, ast.parse(nested), most=8) == []
    planted = ast.parse("def f(g, e):\n    x = 1\n    if True:\n        pass\n    return (1 if False else 2)\n")
    assert constant_tests(planted) == [3, 5]
    assert dead_locals(planted) == ["f: x"]
    assert unheaded("def run_1(g, e):\n    #@0\n    #@1\n    #@2 classic.yaml:3:4: skip()\n    #@2\n") == [
        "run_1 step 1"]
