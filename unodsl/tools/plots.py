"""Charts of simulation figures (matplotlib, the optional [plot] extra)."""

from __future__ import annotations

import base64
import importlib
import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import UnoDslError


class PlotUnavailable(UnoDslError):
    """matplotlib is not installed."""


def check_plot() -> None:
    """Raise PlotUnavailable, with what to install, if charts cannot be drawn."""
    _pyplot()


def pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend (PlotUnavailable, saying what to install, without it)."""
    return _pyplot()


def inline_svg(fig: Any, plt: Any) -> str:
    """A figure as an <img> whose source is its SVG, inlined (a page that fetches nothing);
    the figure is closed."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img class="plot" alt="plot" src="data:image/svg+xml;base64,{data}">'


def _pyplot() -> Any:
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError as err:
        raise PlotUnavailable("charts need matplotlib: pip install matplotlib (or, in a checkout "
                              "of unodsl, pip install '.[plot]')") from err
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def plot(results: Sequence[dict[str, Any]], directory: str | Path,
         labels: Sequence[str] | None = None) -> list[Path]:
    """Write PNG charts of one run's figures, or of two side by side; return their paths."""
    plt = _pyplot()
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    labels = list(labels or [_label(f) for f in results])
    colors = ["tab:blue", "tab:orange"]
    written = []

    fig, axes = plt.subplots(1, len(results), figsize=(6.4 * len(results), 4.2), squeeze=False, sharex=True,
                             sharey=True)
    hi = max((f["turns_per_round"] or {}).get("p95", 1) for f in results)
    top = max(1, int(hi * 1.5))
    for ax, f, label, color in zip(axes[0], results, labels, colors, strict=False):
        d = f["turns_per_round"]
        if d:
            values = [v for v, _ in d["histogram"]]
            weights = [c for _, c in d["histogram"]]
            bins = _bins(top)
            ax.hist([min(v, top) for v in values], bins=bins, weights=weights, color=color, alpha=0.8)
            ax.axvline(d["mean"], color="black", linestyle="--", linewidth=1, label=f"mean {d['mean']:.1f}")
            ax.axvline(d["median"], color="black", linestyle=":", linewidth=1, label=f"median {d['median']:g}")
            ax.legend()
        ax.set_title(f"{label}\n{_subtitle(f)}", fontsize=10)
        ax.set_xlabel(f"turns per round (the last bar holds ≥ {top})")
        ax.set_ylabel("rounds")
    fig.tight_layout()
    written.append(_save(fig, plt, out / "turns_per_round.png"))

    panels = [("game_by_seat", "game wins by seat"), ("round_by_seat_from_dealer", "round wins by seat from dealer")]
    panels = [(key, title) for key, title in panels if all(key in f["wins"] for f in results)]
    fig, axes = plt.subplots(1, len(panels), figsize=(6.4 * len(panels), 4.2), squeeze=False)
    width = 0.8 / len(results)
    for ax, (key, title) in zip(axes[0], panels, strict=True):
        ymax = 0.0
        for i, (f, label, color) in enumerate(zip(results, labels, colors, strict=False)):
            rows = f["wins"][key]
            xs = [j + (i - (len(results) - 1) / 2) * width for j in range(len(rows))]
            rates, errs = bars(rows)
            ax.bar(xs, rates, width, yerr=errs, capsize=3, color=color, alpha=0.85, label=label)
            ymax = max([ymax, *(100 * r["ci95"][1] for r in rows if r["ci95"])])
        rows = results[0]["wins"][key]
        # a seat's agent is shown when seats are fixed (null when they rotate)
        ax.set_xticks(range(len(rows)), [r["label"] + (f"\n{r['agent']}" if r.get("agent") else "") for r in rows])
        ax.axhline(100 / results[0]["players"], color="grey", linestyle="--", linewidth=1, label="1 / players")
        ax.set_ylabel("win rate, % (95% CI)")
        ax.set_title(title)
        ax.set_ylim(0, min(100.0, ymax * 1.3) if ymax else 100.0)
        ax.legend(fontsize=8, loc="upper center", ncol=len(results) + 1)
    fig.tight_layout()
    written.append(_save(fig, plt, out / "seat_win_rates.png"))
    return written


def bars(rows: list[dict[str, Any]]) -> tuple[list[float], list[list[float]]]:
    """Win-rate bars and their error bars (below, above) in percent, the unit of the tables."""
    rates = [100 * (r["rate"] or 0.0) for r in rows]
    errs = [[100 * (r["rate"] - r["ci95"][0]) if r["ci95"] else 0.0 for r in rows],
            [100 * (r["ci95"][1] - r["rate"]) if r["ci95"] else 0.0 for r in rows]]
    return rates, errs


def _bins(top: int) -> list[float]:
    step = max(1, math.ceil((top + 1) / 60))
    return [x - 0.5 for x in range(0, top + step + 1, step)]


def _save(fig: Any, plt: Any, path: Path) -> Path:
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _label(f: dict[str, Any]) -> str:
    v = f["variant"]
    return str(v["name"]) + (f" + {', '.join(v['options'])}" if v["options"] else "")


