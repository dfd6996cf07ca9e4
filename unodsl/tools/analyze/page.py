"""The lab's report as one self-contained HTML page: every figure with its interval and
meaning, and the plots as SVG images inlined as data URIs (matplotlib, the [plot] extra).

The page needs no network and runs no script. Text from a variant file (its name,
card kinds, rules, options) is data: it is escaped in the HTML, and written into the
plots with matplotlib's math text switched off.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

from ..plots import inline_svg, pyplot
from .compare import Difference
from .coverage import coverage_lines
from .estimates import Figure
from .figures import figures
from .result import Analysis
from .verdict import ABOUT

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.6em 0}td,th{padding:.2em .6em;border-bottom:1px solid #eee;text-align:right}
td:first-child,th:first-child,td.meaning,th:last-child{text-align:left}td.meaning{color:#555;max-width:32em}
.num{white-space:nowrap;font-variant-numeric:tabular-nums}figure{margin:1em 0}img.plot{max-width:100%;height:auto}
.flag{font-weight:bold;color:#b00}.note{color:#555}
.verdict{background:#f4f7fb;border-left:4px solid #36c;padding:.2em 1em;margin:1em 0}.verdict p{margin:.4em 0}
"""

SECTIONS = (("outcome", "Outcome"), ("duration", "Duration"), ("tension", "Tension"),
            ("downtime", "Downtime and aggression"), ("card_power", "Card power"), ("skill", "Skill depth"))


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _figure_rows(figs: Sequence[Figure]) -> str:
    rows = []
    for f in figs:
        value, ci = f.text()
        rows.append(f"<tr><td>{_e(f.name)}</td><td class=num>{_e(value)}</td><td class=num>{_e(ci)}</td>"
                    f"<td class=meaning>{_e(f.meaning)}</td></tr>")
    return ("<table><tr><th>figure</th><th>value</th><th>95% interval</th><th>meaning</th></tr>"
            + "".join(rows) + "</table>")


def page(runs: Sequence[Analysis], docs: Sequence[dict[str, Any]], diffs: list[Difference] | None,
         extra: dict[str, Any]) -> str:
    """The HTML page of one run (or two, compared)."""
    plt = pyplot()
    parts: list[str] = []
    with plt.rc_context({"text.parse_math": False, "svg.fonttype": "none"}):
        for a, doc in zip(runs, docs, strict=True):
            parts.append(_run(a, doc, plt))
        if diffs is not None:
            parts.append(_comparison(diffs))
    if "sequential" in extra:
        s = extra["sequential"]
        parts.append(f"<h2>Sequential test of {_e(s['figure'])}</h2><p>{_e(s['decision'])} after "
                     f"{s['steps'][-1]['rounds'] if s['steps'] else 0:,} rounds each (SPRT, ±{_e(s['delta'])}).</p>")
    if "power" in extra:
        rows = "".join(f"<tr><td>{_e(r['figure'])}</td><td class=num>{_e(r['difference'])}</td>"
                       f"<td class=num>{_e(r['per_variant'])}</td></tr>" for r in extra["power"])
        parts.append("<h2>Rounds needed to detect a difference</h2><table><tr><th>figure</th><th>difference</th>"
                     f"<th>rounds per variant</th></tr>{rows}</table>")
    title = " vs ".join(a.name for a in runs)
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Balance lab: {_e(title)}</title>"
            f"<style>{STYLE}</style></head><body><h1>Balance lab: {_e(title)}</h1>{''.join(parts)}"
            "<p class=note>Every figure is defined, with its source, in docs/analyze.md.</p></body></html>\n")


