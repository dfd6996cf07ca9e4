"""Variant file → checked, compiled Variant: the passes in order.

resolve (the file and what it extends) → schema → options declared, chosen and merged
(options.py) → schema again → build the model (expressions parsed, checked, compiled) → whole-file lints.
Every problem along the way is a positioned Diagnostic; they are collected and
raised together as one VariantError. `validate_file` is the checker's entry
point (every diagnostic, warnings included); `load_variant` gives a Variant or raises.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

from ..errors import Diagnostic, VariantError
from .build import VariantBuilder
from .expressions import Expressions
from .lint import lint
from .model import Variant
from .options import Chosen, apply_patches, choose, declare
from .resolve import load_tree
from .schema import validate
from .source import Source


def check_source(src: Source, options: Chosen | None = None
                 ) -> tuple[Variant | None, list[Diagnostic]]:
    """Schema and semantic checks; the Variant is None if any error was found.

    `options` are the chosen values ({name: True/False/number, or its text}); a name
    the file does not declare, or a value that does not fit, raises VariantError.
    """
    problems = validate(src)
    if problems:
        return None, _ordered([*problems, *src.notes], src.file)
    declared_options, problems = declare(src)
    if problems:
        return None, _ordered([*problems, *src.notes], src.file)
    opts = choose(src, declared_options, options or {})
    merged = apply_patches(src, opts)
    if merged is not src:
        problems = validate(merged)
        if problems:
            return None, _ordered([*problems, *merged.notes], src.file)
    exprs = Expressions(merged, options={name: o.value for name, o in opts.items()})
    builder = VariantBuilder(exprs)
    variant = builder.build()
    lint(exprs, variant, builder.deck_ok)
    diags = _ordered([*exprs.diags, *merged.notes], src.file)
    if any(d.severity == "error" for d in diags):
        return None, diags
    return dataclasses.replace(variant, options=tuple(opts.values())), diags


def load_variant(name: str | Path, options: Chosen | None = None) -> Variant:
    """Load, check and compile a variant (a path, or a shipped variant's name).

    `options` switches options on or off (`{"draw_until_playable": True}`) and sets
    valued ones (`{"target": 300}`); the others keep their defaults.
    """
    src = load_tree(name)
    variant, diags = check_source(src, options)
    errors = [d for d in diags if d.severity == "error"]
    if variant is None or errors:
        raise VariantError(errors or diags)
    return variant


def validate_file(name: str | Path) -> list[Diagnostic]:
    """Every diagnostic for a file (and what it extends), with each option switched on in turn,
    and each number option at its default, its min and its max.

    Never raises for a problem in the file: every problem is a Diagnostic.
    """
    try:
        src = load_tree(name)
        _, diags = check_source(src)
        if any(d.severity == "error" for d in diags):
            return diags
        declared_options, _ = declare(src)
        for opt in declared_options.values():
            values = [True] if opt.type == "bool" else [v for v in (opt.min, opt.max) if v is not None]
            for value in dict.fromkeys(v for v in values if v != opt.default):
                _, more = check_source(src, {opt.name: value})
                diags += more
    except VariantError as err:
        return err.diagnostics
    return _ordered(diags, src.file)


def _ordered(diags: Iterable[Diagnostic], file: str) -> list[Diagnostic]:
    """Each diagnostic once, the asked-for file first, then by position."""
    unique = list(dict.fromkeys(diags))
    return sorted(unique, key=lambda d: (d.pos.file != file, d.pos.file, d.pos.line, d.pos.col))
