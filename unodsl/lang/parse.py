"""Text → syntax tree, with syntax errors a designer can read."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from . import ast


class LangSyntaxError(Exception):
    """A syntax error at (line, col) of an expression's text."""

    def __init__(self, message: str, line: int, col: int, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.hint = hint


class TooDeep(LangSyntaxError):
    """The expression nests deeper than MAX_TREE_DEPTH (at its deepest point)."""


MAX_TREE_DEPTH = 200  # far beyond any sane expression, far below Python's recursion limit
MAX_DIGITS = 18  # a number literal longer than this is no count a game can use


def _grammar_text() -> str:
    packaged = resources.files("unodsl").joinpath("grammar/unodsl.lark")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parents[2] / "grammar" / "unodsl.lark").read_text(encoding="utf-8")


@cache
def _parser() -> Lark:
    return Lark(_grammar_text(), parser="lalr", propagate_positions=True, maybe_placeholders=True)


def _at(meta: Tree[Any] | Token) -> ast.At:
    if isinstance(meta, Token):
        return (meta.line or 1, meta.column or 1)
    return (meta.meta.line, meta.meta.column) if not meta.meta.empty else (1, 1)


def _kids(t: Tree[Any]) -> list[Any]:
    return list(t.children)


@v_args(tree=True)
class _ToAst(Transformer[Token, Any]):
    def seq(self, t: Tree[Any]) -> ast.Node:
        body = tuple(_kids(t))
        return body[0] if len(body) == 1 else ast.Seq(_at(t), body)

    def assign(self, t: Tree[Any]) -> ast.Node:
        name, value = _kids(t)
        return ast.Assign(_at(t), str(name), value)

    def for_stmt(self, t: Tree[Any]) -> ast.Node:
        var, iterable, body = _kids(t)
        return ast.For(_at(t), str(var), iterable, body)

    def while_stmt(self, t: Tree[Any]) -> ast.Node:
        return ast.While(_at(t), *_kids(t))

    def repeat_stmt(self, t: Tree[Any]) -> ast.Node:
        return ast.Repeat(_at(t), *_kids(t))

    def lambda_(self, t: Tree[Any]) -> ast.Node:
        param, body = _kids(t)
        return ast.Lambda(_at(t), str(param), body)

    def if_else(self, t: Tree[Any]) -> ast.Node:
        return ast.If(_at(t), *_kids(t))

    def if_only(self, t: Tree[Any]) -> ast.Node:
        cond, then = _kids(t)
        return ast.If(_at(t), cond, then, None)

    def _chain(self, t: Tree[Any], op: str) -> ast.Node:
        nodes: list[ast.Node] = _kids(t)
        result = nodes[0]
        for right in nodes[1:]:
            result = ast.Binary(result.at, op, result, right)
        return result

    def or_(self, t: Tree[Any]) -> ast.Node:
        return self._chain(t, "or")

    def and_(self, t: Tree[Any]) -> ast.Node:
        return self._chain(t, "and")

    def not_(self, t: Tree[Any]) -> ast.Node:
        return ast.Unary(_at(t), "not", _kids(t)[0])

    def neg(self, t: Tree[Any]) -> ast.Node:
        return ast.Unary(_at(t), "-", _kids(t)[0])

    def compare(self, t: Tree[Any]) -> ast.Node:
        left, op, right = _kids(t)
        return ast.Binary(left.at, str(op), left, right)

    def contains(self, t: Tree[Any]) -> ast.Node:
        left, right = _kids(t)
        return ast.Binary(left.at, "in", left, right)

    def arith(self, t: Tree[Any]) -> ast.Node:
        items = _kids(t)
        result: ast.Node = items[0]
        for i in range(1, len(items), 2):
            result = ast.Binary(result.at, str(items[i]), result, items[i + 1])
        return result

    def attr(self, t: Tree[Any]) -> ast.Node:
        obj, name = _kids(t)
        return ast.Attr(_at(name), obj, str(name))

    def call(self, t: Tree[Any]) -> ast.Node:
        name, args = _kids(t)
        positional: list[ast.Node] = []
        keywords: list[tuple[str, ast.Node]] = []
        for arg in _kids(args) if isinstance(args, Tree) else ():
            if isinstance(arg, tuple):
                keywords.append(arg)
            else:
                positional.append(arg)
        return ast.Call(_at(name), str(name), tuple(positional), tuple(keywords))

    def kwarg(self, t: Tree[Any]) -> tuple[str, ast.Node]:
        name, value = _kids(t)
        return (str(name), value)  # type: ignore[return-value]

    def name(self, t: Tree[Any]) -> ast.Node:
        return ast.Name(_at(t), str(_kids(t)[0]))

    def int_(self, t: Tree[Any]) -> ast.Node:
        digits = str(_kids(t)[0])
        if len(digits) > MAX_DIGITS:
            raise LangSyntaxError(f"a number of {len(digits):,} digits is too large", *_at(t),
                                  f"numbers in expressions have at most {MAX_DIGITS} digits")
        return ast.Literal(_at(t), int(digits))

    def string(self, t: Tree[Any]) -> ast.Node:
        return ast.Literal(_at(t), str(_kids(t)[0])[1:-1])

    def true(self, t: Tree[Any]) -> ast.Node:
        return ast.Literal(_at(t), True)

    def false(self, t: Tree[Any]) -> ast.Node:
        return ast.Literal(_at(t), False)

    def none(self, t: Tree[Any]) -> ast.Node:
        return ast.Literal(_at(t), None)

    def list_(self, t: Tree[Any]) -> ast.Node:
        items = tuple(c for c in _kids(t) if c is not None)
        return ast.ListExpr(_at(t), items)


