"""A tuning run as one self-contained HTML page: the targets, the winner and its check on
fresh seeds, the search history (each target's figure per candidate, with its interval
and the target's band) and, with two or more targets, the front (the first two targets
against each other, the Pareto front marked). Plots are SVG inlined as data URIs
(matplotlib, the [plot] extra); the page needs no network and runs no script. Text from
the variant (figure and option names come from it) is escaped, and written into the
plots with matplotlib's math text off.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from ..plots import inline_svg, pyplot
from .search import Trial, Tuned

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.6em 0}td,th{padding:.2em .6em;border-bottom:1px solid #eee;text-align:left}
.num{white-space:nowrap;font-variant-numeric:tabular-nums;text-align:right}img.plot{max-width:100%;height:auto}
.meets{color:#070}.misses{color:#b00}.note{color:#555}
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
             f"{len(r.trials)} candidates, at most {r.effort.most:,} rounds each, {r.elapsed:.1f} s. "
             f"Storage {_e(r.storage)}, study {_e(r.study)}.</p>",
             "<h2>Targets and what varied</h2><table><tr><th>figure</th><th>target</th></tr>"
             + "".join(f"<tr><td>{_e(t.figure)}</td><td>{_e(t.text)}</td></tr>" for t in r.targets) + "</table>",
             "<table><tr><th>varied</th><th>changes</th><th>from</th><th>to</th></tr>"
             + "".join(f"<tr><td>{_e(t.name)}</td><td>{_e(t.kind)} {_e(t.target)}</td><td class=num>{t.lo}</td>"
                       f"<td class=num>{t.hi}</td></tr>" for t in r.space) + "</table>"]
    if r.winner is not None:
        parts.append(f"<h2>Winner: candidate {r.winner.number + 1}</h2>" + _candidates([r.winner], r))
        if r.check is not None:
            parts.append(f"<p>Played again on fresh seeds ({r.check['rounds']:,} rounds):</p>"
                         + _judged_table(r.check["judged"]))
        if r.written:
            parts.append(f"<p>Written to <code>{_e(r.written)}</code>:</p><pre>{_e(r.written_text)}</pre>")
    with plt.rc_context({"text.parse_math": False, "svg.fonttype": "none"}):
        parts.append("<h2>Search history</h2>")
        parts += [_history(r, k, plt) for k in range(len(r.targets))]
        if len(r.targets) > 1:
            parts.append(f"<h2>Front</h2><p>{len(r.front)} candidate(s) on the Pareto front: none of the others "
                         "is at least as good on every target and better on one.</p>")
            parts.append(_front(r, plt))
            parts.append(_candidates(r.front, r))
    parts.append("<h2>Every candidate</h2>" + _candidates(r.trials, r))
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Tuning {_e(r.name)}</title>"
            f"<style>{STYLE}</style></head><body>{''.join(parts)}</body></html>")


def _judged_table(judged: Sequence[Mapping[str, Any]]) -> str:
    rows = []
    for j in judged:
        ci = "" if j["ci95"] is None else f"{j['ci95'][0]:.4g} to {j['ci95'][1]:.4g}"
        value = "–" if j["value"] is None else f"{j['value']:.4g}"
        rows.append(f"<tr><td>{_e(j['figure'])}</td><td>{_e(j['target'])}</td><td class=num>{_e(value)}</td>"
                    f"<td class=num>{_e(ci)}</td><td class={_e(j['verdict'])}>{_e(j['verdict'])}</td></tr>")
    return ("<table><tr><th>figure</th><th>target</th><th>value</th><th>95% interval</th><th>verdict</th></tr>"
            + "".join(rows) + "</table>")


def _candidates(trials: Sequence[Trial], r: Tuned) -> str:
    heads = "".join(f"<th>{_e(t.name)}</th>" for t in r.space) + "".join(f"<th>{_e(t.figure)}</th>" for t in r.targets)
    rows = []
    for t in trials:
        cells = "".join(f"<td class=num>{t.values.get(s.name, '')}</td>" for s in r.space)
        if t.state != "complete":
            cells += f"<td colspan={len(r.targets)} class=misses>{_e(t.result.get('error', 'failed'))}</td>"
        else:
            for j in _judged(t):
                ci = "" if j["ci95"] is None else f" ({j['ci95'][0]:.4g}–{j['ci95'][1]:.4g})"
                value = "–" if j["value"] is None else f"{j['value']:.4g}"
                cells += f"<td class='num {_e(j['verdict'])}'>{_e(value + ci)}</td>"
        played = t.result.get("rounds", 0)
        rows.append(f"<tr><td class=num>{t.number + 1}</td>{cells}<td class=num>{played:,}</td></tr>")
    return f"<table><tr><th>#</th>{heads}<th>rounds</th></tr>{''.join(rows)}</table>"


def _history(r: Tuned, k: int, plt: Any) -> str:
    """Target k's figure for each candidate in the order tried, with its interval and the band it should be in."""
    target = r.targets[k]
    fig, ax = plt.subplots(figsize=(8, 3.2))
    xs, ys, lo, hi, colours = [], [], [], [], []
    for t in r.trials:
        judged = _judged(t)
        if t.state != "complete" or len(judged) <= k or judged[k]["value"] is None:
            continue
        j = judged[k]
        xs.append(t.number + 1)
        ys.append(j["value"])
        ci = j["ci95"] or [j["value"], j["value"]]
        lo.append(j["value"] - ci[0])
        hi.append(ci[1] - j["value"])
        colours.append({"meets": "tab:green", "misses": "tab:red"}.get(j["verdict"], "tab:orange"))
    if xs:
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="none", ecolor="#999", elinewidth=1)
        ax.scatter(xs, ys, c=colours, zorder=3, s=22)
    if target.min is not None or target.max is not None:
        bottom = target.min if target.min is not None else min([*ys, target.max or 0.0])
        top = target.max if target.max is not None else max([*ys, target.min or 0.0])
        ax.axhspan(bottom, top, color="tab:green", alpha=0.12, label=f"target: {target.text}")
        ax.legend(loc="best", fontsize=8)
    ax.set_xlabel("candidate (in the order tried)")
    ax.set_ylabel(target.figure)
    ax.set_title(f"{target.figure}: green meets, red misses, orange unsettled (95% intervals)", fontsize=9)
    return f"<figure>{inline_svg(fig, plt)}</figure>"


def _front(r: Tuned, plt: Any) -> str:
    """The first two targets' objectives of every candidate, the front joined up."""
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    on = {t.number for t in r.front}
    pts = [(t.objectives[0], t.objectives[1], t.number in on) for t in r.trials
           if t.objectives is not None and len(t.objectives) >= 2]
    ax.scatter([p[0] for p in pts if not p[2]], [p[1] for p in pts if not p[2]], c="#bbb", s=18, label="candidates")
    front = sorted((p[0], p[1]) for p in pts if p[2])
    if front:
        ax.plot([p[0] for p in front], [p[1] for p in front], "o-", color="tab:blue", label="Pareto front")
    ax.axvline(0, color="tab:green", lw=0.8)
    ax.axhline(0, color="tab:green", lw=0.8)
    a, b = r.targets[0], r.targets[1]
    ax.set_xlabel(f"{a.figure} ({a.text}): below 0 meets")
    ax.set_ylabel(f"{b.figure} ({b.text}): below 0 meets")
    ax.legend(loc="best", fontsize=8)
    return f"<figure>{inline_svg(fig, plt)}</figure>"
