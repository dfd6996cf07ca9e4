"""The JSON Schema of variant files, and its errors as positioned diagnostics."""

from __future__ import annotations

import copy
import difflib
import json
import re
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match

from ..errors import Diagnostic, did_you_mean
from .source import Source

MAX_UNKNOWN = 20  # unknown keys reported one by one per mapping; the rest are counted

_TYPE_WORDS = {"integer": "a whole number", "string": "a string", "boolean": "true or false",
               "object": "a mapping (key: value)", "array": "a list", "null": "null"}


SCHEMA_FILE, OVERLAY_SCHEMA_FILE = "variant.schema.json", "overlay.schema.json"


def schema_text(overlay: bool = False) -> str:
    """The text of a schema file as shipped in unodsl/variant/schemas/ (the overlay's is
    generated from the variant's; a test keeps it current)."""
    name = OVERLAY_SCHEMA_FILE if overlay else SCHEMA_FILE
    return resources.files("unodsl").joinpath(f"variant/schemas/{name}").read_text(encoding="utf-8")


@cache
def schema() -> dict[str, Any]:
    """The variant JSON Schema (draft 2020-12)."""
    result: dict[str, Any] = json.loads(schema_text())
    return result


@cache
def overlay_schema() -> dict[str, Any]:
    """The schema of a file that `extends:` another, for editors (derived, never edited).

    An overlay states only what differs, so no key is required and any key may be
    null (which removes it from the base). Lists replace rather than merge, so
    what is inside a list must still be complete and keeps every constraint;
    but `rules:` merge by name (each rule named; `{name: X, remove: true}`
    removes one), and `deck:` / `sides:` may be `{add: [...]}` or
    `{replace: [...]}` (see overlay.py).
    """
    full = copy.deepcopy(schema())
    out = _relax(full)
    out["$id"] = full["$id"].replace("variant-", "overlay-")
    out["title"] = "unodsl variant overlay (a file with `extends:`)"
    out["description"] = ("Changes to the variant named by `extends:`: " + MERGE_WORDS + " "
                          + full["description"])
    out["required"] = ["extends"]
    out.pop("oneOf", None)
    props = out["properties"]
    rule = full["properties"]["rules"]["items"]
    named = {**rule, "required": ["name", *rule["required"]]}
    removal = {"type": "object", "required": ["name", "remove"], "additionalProperties": False,
               "description": "Removes the inherited rule of this name.",
               "properties": {"name": rule["properties"]["name"], "remove": {"const": True}}}
    props["rules"] = _nullable({
        "description": "Rules merged by name with the inherited ones: the same name replaces that rule, "
                       "a new name adds one, `{name: NAME, remove: true}` removes one.",
        "type": "array", "items": {"oneOf": [named, removal]}})
    for name in ("deck", "sides"):
        whole = {k: v for k, v in full["properties"][name].items() if k != "description"}
        props[name] = {
            "description": f"{full['properties'][name]['description']} A list replaces the inherited "
                           f"{name} (with a warning); `{{add: [...]}}` appends to it; "
                           "`{replace: [...]}` replaces it.",
            "anyOf": [whole, {"type": "object", "additionalProperties": False, "minProperties": 1,
                              "maxProperties": 1, "properties": {"add": whole, "replace": whole}},
                      _REMOVAL]}
    return out


MERGE_WORDS = ("maps merge, lists replace, null removes a key; `rules:` merge by `name:`, and "
               "`deck: {add: [...]}` adds groups.")


def _relax(node: dict[str, Any]) -> dict[str, Any]:
    """Drop `required` from an object reached through maps; allow null for its keys."""
    out = dict(node)
    out.pop("required", None)
    if isinstance(out.get("properties"), dict):
        out["properties"] = {name: _nullable(_relax(sub)) for name, sub in out["properties"].items()}
    if isinstance(out.get("additionalProperties"), dict):
        out["additionalProperties"] = _nullable(_relax(out["additionalProperties"]))
    return out


_REMOVAL = {"type": "null", "description": "null removes this key from the base variant"}


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    inner = {k: v for k, v in node.items() if k != "description"}
    wrapped: dict[str, Any] = {"anyOf": [inner, _REMOVAL]}
    if "description" in node:
        wrapped = {"description": node["description"], **wrapped}
    return wrapped


def _is_integer(checker: Any, value: Any) -> bool:
    """A whole number as written: `2.0` and `2.5` are not counts (JSON Schema would take 2.0)."""
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _ecma(pattern: str) -> re.Pattern[str]:
    """A schema's pattern as JSON Schema means it (ECMA 262): `$` is the end of the text.
    Python's `$` also matches before a final line break, so `"red\\n"` passed as a name."""
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", pattern))


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not _ecma(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _unique_items(validator: Any, unique: bool, instance: Any, schema: Any) -> Iterator[ValidationError]:
    """uniqueItems in linear time (jsonschema compares a list of mixed types pair by pair: a
    list of 20,000 names and numbers took minutes). Equal as JSON: 1 and 1.0, not 1 and true."""
    if not unique or not validator.is_type(instance, "array"):
        return
    seen: set[Any] = set()
    for item in instance:
        key = (("b", item) if isinstance(item, bool) else ("n", item) if isinstance(item, int | float)
               else ("s", item) if isinstance(item, str) or item is None
               else ("j", json.dumps(item, sort_keys=True, default=str)))
        if key in seen:
            yield ValidationError(f"{instance!r} has non-unique elements")
            return
        seen.add(key)


_Validator = validators.extend(
    Draft202012Validator, validators={"pattern": _pattern, "uniqueItems": _unique_items},
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_integer))


