"""The lab's report as one self-contained HTML page: the verdict, every figure with its
interval and meaning, and the plots as inline SVG written by tools/svg.py (no plotting
library: the page works on the plain install).

The page needs no network and runs no script. Text from a variant file (its name,
card kinds, rules, options) is data: it is escaped in the HTML and in the plots.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any

from ..svg import GREEN, GREY, ORANGE, PURPLE, RED, Axis, Chart
from .compare import Difference
from .coverage import coverage_lines
from .estimates import Figure, number, with_interval
from .figures import figures
from .result import Analysis
from .verdict import ABOUT

STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.6em 0}td,th{padding:.2em .6em;border-bottom:1px solid #eee;text-align:right}
td:first-child,th:first-child,td.meaning,.words,th:last-child{text-align:left}td.meaning{color:#555;max-width:32em}
.num{white-space:nowrap;font-variant-numeric:tabular-nums}figure{margin:1em 0}svg.plot{max-width:100%;height:auto}
.flag{font-weight:bold;color:#b00}.note{color:#555}
.meets{color:#070}.misses{color:#b00}.unsettled{color:#a60}
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
    parts: list[str] = []
    for a, doc in zip(runs, docs, strict=True):
        parts.append(_run(a, doc))
    if diffs is not None:
        parts.append(_comparison(diffs))
    if "sequential" in extra:
        s = extra["sequential"]
        p = bool(docs[0]["figures"].get(s["figure"], {}).get("percent"))
        parts.append(f"<h2>Sequential test of {_e(s['figure'])}</h2><p>{_e(s['decision'])} after "
                     f"{s['steps'][-1]['rounds'] if s['steps'] else 0:,} rounds each (SPRT, "
                     f"±{_e(number(s['delta'], p))}).</p>")
    if "power" in extra:
        rows = "".join(f"<tr><td>{_e(r['figure'])}</td><td class=num>"
                       f"{_e(number(r['difference'], bool(docs[0]['figures'].get(r['figure'], {}).get('percent'))))}"
                       f"</td><td class=num>{_e(r['per_variant'])}</td></tr>" for r in extra["power"])
        parts.append("<h2>Rounds needed to detect a difference</h2><table><tr><th>figure</th><th>difference</th>"
                     f"<th>rounds per variant</th></tr>{rows}</table>")
    title = " vs ".join(a.name for a in runs)
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Balance lab: {_e(title)}</title>"
            f"<style>{STYLE}</style></head><body><h1>Balance lab: {_e(title)}</h1>{''.join(parts)}"
            "<p class=note>Every figure is defined, with its source, in docs/analyze.md.</p></body></html>\n")


def _run(a: Analysis, doc: dict[str, Any]) -> str:
    figs = figures(a)
    sec = doc["sections"]
    out = [f"<h2>{_e(a.name)}{_e(' + ' + ', '.join(a.options_on)) if a.options_on else ''}</h2>",
           f"<p>{a.players} players ({_e(', '.join(dict.fromkeys(a.agents)))}), seed {a.seed}: {a.rounds:,} rounds, "
           f"{a.game_count:,} games, card power on {a.power_rounds:,} rounds.</p>"]
    if doc.get("verdict"):
        out.append("<div class=verdict><h3>Verdict</h3>"
                   + "".join(f"<p>{_e(sentence)}</p>" for sentence in doc["verdict"]) + "</div>")
    if doc.get("targets"):
        rows = "".join(f"<tr><td>{_e(t['figure'])}</td><td class=words>{_e(t['target'])}</td>"
                       f"<td class=num>{_e(t['shown'])}</td><td class={_e(t['verdict'].replace(' ', '-'))}>"
                       f"{_e('goal' if t['goal'] else t['verdict'])}</td></tr>" for t in doc["targets"])
        out.append("<h3>Design targets</h3><p class=note>The variant's <code>design:</code>, each judged by the "
                   "whole 95% interval: meets (inside the bounds), misses (wholly outside), unsettled (across a "
                   "bound: more rounds may settle it).</p><table><tr><th>figure</th><th class=words>target</th>"
                   f"<th>value (95% interval)</th><th>verdict</th></tr>{rows}</table>")
    plots = {"duration": _turns_plot(doc), "outcome": _seats_plot(doc), "tension": _calibration_plot(doc),
             "card_power": _power_plot(doc), "downtime": _wait_plot(doc)}
    for key, title in SECTIONS:
        names = sec[key].get("figures", [])
        if not names:
            continue
        out.append(f"<h3>{_e(title)}</h3>")
        if key in ABOUT:
            out.append(f"<p class=note>{_e(ABOUT[key])}</p>")
        shown = [n for n in names if not n.startswith(("card_power.", "card_rush.")) or n == "card_power.spread"]
        out.append(_figure_rows([figs[n] for n in shown]))
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
        return "–" if not d else with_interval(d["mean"], d["ci95"])

    rows = "".join(f"<tr><td>{_e(r['seat'])}</td><td class=num>{_e(cell(r['forced_draws']))}</td>"
                   f"<td class=num>{_e(cell(r['skips_received']))}</td></tr>" for r in downtime["by_seat_from_first"])
    hits = "".join(f"<tr><td>{_e(seat)}</td><td class=num>{_e(with_interval(p['rate'], p['ci95'], True))}</td></tr>"
                   for seat, p in downtime["attacks_by_seat_from_attacker"].items())
    return ("<table><tr><th>seat from the first player</th><th>forced draws per round (95% interval)</th>"
            "<th>skips received per round</th></tr>"
            f"{rows}</table><table><tr><th>seat from the attacker</th><th>share of attacks (95% interval)</th></tr>"
            f"{hits}</table>")


def _power_rows(power: dict[str, Any]) -> str:
    rows = "".join(f"<tr><td>{_e(r['kind'])}</td><td class=words>{_e(r['never_playing_it'])}</td>"
                   f"<td class=words>{_e(r['playing_it_at_once'])}</td><td class=flag>{_e(r['flag'])}</td></tr>"
                   for r in power["kinds"])
    return ("<table><tr><th>kind (strongest first)</th><th class=words>never playing it</th>"
            "<th class=words>playing it at once</th>"
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
# Plots (tools/svg.py: inline SVG, every line and axis labelled)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _pp(x: float) -> str:
    return f"{100 * x:+.0f}" if x else "0"


def _histogram(pairs: Sequence[Sequence[int]], top: int, most: int = 60) -> tuple[list[float], list[int], int]:
    """Bars of a histogram of whole numbers, values from `top` up in the last bar: each
    bar's centre, count and width (1 for up to `most` values, else wider), touching."""
    width = max(1, math.ceil((top + 1) / most))
    counts: dict[int, int] = {}
    for v, c in pairs:
        b = min(v, top) // width
        counts[b] = counts.get(b, 0) + c
    last = top // width
    bins = range(min(counts, default=0), last + 1)
    return [b * width + (width - 1) / 2 for b in bins], [counts.get(b, 0) for b in bins], width


