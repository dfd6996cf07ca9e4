"""The golden playthroughs (tests/golden/playthroughs.py): every shipped variant and house
rule plays exactly the committed trace. A change that alters games fails here on purpose:
regenerate with `python -m tests.golden.playthroughs --regenerate` and explain the
difference in review."""

from __future__ import annotations

import pytest

from tests.golden.playthroughs import HERE, cases, differences, file_of


@pytest.mark.parametrize(("name", "players"), cases(), ids=lambda x: str(x))
def test_the_playthrough_is_as_committed(name: str, players: int) -> None:
    assert file_of(name, players).is_file(), "run: python -m tests.golden.playthroughs --regenerate"
    diffs = differences([(name, players)])
    assert not diffs, "\n".join(diffs.values()) + "\n(regenerate on purpose: python -m tests.golden.playthroughs " \
        "--regenerate)"


def test_every_trace_belongs_to_a_shipped_variant() -> None:
    expected = {file_of(name, players) for name, players in cases()}
    assert set(HERE.glob("*.txt")) == expected
