"""Variant file → checked, compiled Variant: the passes in order.

resolve (the file and what it extends) → schema → options merged → schema again
→ build the model (expressions parsed, checked, compiled) → whole-file lints.
Every problem along the way is a positioned Diagnostic; they are collected and
raised together as one VariantError. `validate_file` is the checker's entry
point (every diagnostic, warnings included); `load_variant` gives a Variant or raises.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..errors import Diagnostic, VariantError, did_you_mean
from .build import VariantBuilder
from .expressions import Expressions
from .lint import lint
from .model import Option, Variant
from .overlay import overlay
from .resolve import load_tree
from .schema import validate
from .source import Source


def apply_options(src: Source, chosen: Mapping[str, bool]) -> tuple[Source, tuple[Option, ...]]:
    """Merge the patches of the options that are on; unknown names are errors."""
    declared = src.data.get("options", {}) if isinstance(src.data, dict) else {}
    declared = declared if isinstance(declared, dict) else {}
    for name in chosen:
        if name not in declared:
            hint = did_you_mean(name, declared) or (
                f"options: {', '.join(declared)}" if declared else "this variant has no options")
            raise VariantError.at(src.pos(("options",)), f"unknown option {name!r}", hint)
    options = []
    for name, raw in declared.items():
        if not isinstance(raw, dict):
            continue
        on = chosen.get(name, bool(raw.get("default", False)))
        options.append(Option(name, str(raw.get("description", "")), on))
        if on and isinstance(raw.get("set"), dict):
            src = overlay(src, raw["set"], src, ("options", name, "set"))
    return src, tuple(options)


def check_source(src: Source, options: Mapping[str, bool] | None = None
                 ) -> tuple[Variant | None, list[Diagnostic]]:
    """Schema and semantic checks; the Variant is None if any error was found."""
    problems = validate(src)
    if problems:
        return None, _ordered([*problems, *src.notes], src.file)
    merged, opts = apply_options(src, options or {})
    if merged is not src:
        problems = validate(merged)
        if problems:
            return None, _ordered([*problems, *merged.notes], src.file)
    exprs = Expressions(merged)
    builder = VariantBuilder(exprs)
    variant = builder.build()
    lint(exprs, variant, builder.deck_ok)
    diags = _ordered([*exprs.diags, *merged.notes], src.file)
    if any(d.severity == "error" for d in diags):
        return None, diags
    return dataclasses.replace(variant, options=opts), diags


def load_variant(name: str | Path, options: Mapping[str, bool] | None = None,
                 allow: Iterable[str | Path] = ()) -> Variant:
    """Load, check and compile a variant (a path, or a shipped variant's name).

    Its `extends:` may name shipped variants and files under the folder of `name`;
    `allow` adds folders (see docs/validation.md, "Trust")."""
    src = load_tree(name, allow)
    variant, diags = check_source(src, options)
    errors = [d for d in diags if d.severity == "error"]
    if variant is None or errors:
        raise VariantError(errors or diags)
    return variant


def validate_file(name: str | Path, allow: Iterable[str | Path] = ()) -> list[Diagnostic]:
    """Every diagnostic for a file (and what it extends), with each option switched on in turn.

    Never raises for a problem in the file: every problem is a Diagnostic.
    """
    try:
        src = load_tree(name, allow)
        _, diags = check_source(src)
        if any(d.severity == "error" for d in diags):
            return diags
        for opt in (src.data.get("options") or {}):
            _, more = check_source(src, {opt: True})
            diags += more
    except VariantError as err:
        return err.diagnostics
    return _ordered(diags, src.file)


def _ordered(diags: Iterable[Diagnostic], file: str) -> list[Diagnostic]:
    """Each diagnostic once, the asked-for file first, then by position."""
    unique = list(dict.fromkeys(diags))
    return sorted(unique, key=lambda d: (d.pos.file != file, d.pos.file, d.pos.line, d.pos.col))