def _run(a: Analysis, doc: dict[str, Any], plt: Any) -> str:
    figs = figures(a)
    sec = doc["sections"]
    out = [f"<h2>{_e(a.name)}{_e(' + ' + ', '.join(a.options_on)) if a.options_on else ''}</h2>",
           f"<p>{a.players} players ({_e(', '.join(dict.fromkeys(a.agents)))}), seed {a.seed}: {a.rounds:,} rounds, "
           f"{a.game_count:,} games, card power on {a.power_rounds:,} rounds.</p>"]
    if doc.get("verdict"):
        out.append("<div class=verdict><h3>Verdict</h3>"
                   + "".join(f"<p>{_e(sentence)}</p>" for sentence in doc["verdict"]) + "</div>")
    plots = {"duration": _turns_plot(doc, plt), "outcome": _seats_plot(doc, plt),
             "tension": _calibration_plot(doc, plt), "card_power": _power_plot(doc, plt),
             "downtime": _wait_plot(doc, plt)}
    for key, title in SECTIONS:
        names = sec[key].get("figures", [])
        if not names:
            continue
        out.append(f"<h3>{_e(title)}</h3>")
        if key in ABOUT:
            out.append(f"<p class=note>{_e(ABOUT[key])}</p>")
        out.append(_figure_rows([figs[n] for n in names]))
        if key == "card_power":
            out.append(_power_rows(sec[key]))
        if key == "downtime":
            out.append(_seat_rows(sec[key]))
        if plots.get(key):
            out.append(f"<figure>{plots[key]}</figure>")
    out.append(_coverage(a, sec["coverage"]))
    return "".join(out)


def _seat_rows(downtime: dict[str, Any]) -> str:
    def cell(d: dict[str, Any] | None) -> str:
        if not d or d["mean"] is None:
            return "–"
        ci = d["ci95"]
        return f"{d['mean']:.2f}" + (f" ({ci[0]:.2f}–{ci[1]:.2f})" if ci else "")

    rows = "".join(f"<tr><td>{_e(r['seat'])}</td><td class=num>{_e(cell(r['forced_draws']))}</td>"
                   f"<td class=num>{_e(cell(r['skips_received']))}</td></tr>" for r in downtime["by_seat_from_first"])
    hits = "".join(f"<tr><td>{_e(seat)}</td><td class=num>{_e(_share(p))}</td></tr>"
                   for seat, p in downtime["attacks_by_seat_from_attacker"].items())
    return ("<table><tr><th>seat from the first player</th><th>forced draws per round</th><th>skips received per "
            f"round</th></tr>{rows}</table><table><tr><th>seat from the attacker</th><th>share of attacks</th></tr>"
            f"{hits}</table>")


def _share(p: dict[str, Any]) -> str:
    if p.get("rate") is None:
        return "–"
    lo, hi = p["ci95"]
    return f"{100 * p['rate']:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})"


def _power_rows(power: dict[str, Any]) -> str:
    rows = "".join(f"<tr><td>{_e(r['kind'])}</td><td>{_e(r['never_playing_it'])}</td>"
                   f"<td>{_e(r['playing_it_at_once'])}</td><td class=flag>{_e(r['flag'])}</td></tr>"
                   for r in power["kinds"])
    return ("<table><tr><th>kind (strongest first)</th><th>never playing it</th><th>playing it at once</th>"
            f"<th>flag</th></tr>{rows}</table>")


def _coverage(a: Analysis, cov: dict[str, Any]) -> str:
    if not cov:
        return ""
    rounds = f"{cov['rounds']:,} rounds of the agents"
    if "exploring" in cov:
        rounds += f" and {cov['exploring']['rounds']:,} exploring ({cov['exploring']['agents']})"
    body = "".join(f"<p>{_e(head)}{':' if lines else ''}</p>" + ("<ul>" + "".join(f"<li>{_e(x)}</li>" for x in lines)
                                                                  + "</ul>" if lines else "")
                   for head, lines in coverage_lines(cov, ", ".join(dict.fromkeys(a.agents))))
    return f"<h3>Coverage</h3><p class=note>Over {_e(rounds)}.</p>{body}"


def _comparison(diffs: list[Difference]) -> str:
    rows = []
    for d in diffs:
        a, _ = d.a.text()
        b, _ = d.b.text()
        delta = "–"
        if d.diff is not None and d.ci95 is not None:
            value, ci = Figure("", d.diff, d.ci95, 0, "", percent=d.a.percent).text()
            delta = f"{value} ({ci})"
        p = "–" if d.test.p_holm is None else f"{d.test.p_holm:.3g}"
        mark = " class=flag" if d.test.significant else ""
        rows.append(f"<tr><td>{_e(d.name)}</td><td class=num>{_e(a)}</td><td class=num>{_e(b)}</td>"
                    f"<td class=num>{_e(delta)}</td><td class=num{mark}>{_e(p)}</td></tr>")
    return ("<h2>A vs B</h2><table><tr><th>figure</th><th>A</th><th>B</th><th>B − A (95% interval)</th>"
            f"<th>p (Holm)</th></tr>{''.join(rows)}</table>")


