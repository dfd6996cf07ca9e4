"""The JSON Schema of variant files, and its errors as positioned diagnostics."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from .errors import Diagnostic
from .lang.check import did_you_mean
from .source import Source

_TYPE_WORDS = {"integer": "a whole number", "string": "a string", "boolean": "true or false",
               "object": "a mapping (key: value)", "array": "a list", "null": "null"}


@cache
def schema() -> dict[str, Any]:
    """The variant JSON Schema (draft 2020-12)."""
    text = resources.files("unodsl").joinpath("schema/variant.schema.json").read_text(encoding="utf-8")
    result: dict[str, Any] = json.loads(text)
    return result


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(schema())


def _where(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in path) or "the file"


def _typename(value: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string",
            list: "a list", dict: "a mapping", type(None): "null"}.get(type(value), type(value).__name__)


def _describe(err: ValidationError, src: Source) -> Diagnostic:
    path = tuple(err.absolute_path)
    where = _where(path)
    pos = src.pos(path)
    v = err.validator
    if v == "required":
        missing = str(err.message).split("'")[1]
        return Diagnostic(pos, f"{where}: missing required key {missing!r}",
                          _property_doc(err, missing))
    if v == "additionalProperties":
        allowed = list(err.schema.get("properties", {}))
        extras = [k for k in err.instance if k not in allowed] if isinstance(err.instance, dict) else []
        name = extras[0] if extras else "?"
        hint = did_you_mean(name, allowed) or (f"allowed keys: {', '.join(allowed)}" if allowed else None)
        return Diagnostic(src.key_pos((*path, name)), f"{where}: unknown key {name!r}", hint)
    if v == "type":
        wanted = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        words = " or ".join(_TYPE_WORDS.get(str(w), str(w)) for w in wanted)
        return Diagnostic(pos, f"{where} should be {words}, not {_typename(err.instance)}")
    if v == "enum":
        options = [str(o) for o in err.validator_value]
        return Diagnostic(pos, f"{where} must be one of {', '.join(options)}; got {err.instance!r}",
                          did_you_mean(str(err.instance), options))
    if v == "const":
        return Diagnostic(pos, f"{where} must be {err.validator_value!r}; got {err.instance!r}")
    if v in ("minimum", "maximum"):
        word = "at least" if v == "minimum" else "at most"
        return Diagnostic(pos, f"{where} must be {word} {err.validator_value}; got {err.instance}")
    if v == "pattern":
        return Diagnostic(pos, f"{where}: {err.instance!r} is not a valid name",
                          "use lower-case letters, digits and '_', starting with a letter")
    if v == "propertyNames":
        bad = err.instance if isinstance(err.instance, str) else "?"
        return Diagnostic(pos, f"{where}: {bad!r} is not a valid name",
                          "use lower-case letters, digits and '_', starting with a letter")
    if v in ("oneOf", "anyOf"):
        return _one_of(err, src, path)
    if v == "minItems":
        return Diagnostic(pos, f"{where} must have at least {err.validator_value} item(s)")
    if v == "maxItems":
        return Diagnostic(pos, f"{where} must have at most {err.validator_value} item(s)")
    if v == "uniqueItems":
        return Diagnostic(pos, f"{where} lists the same item twice")
    if v == "minProperties":
        return Diagnostic(pos, f"{where} must not be empty")
    if v == "minLength":
        return Diagnostic(pos, f"{where} must not be empty")
    return Diagnostic(pos, f"{where}: {err.message}")


def _property_doc(err: ValidationError, name: str) -> str | None:
    prop = err.schema.get("properties", {}).get(name, {})
    doc = prop.get("description")
    return f"{name}: {doc}" if doc else None


def _one_of(err: ValidationError, src: Source, path: tuple[Any, ...]) -> Diagnostic:
    where = _where(path)
    pos = src.pos(path)
    if path == ():
        inst = err.instance if isinstance(err.instance, dict) else {}
        if "sides" in inst and ("colors" in inst or "deck" in inst):
            return Diagnostic(pos, "a variant has either `colors` and `deck`, or `sides`, not both")
        return Diagnostic(pos, "the variant has no deck",
                          "add `colors:` and `deck:` (or `sides:` for a two-faced deck)")
    if path and path[-1] in ("points", "ranks", "kind"):
        wanted = {"points": "a number or `rank`", "ranks": "a number, a range like 1-9, or a list",
                  "kind": "a card kind or a list of kinds"}[str(path[-1])]
        return Diagnostic(pos, f"{where} should be {wanted}; got {err.instance!r}")
    if isinstance(err.instance, dict) and {"per_color", "count"} <= set(err.instance):
        return Diagnostic(pos, f"{where}: give either per_color or count, not both")
    if isinstance(err.instance, dict) and not {"per_color", "count"} & set(err.instance):
        return Diagnostic(pos, f"{where}: say how many cards with per_color or count")
    deepest = best_match(err.context) if err.context else None
    return _describe(deepest, src) if deepest is not None else Diagnostic(pos, f"{where}: {err.message}")


def validate(src: Source) -> list[Diagnostic]:
    """Schema errors of a loaded file, one per problem, in file order."""
    found = [_describe(e, src) for e in _validator().iter_errors(src.data)]
    unique = {(d.pos.line, d.pos.col, d.message): d for d in found}
    return sorted(unique.values(), key=lambda d: (d.pos.line, d.pos.col))