def _subtitle(f: dict[str, Any]) -> str:
    unit = "games" if f["mode"] == "games" else "rounds"
    seats = "fixed seats" if f.get("seating") == "fixed" else "seats rotating"
    return (f"{f['count']:,} {unit}, {f['players']} players ({', '.join(dict.fromkeys(f['agents']))}; {seats}), "
            f"seed {f['seed']}")


# --------------------------------------------------------------------------
# Sweeps


def sweep_charts(figs: dict[str, Any], directory: str | Path) -> list[Path]:
    """Heat maps of a sweep (`Sweep.figures()`) over its grid, rules down and player counts
    across, each beside the same figures as points with their 95% interval bars:
    first-seat advantage (percentage points over a fair share) and turns per round."""
    plt = _pyplot()
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    cells = figs["cells"]
    rows = list(dict.fromkeys(_rules(c) for c in cells))
    players = sorted({c["players"] for c in cells})
    charts = [("first_seat_advantage.png", "first-seat advantage, percentage points (95% CI)", "RdBu_r", True),
              ("turns_per_round.png", "turns per round, mean (95% CI)", "viridis", False)]
    written = []
    for name, title, cmap, centred in charts:
        grid = [[math.nan] * len(players) for _ in rows]
        bounds: dict[tuple[int, int], list[float] | None] = {}
        for c in cells:
            value, ci = _pick(c["summary"], centred)
            i, j = rows.index(_rules(c)), players.index(c["players"])
            grid[i][j] = math.nan if value is None else value
            bounds[i, j] = ci
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(12.8, 1.6 + 0.7 * len(rows) + 2.2),
                                     gridspec_kw={"width_ratios": [1.2, 1]})
        finite = [v for r in grid for v in r if math.isfinite(v)]
        lo, hi = (min(finite), max(finite)) if finite else (0.0, 1.0)
        if centred:
            edge = max(abs(lo), abs(hi), 1e-9)
            lo, hi = -edge, edge
        image = ax.imshow(grid, cmap=cmap, vmin=lo, vmax=hi, aspect="auto")
        fig.colorbar(image, ax=ax, shrink=0.8)
        for (i, j), ci in bounds.items():
            v = grid[i][j]
            if math.isfinite(v):
                text = f"{v:+.1f}" if centred else f"{v:.1f}"
                text += f"\n{ci[0]:.1f}…{ci[1]:.1f}" if ci else ""
                ax.text(j, i, text, ha="center", va="center", fontsize=8,
                        color="white" if _dark(v, lo, hi, centred) else "black")
        ax.set_xticks(range(len(players)), [str(p) for p in players])
        ax.set_yticks(range(len(rows)), [_wrap(r) for r in rows], fontsize=8)
        ax.set_xlabel("players")
        ax.set_title(title, fontsize=10)
        shift = 0.08
        for i, row in enumerate(rows):
            xs: list[float] = []
            ys: list[float] = []
            errs: list[list[float]] = [[], []]
            for j, p in enumerate(players):
                ci = bounds.get((i, j))
                if math.isfinite(grid[i][j]) and ci:
                    xs.append(p + (i - (len(rows) - 1) / 2) * shift)
                    ys.append(grid[i][j])
                    errs[0].append(grid[i][j] - ci[0])
                    errs[1].append(ci[1] - grid[i][j])
            bx.errorbar(xs, ys, yerr=errs, capsize=3, marker="o", markersize=4, label=_wrap(row))
        if centred:
            bx.axhline(0, color="grey", linestyle="--", linewidth=1)
        bx.set_xticks(players)
        bx.set_xlabel("players")
        bx.set_title(title, fontsize=10)
        bx.legend(fontsize=7)
        unit = "games" if cells[0]["figures"]["mode"] == "games" else "rounds"
        fig.suptitle(f"{cells[0]['figures']['count']:,} {unit} per cell, seed {cells[0]['figures']['seed']}",
                     fontsize=9)
        fig.tight_layout()
        written.append(_save(fig, plt, out / name))
    return written


def _pick(summary: dict[str, Any], first_seat: bool) -> tuple[float | None, list[float] | None]:
    """A cell's value and interval: first-seat advantage, or mean turns per round."""
    if first_seat:
        return summary["first_seat"]["advantage_pp"], summary["first_seat"]["advantage_ci95"]
    turns = summary["turns_per_round"]
    return (None, None) if turns is None else (turns["mean"], turns["ci95"])


def _rules(cell: dict[str, Any]) -> str:
    """A cell's row in the heat maps: everything but its player count."""
    options = "".join(f" {k}={v}" for k, v in cell["options"].items())
    return f"{Path(cell['variant']).stem}{options} [{','.join(cell['agents'])}]"


def _wrap(text: str, width: int = 28) -> str:
    words, lines, line = text.split(" "), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return "\n".join([*lines, line])


def _dark(value: float, lo: float, hi: float, centred: bool) -> bool:
    """Whether a heat-map cell is dark enough to need white text."""
    if hi <= lo:
        return False
    x = (value - lo) / (hi - lo)
    return abs(x - 0.5) > 0.3 if centred else x < 0.45
