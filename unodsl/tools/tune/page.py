"""A tuning run as one self-contained HTML page: the targets, the winner, its check on
fresh seeds and what that made of it (the result, or the closest found and what to try),
the search history (each target's figure per candidate, with its interval
and the target's band) and, with two or more targets, the front (the first two targets
against each other, the Pareto front marked). Plots are SVG inlined as data URIs
(matplotlib, the [plot] extra); the page needs no network and runs no script. Text from
the variant (figure and option names come from it) is escaped, and written into the
plots with matplotlib's math text off. Figures, intervals and verdicts read as on the
terminal (words.py): shares as percentages, intervals "a to b", meets / misses / unsettled.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from ..plots import inline_svg, pyplot
from . import words
from .search import Tuned
from .trial import Trial

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.6em 0}td,th{padding:.2em .6em;border-bottom:1px solid #eee;text-align:left}
.num{white-space:nowrap;font-variant-numeric:tabular-nums;text-align:right}img.plot{max-width:100%;height:auto}
.meets{color:#070}.misses{color:#b00}.unsettled{color:#a60}.note{color:#555}
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _judged(trial: Trial) -> list[Mapping[str, Any]]:
    return list(trial.result.get("judged", []))


def page(r: Tuned) -> str:
    """The whole page."""
    plt = pyplot()
    parts = [f"<h1>Tuning {_e(r.name)}</h1><p>{_e(r.variant)}</p>",
             f"<p>{r.players} players ({_e(', '.join(dict.fromkeys(r.agents)))}), seed {r.seed}, {_e(r.sampler)}: "
             f"{len(r.trials)} trials, {sum('same_as' not in t.result for t in r.trials)} distinct candidates, "
             f"at most {r.effort.most:,} rounds each, {r.elapsed:.1f} s. "
             f"Trials stored in {_e(r.storage)}, study {_e(r.study)}.</p>",
             "<h2>Targets and what varied</h2><table><tr><th>target</th></tr>"
             + "".join(f"<tr><td>{_e(t)}</td></tr>" for t in words.targets(r.targets, r.trials)) + "</table>",
             "<table><tr><th>varied</th><th>changes</th><th>from</th><th>to</th></tr>"
             + "".join(f"<tr><td>{_e(t.name)}</td><td>{_e(t.kind)} {_e(t.target)}</td><td class=num>{t.lo}</td>"
                       f"<td class=num>{t.hi}</td></tr>" for t in r.space) + "</table>"]
    if r.winner is not None:
        parts.append(f"<h2>Winner: trial {r.winner.number + 1}</h2>" + _candidates([r.winner], r))
        if r.check is not None:
            parts.append(f"<p>Played again on fresh seeds ({r.check['rounds']:,} rounds):</p>"
                         + _judged_table(r.check["judged"]))
        where = "on fresh seeds" if r.check is not None else "on the search's seeds (not checked on fresh seeds)"
        if r.outcome == "meets":
            parts.append(f"<p class=meets>It meets every target {where}: written as the result.</p>")
        else:
            parts.append(f"<p class=misses>The closest found, not a result: it does not meet every target {where}."
                         "</p><p>To try:</p><ul>" + "".join(f"<li>{_e(a)}</li>" for a in r.advice) + "</ul>")
        if r.written:
            parts.append(f"<p>Written to <code>{_e(r.written)}</code>:</p><pre>{_e(r.written_text)}</pre>")
    with plt.rc_context({"text.parse_math": False, "svg.fonttype": "none"}):
        parts.append("<h2>Search history</h2>")
        parts += [_history(r, k, plt) for k in range(len(r.targets))]
        if len(r.targets) > 1:
            parts.append(f"<h2>Pareto front</h2><p>{len(r.front)} candidate(s) on the Pareto front: none of the "
                         "others is at least as good on every target and better on one.</p>")
            parts.append(_front(r, plt))
            parts.append(_candidates(r.front, r, "front"))
    parts.append("<h2>Every trial</h2>" + _candidates(r.trials, r, "trials"))
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Tuning {_e(r.name)}</title>"
            f"<style>{STYLE}</style></head><body>{''.join(parts)}</body></html>")


def _judged_table(judged: Sequence[Mapping[str, Any]]) -> str:
    rows = []
    for j in judged:
        value, ci = words.value(j)
        rows.append(f"<tr><td>{_e(j['figure'])}</td><td>{_e(words.target(j))}</td><td class=num>{_e(value)}</td>"
                    f"<td class=num>{_e(ci)}</td><td class={_e(j['verdict'])}>{_e(words.verdict(j))}</td></tr>")
    return ("<table><tr><th>figure</th><th>target</th><th>value</th><th>95% interval</th><th>verdict</th></tr>"
            + "".join(rows) + "</table>")


def _candidates(trials: Sequence[Trial], r: Tuned, name: str = "") -> str:
    """A table of trials: each figure, its interval and verdict (a repeated proposal: the trial it repeats)."""
    heads = "".join(f"<th>{_e(t.name)}</th>" for t in r.space) + "".join(f"<th>{_e(t.figure)}</th>" for t in r.targets)
    rows = []
    for t in trials:
        cells = "".join(f"<td class=num>{t.values.get(s.name, '')}</td>" for s in r.space)
        if t.state != "complete":
            cells += f"<td colspan={len(r.targets)} class=misses>{_e(t.result.get('error', 'failed'))}</td>"
        else:
            for j in _judged(t):
                value, ci = words.value(j)
                shown = f"{value} ({ci}) {words.verdict(j)}" if ci else f"{value} {words.verdict(j)}"
                cells += f"<td class='num {_e(j['verdict'])}'>{_e(shown)}</td>"
        played = f"as trial {t.result['same_as']}" if "same_as" in t.result else f"{t.result.get('rounds', 0):,}"
        rows.append(f"<tr><td class=num>{t.number + 1}</td>{cells}<td class=num>{played}</td></tr>")
    ident = f" id={name}" if name else ""
    return f"<table{ident}><tr><th>trial</th>{heads}<th>rounds</th></tr>{''.join(rows)}</table>"


def _distinct(r: Tuned) -> list[Trial]:
    """The trials that played a candidate (a repeated proposal is the same point again)."""
    return [t for t in r.trials if t.state == "complete" and "same_as" not in t.result]


def _about(r: Tuned, k: int) -> tuple[float, str, str]:
    """Target k's scale on a plot (100 for a share, shown in points of a percentage), its unit's
    label and the target in words."""
    j = next((_judged(t)[k] for t in _distinct(r) if len(_judged(t)) > k), None)
    if j is None:
        return 1.0, "", r.targets[k].text
    return (100.0, " (%)", words.target(j)) if j.get("percent") else (1.0, "", words.target(j))


def _history(r: Tuned, k: int, plt: Any) -> str:
    """Target k's figure for each candidate in the order tried, with its interval and the band it should be in."""
    target = r.targets[k]
    scale, unit, text = _about(r, k)
    fig, ax = plt.subplots(figsize=(8, 3.2))
    xs, ys, lo, hi, colours = [], [], [], [], []
    for t in _distinct(r):
        judged = _judged(t)
        if len(judged) <= k or judged[k]["value"] is None:
            continue
        j = judged[k]
        value = j["value"] * scale
        ci = [x * scale for x in j["ci95"]] if j["ci95"] else [value, value]
        xs.append(t.number + 1)
        ys.append(value)
        lo.append(value - ci[0])
        hi.append(ci[1] - value)
        colours.append({"meets": "tab:green", "misses": "tab:red"}.get(j["verdict"], "tab:orange"))
    if xs:
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="none", ecolor="#999", elinewidth=1)
        ax.scatter(xs, ys, c=colours, zorder=3, s=22)
    if target.min is not None or target.max is not None:
        low = None if target.min is None else target.min * scale
        high = None if target.max is None else target.max * scale
        bottom = low if low is not None else min([*ys, high or 0.0])
        top = high if high is not None else max([*ys, low or 0.0])
        ax.axhspan(bottom, top, color="tab:green", alpha=0.12, label=f"target: {text}")
        ax.legend(loc="best", fontsize=8)
    ax.set_xlabel("trial (in the order tried)")
    ax.set_ylabel(target.figure + unit)
    ax.set_title(f"{target.figure}: green meets, red misses, orange unsettled (95% intervals)", fontsize=9)
    return f"<figure>{inline_svg(fig, plt)}</figure>"