def _turns_plot(doc: dict[str, Any]) -> str:
    d = doc["sections"]["duration"].get("turns_per_round")
    if not d:
        return ""
    top = max(1, int(d["p95"] * 1.5))
    xs, ys, width = _histogram(d["histogram"], top)
    chart = Chart(Axis(f"turns in a round (the last bar: {top:,} or more)", lo=xs[0] - width / 2,
                       hi=xs[-1] + width / 2), Axis("rounds"))
    design = doc["sections"]["duration"].get("design", {}).get("turns_per_round")
    if design:
        chart.band(design[0], design[1], f"design: {design[0]:g} to {design[1]:g} turns")
    chart.bars(xs, ys, width=width, label="rounds with that many turns" if width == 1 else
               f"rounds, in steps of {width} turns")
    chart.vline(d["mean"], f"mean: {d['mean']:.1f} turns")
    chart.vline(d["median"], f"median: {d['median']:g} turns", color=ORANGE)
    return chart.render("How long a round lasts")


def _seats_plot(doc: dict[str, Any]) -> str:
    rows = doc["sections"]["outcome"]["by_seat_from_first"]
    if not rows or rows[0]["rate"] is None:
        return ""
    names = ["first"] + [f"first+{k}" for k in range(1, len(rows))]
    chart = Chart(Axis("seat, counted from the player who plays first", categories=names),
                  Axis("round wins", lo=0, fmt=_pct))
    chart.bars(list(range(len(rows))), [r["rate"] for r in rows], label="round wins (95% interval)",
               low=[r["ci95"][0] for r in rows], high=[r["ci95"][1] for r in rows])
    chart.hline(1 / doc["players"], f"fair share: {100 / doc['players']:.1f}%")
    return chart.render("Round wins by seat")


def _calibration_plot(doc: dict[str, Any]) -> str:
    rows = [r for r in doc["sections"]["tension"]["calibration"] if r["positions"]]
    if not rows:
        return ""
    chart = Chart(Axis("chance the evaluator gave a seat", lo=0, hi=1, fmt=_pct),
                  Axis("how often those seats won (95% interval)", lo=0, hi=1, fmt=_pct), width=480, height=400)
    chart.line([0, 1], [0, 1], label="perfectly calibrated: won as often as given")
    chart.points([r["mean_predicted"] for r in rows], [r["won"] for r in rows],
                 label="seats given that chance (in tenths)",
                 low=[r["won_ci95"][0] for r in rows], high=[r["won_ci95"][1] for r in rows])
    return chart.render("Is the evaluator right? (held-out rounds)")


def _power_plot(doc: dict[str, Any]) -> str:
    rows = doc["sections"]["card_power"].get("kinds") or []
    rows = [r for r in rows if r["power"]["value"] is not None]
    if not rows:
        return ""
    kinds = [r["kind"] for r in rows][::-1]  # strongest at the top
    rows = rows[::-1]
    chart = Chart(Axis("points of win rate (95% interval)", fmt=_pp), Axis("card kind", categories=kinds),
                  height=36 * len(rows) + 90, left=36 + 7 * max(len(k) for k in kinds))
    for j, (key, color, label) in enumerate((("power", RED, "never playing it costs (below 0: gains)"),
                                             ("rush", GREEN, "playing it at once gains (below 0: loses)"))):
        ys = [i + (0.2 if j == 0 else -0.2) for i in range(len(rows))]
        chart.hbars(ys, [r[key]["value"] for r in rows], height=0.36, color=color, label=label,
                    low=[(r[key]["ci95"] or [r[key]["value"]] * 2)[0] for r in rows],
                    high=[(r[key]["ci95"] or [r[key]["value"]] * 2)[1] for r in rows])
    chart.vline(0, "0: no effect on the win rate", color=GREY, dash=False)
    return chart.render("Card power by kind, strongest at the top")


def _wait_plot(doc: dict[str, Any]) -> str:
    d = doc["sections"]["downtime"].get("longest_wait")
    if not d:
        return ""
    top = max(d["max"], 1)
    xs, ys, width = _histogram(d["histogram"], top)
    chart = Chart(Axis("a player's longest run of turns without playing a card, in a round", lo=xs[0] - width / 2,
                       hi=xs[-1] + width / 2), Axis("player-rounds"))
    chart.bars(xs, ys, width=width, color=PURPLE, label="player-rounds with that longest wait")
    if not math.isnan(d["mean"]):
        chart.vline(d["mean"], f"mean: {d['mean']:.2f} turns")
    return chart.render("Longest wait without playing")
