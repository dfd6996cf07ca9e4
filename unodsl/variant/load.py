"""Variant file → checked, compiled Variant: the passes in order.

resolve (the file and what it extends) → schema → options declared, chosen and
merged → schema again → build the model (expressions parsed, checked, compiled)
→ whole-file lints. Every problem along the way is a positioned Diagnostic; they
are collected and raised together as one VariantError. `validate_file` is the
checker's entry point (every diagnostic, warnings included); `load_variant`
gives a Variant or raises; `analyse_text` is validate_file for an editor's buffer.
"""

from __future__ import annotations

import copyreg
import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.backends import backend_of
from ..engine.codegen import compile_variant
from ..engine.flow import JUMP_IN, game_program
from ..errors import Diagnostic, VariantError
from ..model import Variant
from .build import VariantBuilder
from .expressions import Expressions
from .lint import lint
from .options import Chosen, apply_patches, choose, declare
from .resolve import load_tree, load_tree_text
from .schema import validate
from .source import Source


@dataclass
class Analysis:
    """What the checks found out about a file, for tools that look inside it (the language server).

    `model` is the Variant as far as it could be built (it may be partial when
    there are errors); `expressions` holds each checked expression's tree and types.
    """

    source: Source | None = None  # merged with what it extends
    model: Variant | None = None
    expressions: Expressions | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)


def check_source(src: Source, options: Chosen | None = None
                 ) -> tuple[Variant | None, list[Diagnostic]]:
    """Schema and semantic checks; the Variant is None if any error was found.

    `options` are the chosen values ({name: True/False/number, or its text}); a name
    the file does not declare, or a value that does not fit, raises VariantError.
    """
    found = _check(src, options)
    if found.model is None or any(d.severity == "error" for d in found.diagnostics):
        return None, found.diagnostics
    return found.model, found.diagnostics


def _check(src: Source, options: Chosen | None) -> Analysis:
    problems = validate(src)
    if problems:
        return Analysis(src, diagnostics=_ordered([*problems, *src.notes], src.file))
    declared_options, problems = declare(src)
    if problems:
        return Analysis(src, diagnostics=_ordered([*problems, *src.notes], src.file))
    opts = choose(src, declared_options, options or {})
    merged = apply_patches(src, opts)
    if merged is not src:
        problems = validate(merged)
        if problems:
            return Analysis(src, diagnostics=_ordered([*problems, *merged.notes], src.file))
    exprs = Expressions(merged, options={name: o.value for name, o in opts.items()})
    builder = VariantBuilder(exprs)
    variant = builder.build()
    lint(exprs, variant, builder.deck_ok)
    diags = _ordered([*exprs.diags, *merged.notes], src.file)
    return Analysis(merged, dataclasses.replace(variant, options=tuple(opts.values())), exprs, diags)


BACKENDS = ("compiled", "closures")
# Keys and values checked again over all the option checks of validate_file (each a whole
# check of the file, some 20 µs a value): past it, a file's options would take minutes.
MAX_OPTION_WORK = 300_000


def load_variant(name: str | Path, options: Chosen | None = None, allow: Iterable[str | Path] = (),
                 backend: str = "compiled") -> Variant:
    """Load, check and compile a variant (a path, or a shipped variant's name).

    `options` switches options on or off (`{"draw_until_playable": True}`) and sets
    valued ones (`{"target": 300}`); the others keep their defaults. Its `extends:`
    may name shipped variants and files under the folder of `name`; `allow` adds
    folders (see docs/validation.md, "Trust"). `backend`: "compiled" (the variant as
    generated Python, engine/codegen.py) or "closures" (the reference interpreter).
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    src = load_tree(name, allow)
    found = _check(src, options)
    variant, diags, exprs = found.model, found.diagnostics, found.expressions
    errors = [d for d in diags if d.severity == "error"]
    if variant is None or errors:
        raise VariantError(errors or diags)
    variant = dataclasses.replace(variant, flow=(game_program(variant), JUMP_IN))  # rounds and turns as programs
    if backend == "compiled" and exprs is not None:
        variant = compile_variant(variant, exprs.origins, exprs.conditions, exprs.programs)
    return variant


def validate_file(name: str | Path, allow: Iterable[str | Path] = ()) -> list[Diagnostic]:
    """Every diagnostic for a file (and what it extends), with each option switched on in turn,
    and each number option at its default, its min and its max.

    Never raises for a problem in the file: every problem is a Diagnostic.
    """
    return _analyse(lambda: load_tree(name, allow)).diagnostics


def analyse_text(text: str, path: str | Path) -> Analysis:
    """validate_file for a file's text (an editor's unsaved buffer), keeping what the checks built.

    `path` is the file's name in positions; `extends:` is relative to it.
    """
    return _analyse(lambda: load_tree_text(text, path))


def _analyse(load: Callable[[], Source]) -> Analysis:
    try:
        src = load()
        found = _check(src, None)
        if any(d.severity == "error" for d in found.diagnostics):
            return found
        diags = list(found.diagnostics)
        declared_options, _ = declare(src)
        checks = [(opt.name, value) for opt in declared_options.values()
                  for value in dict.fromkeys(v for v in ([True] if opt.type == "bool" else [opt.min, opt.max])
                                             if v is not None and v != opt.default)]
        work = len(checks) * (len(src.spans) + len(src.key_spans))
        if work > MAX_OPTION_WORK:
            diags.append(Diagnostic(src.key_pos(("options",)), f"the file is checked again with each option "
                                    f"switched on (and at its min and max): {len(checks)} checks of its "
                                    f"{len(src.spans) + len(src.key_spans):,} keys and values is more than "
                                    f"{MAX_OPTION_WORK:,} in all", "declare fewer options, or make the file "
                                    "smaller; an option can be a house rule of its own (a file that extends this)"))
            found.diagnostics = _ordered(diags, src.file)
            return found
        for name, value in checks:
            _, more = check_source(src, {name: value})
            diags += more
    except VariantError as err:
        return Analysis(diagnostics=err.diagnostics)
    found.diagnostics = _ordered(diags, src.file)
    return found


def _ordered(diags: Iterable[Diagnostic], file: str) -> list[Diagnostic]:
    """Each diagnostic once, the asked-for file first, then by position."""
    unique = list(dict.fromkeys(diags))
    return sorted(unique, key=lambda d: (d.pos.file != file, d.pos.file, d.pos.line, d.pos.col))


# -- pickling: a variant is saved as its file and options, and loaded again ----------
VariantRef = tuple[str, tuple[tuple[str, bool | int | str], ...], str]
_LIVE: dict[VariantRef, Variant] = {}  # the variants pickled or unpickled in this process


def variant_from_ref(file: str, options: tuple[tuple[str, bool | int | str], ...],
                     backend: str = "compiled") -> Variant:
    """The variant a pickle names: the one in memory, or loaded from its file."""
    variant = _LIVE.get((file, options, backend))
    if variant is None:
        variant = _LIVE[(file, options, backend)] = load_variant(file, dict(options), backend=backend)
    return variant


def _reduce_variant(variant: Variant) -> tuple[Callable[..., Variant], VariantRef]:
    path = Path(variant.file)
    file = str(path.resolve()) if path.is_file() else variant.file
    ref = (file, tuple((o.name, o.value) for o in variant.options), backend_of(variant).name)
    _LIVE.setdefault(ref, variant)
    return variant_from_ref, ref


copyreg.pickle(Variant, _reduce_variant)
