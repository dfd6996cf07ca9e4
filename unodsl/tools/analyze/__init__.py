"""The balance lab (`unodsl analyze`): is a variant fair, tense, and what is each card worth.

    from unodsl.tools.analyze import Budget, analyze, figures, report
    a = analyze("house.yaml", players=4, agents=["greedy"], budget=Budget(rounds=2_000), seed=1)
    figures(a)["first_seat_advantage"]          # a Figure: value, ci95, n, meaning
    report(a)                                   # the whole JSON document

Modules, one job each: evaluator.py (the fair-information evaluator), watch.py (what
is counted in a round), passes.py (the batches), coverage.py, estimates.py (a figure
and its interval), figures.py (the sections), compare.py (two variants, SPRT, power),
lab.py (the runs in order), result.py (what a run keeps), page.py (the HTML page).
"""

from .estimates import Figure
from .figures import figures, report
from .lab import AnalyzeError, Budget, analyze
from .result import Analysis

__all__ = ["Analysis", "AnalyzeError", "Budget", "Figure", "analyze", "figures", "report"]