@cache
def _validator() -> Any:
    return _Validator(schema())


def _where(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in path) or "the file"


def _typename(value: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a decimal number", str: "a string",
            list: "a list", dict: "a mapping", type(None): "null"}.get(type(value), type(value).__name__)


def _describe(err: ValidationError, src: Source) -> Diagnostic:
    path = tuple(err.absolute_path)
    where = _where(path)
    pos = src.pos(path)
    v = err.validator
    if v == "required":
        missing = str(err.message).split("'")[1]
        removed = src.removed.get((*path, missing))
        if removed is not None:
            return Diagnostic(removed, f"{where}: required key {missing!r} is removed here",
                              f"give it a value instead of null ({_property_doc(err, missing) or missing})")
        return Diagnostic(pos, f"{where}: missing required key {missing!r}",
                          _added_hint(src, path) or _property_doc(err, missing))
    if v == "additionalProperties":
        return _unknown_keys(err, src, path)[0]
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
        items = err.instance if isinstance(err.instance, list) else []
        seen: dict[str, int] = {}
        for again, item in enumerate(items):  # one pass: a list of 20,000 colours is not quadratic
            first = seen.setdefault(json.dumps(item, sort_keys=True, default=str), again)
            if first != again:
                return Diagnostic(src.pos((*path, again)), f"{where} lists {_short(item)} twice",
                                  f"it is already item {first + 1} of the list; remove one")
        return Diagnostic(pos, f"{where} lists the same item twice")
    if v == "minProperties":
        return Diagnostic(pos, f"{where} must not be empty")
    if v == "minLength":
        return Diagnostic(pos, f"{where} must not be empty")
    return Diagnostic(pos, f"{where}: {err.message}")