# --------------------------------------------------------------------------
# Plots


def _turns_plot(doc: dict[str, Any], plt: Any) -> str:
    d = doc["sections"]["duration"].get("turns_per_round")
    if not d:
        return ""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    top = max(1, int(d["p95"] * 1.5))
    values = [min(v, top) for v, _ in d["histogram"]]
    ax.hist(values, bins=min(60, top + 1), weights=[c for _, c in d["histogram"]], color="tab:blue", alpha=0.8)
    design = doc["sections"]["duration"].get("design", {}).get("turns_per_round")
    if design:
        ax.axvspan(design[0], design[1], color="tab:green", alpha=0.15, label="design: ideal range")
        ax.legend(fontsize=8)
    ax.axvline(d["mean"], color="black", linestyle="--", linewidth=1)
    ax.set_xlabel(f"turns per round (the last bar holds ≥ {top})")
    ax.set_ylabel("rounds")
    return inline_svg(fig, plt)


def _seats_plot(doc: dict[str, Any], plt: Any) -> str:
    rows = doc["sections"]["outcome"]["by_seat_from_first"]
    if not rows or rows[0]["rate"] is None:
        return ""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    rates = [100 * (r["rate"] or 0) for r in rows]
    errs = [[100 * ((r["rate"] or 0) - r["ci95"][0]) for r in rows], [100 * (r["ci95"][1] - (r["rate"] or 0))
                                                                     for r in rows]]
    ax.bar(range(len(rows)), rates, yerr=errs, capsize=3, color="tab:blue", alpha=0.85)
    ax.axhline(100 / doc["players"], color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(rows)), ["first"] + [f"first+{k}" for k in range(1, len(rows))])
    ax.set_ylabel("round wins, % (95% interval)")
    return inline_svg(fig, plt)


def _calibration_plot(doc: dict[str, Any], plt: Any) -> str:
    rows = [r for r in doc["sections"]["tension"]["calibration"] if r["positions"]]
    if not rows:
        return ""
    fig, ax = plt.subplots(figsize=(4.2, 4.2))
    xs = [r["mean_predicted"] for r in rows]
    ys = [r["won"] for r in rows]
    errs = [[y - r["won_ci95"][0] for y, r in zip(ys, rows, strict=True)],
            [r["won_ci95"][1] - y for y, r in zip(ys, rows, strict=True)]]
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1)
    ax.errorbar(xs, ys, yerr=errs, marker="o", linestyle="", capsize=3)
    ax.set_xlabel("predicted chance to win (held-out rounds)")
    ax.set_ylabel("won")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    return inline_svg(fig, plt)


def _power_plot(doc: dict[str, Any], plt: Any) -> str:
    rows = doc["sections"]["card_power"].get("kinds") or []
    rows = [r for r in rows if r["power"]["value"] is not None]
    if not rows:
        return ""
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.4))
    for j, (key, color) in enumerate((("power", "tab:red"), ("rush", "tab:green"))):
        ys = [i + (j - 0.5) * 0.35 for i in range(len(rows))]
        xs = [100 * r[key]["value"] for r in rows]
        lo = [100 * (r[key]["value"] - r[key]["ci95"][0]) if r[key]["ci95"] else 0 for r in rows]
        hi = [100 * (r[key]["ci95"][1] - r[key]["value"]) if r[key]["ci95"] else 0 for r in rows]
        ax.barh(ys, xs, height=0.35, xerr=[lo, hi], capsize=2, color=color, alpha=0.8,
                label="avoid: win rate lost" if key == "power" else "rush: win rate gained")
    ax.set_yticks(range(len(rows)), [r["kind"] for r in rows])
    ax.invert_yaxis()
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_xlabel("percentage points (95% interval)")
    ax.legend(fontsize=8)
    return inline_svg(fig, plt)


def _wait_plot(doc: dict[str, Any], plt: Any) -> str:
    d = doc["sections"]["downtime"].get("longest_wait")
    if not d:
        return ""
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.bar([v for v, _ in d["histogram"]], [c for _, c in d["histogram"]], color="tab:purple", alpha=0.8)
    ax.set_xlabel("a player's longest run of turns without playing, in a round")
    ax.set_ylabel("player-rounds")
    if not math.isnan(d["mean"]):
        ax.axvline(d["mean"], color="black", linestyle="--", linewidth=1)
    return inline_svg(fig, plt)