_TOKEN_WORDS = {
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COMMA": "','",
    "SEMICOLON": "';'", "DOT": "'.'", "COLON": "':'", "EQUAL": "'='", "NAME": "a name",
    "INT": "a number", "STRING": "a string", "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'", "THEN": "'then'", "ELSE": "'else'", "DO": "'do'", "IN": "'in'",
    "__ANON_0": "'->'", "$END": "the end", "MINUS": "'-'", "NOT": "'not'", "IF": "'if'", "FOR": "'for'",
    "WHILE": "'while'", "REPEAT": "'repeat'", "TRUE": "'true'", "FALSE": "'false'", "NONE": "'none'",
}


def _describe(expected: Any) -> str:
    words = sorted({_TOKEN_WORDS.get(str(e), repr(str(e).lower())) for e in expected})
    return ", ".join(words[:6]) + (" …" if len(words) > 6 else "")


def _explain(text: str, err: UnexpectedInput) -> LangSyntaxError:
    line, col = err.line or 1, err.column or 1
    opened = text.count("(") - text.count(")")
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        if opened > 0:
            return LangSyntaxError("missing closing parenthesis ')'", *_end(text),
                                   "every '(' needs a matching ')'")
        if text.count("[") > text.count("]"):
            return LangSyntaxError("missing closing bracket ']'", *_end(text))
        return LangSyntaxError("the expression ends too early", *_end(text),
                               f"expected {_describe(err.expected)}")
    if isinstance(err, UnexpectedCharacters):
        at = err.pos_in_stream or 0
        char = text[at] if at < len(text) else "?"
        hint = None
        if char == "=":
            hint = "compare with '==', assign with 'name = value'"
        elif char in "&|":
            hint = "write 'and' / 'or'"
        elif char == "!":
            hint = "write 'not x' or 'a != b'"
        return LangSyntaxError(f"unexpected character {char!r}", line, col, hint)
    assert isinstance(err, UnexpectedToken)
    tok = err.token
    if tok.type == "RPAR" and opened < 0:
        return LangSyntaxError("unmatched closing parenthesis ')'", line, col)
    if tok.type == "RSQB" and text.count("]") > text.count("["):
        return LangSyntaxError("unmatched closing bracket ']'", line, col)
    what = f"{tok.value!r}"
    if tok.type == "EQUAL":
        return LangSyntaxError("unexpected '='", line, col, "compare with '==', assign with 'name = value'")
    if tok.type in ("NAME", "INT", "STRING"):
        before = text[: tok.start_pos or 0]
        if "COMMA" in err.expected and before.count("(") + before.count("[") > before.count(")") + before.count("]"):
            return LangSyntaxError(f"missing ',' before {what}", line, col, "separate arguments with ','")
        if "SEMICOLON" in err.expected:
            return LangSyntaxError(f"missing ';' before {what}", line, col, "separate statements with ';'")
    return LangSyntaxError(f"unexpected {what}", line, col, f"expected {_describe(err.expected)}")


def _end(text: str) -> tuple[int, int]:
    lines = text.rstrip().split("\n")
    return len(lines), len(lines[-1]) + 1


def parse(text: str) -> ast.Node:
    """Parse a program (statements separated by ';') into a syntax tree."""
    if not text.strip():
        raise LangSyntaxError("empty expression", 1, 1)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        raise _explain(text, err) from None
    _check_depth(tree)
    try:
        node: ast.Node = _ToAst().transform(tree)
    except VisitError as err:  # the transformer's own errors, unwrapped
        if isinstance(err.orig_exc, LangSyntaxError):
            raise err.orig_exc from None
        raise
    return node


def _check_depth(tree: Tree[Any]) -> None:
    """Refuse a tree too deep to transform recursively (`if … else if …` 2,000 times)."""
    stack: list[tuple[Tree[Any], int]] = [(tree, 1)]
    while stack:
        node, d = stack.pop()
        if d > MAX_TREE_DEPTH:
            line, col = _at(node)
            raise TooDeep(f"the expression nests more than {MAX_TREE_DEPTH} levels deep", line, col,
                          "split it using variables (x = …; …)")
        stack += [(c, d + 1) for c in node.children if isinstance(c, Tree)]