def _short(value: Any, limit: int = 60) -> str:
    """repr() of a value, cut short: a message quotes what it is about, not a whole document."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _misspelt(errors: list[ValidationError]) -> set[tuple[tuple[Any, ...], str]]:
    """(mapping path, required key) pairs where an unknown key of the mapping is a near
    miss of the missing key: `scorng:` is one mistake, reported once as the unknown key."""
    out = set()
    for e in errors:
        if e.validator == "additionalProperties" and isinstance(e.instance, dict):
            allowed = list(e.schema.get("properties", {}))
            for name in [k for k in e.instance if k not in allowed][:MAX_UNKNOWN]:
                close = difflib.get_close_matches(str(name), allowed, n=1, cutoff=0.6)
                if close:
                    out.add((tuple(e.absolute_path), close[0]))
    return out


def _unknown_keys(err: ValidationError, src: Source, path: tuple[Any, ...]) -> list[Diagnostic]:
    """One diagnostic per unknown key of a mapping (the schema reports them together)."""
    where = _where(path)
    allowed = list(err.schema.get("properties", {}))
    extras = [k for k in err.instance if k not in allowed] if isinstance(err.instance, dict) else []
    out = []
    for name in extras[:MAX_UNKNOWN] or ["?"]:
        hint = did_you_mean(name, allowed) or (f"allowed keys: {', '.join(allowed)}" if allowed else None)
        out.append(Diagnostic(src.key_pos((*path, name)), f"{where}: unknown key {_short(name)}", hint))
    if len(extras) > MAX_UNKNOWN:
        rest = len(extras) - MAX_UNKNOWN
        out.append(Diagnostic(src.key_pos((*path, extras[MAX_UNKNOWN])),
                              f"{where}: {rest:,} more unknown key{'s' if rest > 1 else ''} from here on",
                              "only the first unknown keys are listed one by one"))
    return out


def _added_hint(src: Source, path: tuple[Any, ...]) -> str | None:
    """For a key an overlay added next to near-misses in its base: the near miss."""
    siblings = src.added.get(path)
    if not siblings or not path:
        return None
    close = did_you_mean(str(path[-1]), siblings)
    return f"{path[-1]!r} is new (the base has no such key); {close}" if close else None


def _property_doc(err: ValidationError, name: str) -> str | None:
    prop = err.schema.get("properties", {}).get(name, {})
    doc = prop.get("description")
    return f"{name}: {doc}" if doc else None


def _teams(teams: list[list[Any]], src: Source) -> Diagnostic:
    """What is wrong with a list of teams the schema refused."""
    example = "for example teams: [[0, 2], [1, 3]] (seats are numbered from 0)"
    if len(teams) < 2:
        return Diagnostic(src.pos(("teams",)), f"teams lists {len(teams)} team; partners need at least two "
                          "teams", example)
    for i, team in enumerate(teams):
        if not team:
            return Diagnostic(src.pos(("teams", i)), f"team {i} has no seats", example)
        for j, seat in enumerate(team):
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 99:
                return Diagnostic(src.pos(("teams", i, j)), f"team {i} lists {_short(seat)}, which is not a seat: "
                                  "seats are whole numbers from 0 to 99", example)
    return Diagnostic(src.pos(("teams",)), f"teams should be `opposite` or a list of teams; got {_short(teams)}",
                      example)


def _one_of(err: ValidationError, src: Source, path: tuple[Any, ...]) -> Diagnostic:
    where = _where(path)
    pos = src.pos(path)
    if path == ():
        inst = err.instance if isinstance(err.instance, dict) else {}
        if "sides" in inst and ("colors" in inst or "deck" in inst):
            return Diagnostic(src.key_pos(("sides",)), "a variant has either `colors` and `deck`, or `sides`, not both",
                              "a one-sided deck uses `colors:` and `deck:`; a two-faced deck uses `sides:`")
        return Diagnostic(pos, "the variant has no deck",
                          "add `colors:` and `deck:` (or `sides:` for a two-faced deck)")
    if path and path[-1] in ("points", "ranks", "kind"):
        wanted = {"points": "a number or `rank`", "ranks": "a number, a range like 1-9, or a list",
                  "kind": "a card kind or a list of kinds"}[str(path[-1])]
        return Diagnostic(pos, f"{where} should be {wanted}; got {err.instance!r}")
    inst = err.instance
    if path == ("teams",) and not (isinstance(inst, list) and all(isinstance(t, list) for t in inst)):
        return Diagnostic(pos, "teams should be `opposite` or a list of teams, each a list of seats; "
                          f"got {_short(inst)}",
                          "for example teams: opposite, or teams: [[0, 2], [1, 3]]")
    if path == ("teams",):  # a list of lists: say which team or seat is wrong
        return _teams(inst, src)
    alternatives = err.validator_value if isinstance(err.validator_value, list) else []
    if isinstance(err.instance, dict) and {"$ref": "#/$defs/option_value"} in alternatives:
        return Diagnostic(pos, f"{where} should be a number or {{option: NAME}} (a number option's value)")
    if path and path[0] == "design":
        if len(path) > 2 and path[1] == "vary":
            return Diagnostic(pos, f"{where} should be [lo, hi] (whole numbers) or true (its whole range); "
                              f"got {_short(inst)}", "for example count.KIND: [0, 4]")
        if isinstance(inst, dict) and inst:
            fitting = [e for e in err.context if e.validator not in ("type", "minItems", "maxItems")]
            if fitting:
                return _describe(best_match(fitting), src)
        return Diagnostic(pos, f"{where} should be a target: [lo, hi], {{min: …}}, {{max: …}} or "
                          f"{{goal: lowest}}; got {_short(inst)}", "for example first_seat_advantage: {max: 0.02}")
    if isinstance(err.instance, dict) and {"per_color", "count"} <= set(err.instance):
        return Diagnostic(pos, f"{where}: give either per_color or count, not both")
    if isinstance(err.instance, dict) and not {"per_color", "count"} & set(err.instance):
        return Diagnostic(pos, f"{where}: say how many cards with per_color or count")
    # The alternative whose type fits the value says what is wrong with it.
    fitting = [e for e in err.context if e.validator != "type"] or err.context
    deepest = best_match(fitting) if fitting else None
    return _describe(deepest, src) if deepest is not None else Diagnostic(pos, f"{where}: {err.message}")


def validate(src: Source) -> list[Diagnostic]:
    """Schema errors of a loaded (possibly merged) file, one per problem, in file order."""
    if not isinstance(src.data, dict):
        return [Diagnostic(src.pos(()), f"the file should be a mapping (key: value), not {_typename(src.data)}",
                           "a variant file starts with `unodsl: 1` and `name: …` (see `unodsl schema`)")]
    errors = list(_validator().iter_errors(src.data))
    # A value of the wrong type fails its other constraints too; report the type only.
    mistyped = {tuple(e.absolute_path) for e in errors if e.validator == "type"}
    misspelt = _misspelt(errors)
    found = []
    for e in errors:
        if e.validator != "type" and tuple(e.absolute_path) in mistyped:
            continue
        if e.validator == "required" and (tuple(e.absolute_path), str(e.message).split("'")[1]) in misspelt:
            continue
        if e.validator == "additionalProperties":
            found += _unknown_keys(e, src, tuple(e.absolute_path))
        else:
            found.append(_describe(e, src))
    unique = {(d.pos, d.message): d for d in found}
    return sorted(unique.values(), key=lambda d: (d.pos.file != src.file, d.pos.file, d.pos.line, d.pos.col))
