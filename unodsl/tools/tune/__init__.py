"""The tuner (`unodsl tune`): search what a variant's `design: vary:` declares for values
that meet the targets of its `design:` section, measured by the balance lab.

    from unodsl.tools.tune import Effort, tune
    t = tune("planted.yaml", trials=20, seed=1, effort=Effort(step=100, most=400), output=Path("tuned.yaml"))
    t.winner.values, t.winner.result["judged"], t.front, t.check, t.outcome, t.written

Modules, one job each: space.py (what may change; a candidate as an overlay file),
evaluate.py (a candidate played until its targets are settled), search.py (Optuna's
ask-and-tell loop, its storage, the front, the check, what is written), rank.py (which
candidate fits best, and whether it is good enough to be the result), words.py (how a
judged target reads), page.py (the HTML report).
"""

from .evaluate import Effort
from .search import Tuned, tune
from .space import TuneError
from .trial import Trial

__all__ = ["Effort", "Trial", "TuneError", "Tuned", "tune"]
