"""Variant options: their declarations, the values a table chooses, and the patches merged.

An option is either a switch (`type: bool`, the default: a patch under `set:` merged
when it is on) or a value (`type: int`, with a default and a range: read as
`option.NAME` in expressions and `{option: NAME}` where the file wants a number).
Declarations are checked into positioned diagnostics; a chosen value that does not
fit (from `-o NAME=VALUE` or `load_variant(..., options=...)`) is a VariantError at
the option's declaration.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..errors import Diagnostic, VariantError, did_you_mean
from ..model import Option, OptionValue
from .overlay import overlay
from .source import Source

Chosen = Mapping[str, bool | int | str]  # a value from the command line is still text
ON_WORDS, OFF_WORDS = ("on", "true", "yes", "1"), ("off", "false", "no", "0")
_INT = re.compile(r"^[+-]?[0-9]{1,9}$")
# A variant is checked once more with each option switched on (load.validate_file): the
# options of a file are few (the shipped variants have up to 4), and past this many a
# check would take minutes.
MAX_OPTIONS = 32


def declared(src: Source) -> dict[str, dict[str, Any]]:
    """The raw `options:` table of a (schema-valid) file."""
    table = src.data.get("options") if isinstance(src.data, dict) else None
    return {k: v for k, v in table.items() if isinstance(v, dict)} if isinstance(table, dict) else {}


def declare(src: Source) -> tuple[dict[str, Option], list[Diagnostic]]:
    """Each declared option at its default, and every mistake in the declarations."""
    options: dict[str, Option] = {}
    diags: list[Diagnostic] = []

    def error(key: tuple[str, ...], message: str, hint: str | None = None) -> None:
        at = ("options", *key)
        diags.append(Diagnostic(src.key_pos(at) if len(key) == 1 else src.pos(at), message, hint))

    table = declared(src)
    if len(table) > MAX_OPTIONS:
        diags.append(Diagnostic(src.key_pos(("options",)), f"more than {MAX_OPTIONS} options ({len(table):,}); "
                                "a variant is checked with each switched on",
                                "keep the options a table would choose; make a house rule of the rest "
                                "(a file that extends this one)"))
        return {}, diags
    for name, raw in table.items():
        kind = raw.get("type", "bool")
        default = raw.get("default", False if kind == "bool" else None)
        description = str(raw.get("description", ""))
        if kind == "bool":
            for key in ("min", "max"):
                if key in raw:
                    error((name, key), f"option {name!r} is switched on or off; it has no {key}",
                          "give it type: int to make it a number")
            if not isinstance(default, bool):
                error((name, "default"), f"option {name!r} is on or off, so its default is true or false, "
                      f"not {_yaml(default)}", "or give it type: int")
                default = False
            if "set" not in raw:
                error((name,), f"option {name!r} is switched on or off but changes nothing",
                      "add set: with the part of the file it changes, or give it type: int")
            options[name] = Option(name, description, default, "bool", default)
            continue
        lo, hi = raw.get("min"), raw.get("max")
        if "set" in raw:
            error((name, "set"), f"option {name!r} is a number, so it has no patch",
                  f"read its value where it is needed: option.{name} in an expression, "
                  f"{{option: {name}}} as a value")
        if not isinstance(default, int) or isinstance(default, bool):
            error((name, "default") if "default" in raw else (name,),
                  f"option {name!r} is a whole number, so its default must be one, not {_yaml(default)}",
                  "for example default: 500")
            continue
        if lo is not None and hi is not None and lo > hi:
            error((name, "min"), f"option {name!r}: min ({lo}) is more than max ({hi})", "swap the two numbers")
            continue
        if (lo is not None and default < lo) or (hi is not None and default > hi):
            error((name, "default"), f"option {name!r}: the default {default} is outside its range "
                  f"{range_text(lo, hi)}", "change the default or the range")
            continue
        options[name] = Option(name, description, default, "int", default, lo, hi)
    return options, diags


def choose(src: Source, options: Mapping[str, Option], chosen: Chosen) -> dict[str, Option]:
    """The options with the chosen values; an unknown name or a value that does not fit is an error."""
    out = dict(options)
    for name, given in chosen.items():
        if name not in options:
            hint = did_you_mean(name, options) or (
                f"options: {', '.join(options)}" if options else "this variant has no options")
            raise VariantError.at(src.pos(("options",)), f"unknown option {name!r}", hint)
        opt = options[name]
        value = _coerce(opt, given)
        if value is None:
            told = ": give it one" if isinstance(given, bool) else f", not {given!r}"
            raise VariantError.at(src.key_pos(("options", name)),
                                  f"option {name!r} takes {opt.type_text}{told}",
                                  f"for example -o {name}={opt.example}")
        out[name] = opt.with_value(value)
    return out


def apply_patches(src: Source, options: Mapping[str, Option]) -> Source:
    """Merge the patch of every bool option that is on."""
    raw = declared(src)
    for name, opt in options.items():
        patch = raw.get(name, {}).get("set")
        if opt.enabled and isinstance(patch, dict):
            src = overlay(src, patch, src, ("options", name, "set"))
    return src


def range_text(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"{lo}–{hi}"
    if lo is not None:
        return f"{lo} or more"
    return f"{hi} or less" if hi is not None else "any whole number"


def _coerce(opt: Option, given: bool | int | str) -> OptionValue | None:
    """`given` as a value of the option's type and range, or None if it is not one."""
    if opt.type == "bool":
        if isinstance(given, bool):
            return given
        if isinstance(given, str) and given.strip().lower() in ON_WORDS + OFF_WORDS:
            return given.strip().lower() in ON_WORDS
        return None
    if isinstance(given, bool):
        return None
    if isinstance(given, str):
        if not _INT.match(given.strip()):
            return None
        given = int(given.strip())
    if not isinstance(given, int):
        return None
    if (opt.min is not None and given < opt.min) or (opt.max is not None and given > opt.max):
        return None
    return given



def _yaml(value: object) -> str:
    """A value as the file writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "nothing" if value is None else repr(value)
