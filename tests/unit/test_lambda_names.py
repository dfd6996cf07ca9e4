"""A lambda's parameter never takes the name of a variable in scope: the interpreter binds
the parameter in the program's variables, so `x = …; any(…, x -> …)` would change `x`
there and not in the generated module (found by the Triple Play variant)."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import classic_with
from unodsl.variant.load import validate_file


def test_a_lambda_parameter_named_as_a_variable_is_refused(tmp_path: Path) -> None:
    path = classic_with(tmp_path, "    on_play: skip()                            # CL-9",
                        "    on_play: x = top_of(hand); if any(discard_pile, x -> x == card) then skip()")
    errors = [d for d in validate_file(path) if d.severity == "error"]
    assert [(d.pos.line, d.message, d.hint) for d in errors] == [
        (23, "'x' is a variable here: a lambda's parameter needs a name of its own", "for example x2 -> …")]


def test_a_lambda_parameter_of_its_own_name_is_fine(tmp_path: Path) -> None:
    path = classic_with(tmp_path, "    on_play: skip()                            # CL-9",
                        "    on_play: x = top_of(hand); if any(discard_pile, c -> c == card) then skip()")
    assert [d for d in validate_file(path) if d.severity == "error"] == []