def _front(r: Tuned, plt: Any) -> str:
    """The first two targets' objectives of every candidate, the front joined up."""
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    on = {t.number for t in r.front}
    (sa, ua, ta), (sb, ub, tb) = _about(r, 0), _about(r, 1)
    pts = [(t.objectives[0] * sa, t.objectives[1] * sb, t.number in on) for t in _distinct(r)
           if t.objectives is not None and len(t.objectives) >= 2]
    ax.scatter([p[0] for p in pts if not p[2]], [p[1] for p in pts if not p[2]], c="#bbb", s=18, label="candidates")
    front = sorted((p[0], p[1]) for p in pts if p[2])
    if front:
        ax.plot([p[0] for p in front], [p[1] for p in front], "o-", color="tab:blue", label="Pareto front")
    ax.axvline(0, color="tab:green", lw=0.8)
    ax.axhline(0, color="tab:green", lw=0.8)
    a, b = r.targets[0], r.targets[1]
    ax.set_xlabel(f"{a.figure}{ua}: distance outside {ta} (below 0: inside)")
    ax.set_ylabel(f"{b.figure}{ub}: distance outside {tb} (below 0: inside)")
    ax.legend(loc="best", fontsize=8)
    return f"<figure>{inline_svg(fig, plt)}</figure>"
