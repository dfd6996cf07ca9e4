"""Charts written as SVG text, with the standard library only: bars (vertical, horizontal,
a histogram's touching bars), points with error bars, lines and bands, on two labelled
axes with a legend that names every series and every line.

    c = Chart(Axis("turns per round"), Axis("rounds"))
    c.bars([10, 11, 12], [3, 5, 2], width=1, label="rounds", color=BLUE)
    c.vline(11.2, "mean: 11.2 turns", dash=True)
    svg = c.render("Turns per round")

Every text (a title, an axis label, a tick, a legend entry) is escaped: text from a
variant file (a card kind as a tick label) stays text. The output is an inline `<svg>`
element, so the page that holds it needs no plotting library, no network and no script.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

BLUE, GREEN, RED, PURPLE, GREY, BLACK, ORANGE = ("#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#7f7f7f", "#222222",
                                                  "#ff7f0e")
FONT = "font-family:system-ui,sans-serif;font-size:12px"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _n(x: float) -> str:
    """A coordinate: two decimals, no trailing zeros."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def nice_ticks(lo: float, hi: float, most: int = 6) -> list[float]:
    """Round tick values from lo to hi: steps of 1, 2 or 5 times a power of ten."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / max(1, most - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks = []
    x = first
    while x <= hi + 1e-9 * step:
        ticks.append(round(x, 12))
        x += step
    return ticks


@dataclass
class Axis:
    """An axis: its label, and either a range of numbers (None: from the data) with a
    tick format, or category names (one tick per category, at 0, 1, 2, …)."""

    label: str
    lo: float | None = None
    hi: float | None = None
    fmt: Callable[[float], str] = field(default=lambda x: f"{x:g}")
    categories: Sequence[str] | None = None

    def span(self, values: Sequence[float]) -> tuple[float, float]:
        if self.categories is not None:
            return -0.5, len(self.categories) - 0.5
        lo = self.lo if self.lo is not None else min([0.0, *values])
        hi = self.hi if self.hi is not None else max(values, default=lo + 1)
        if hi <= lo:
            hi = lo + 1
        if self.lo is None and lo < 0:  # a negative end on a tick too
            ticks = nice_ticks(lo, hi)
            if ticks[0] > lo and len(ticks) > 1:
                lo = ticks[0] - (ticks[1] - ticks[0])
        if self.hi is None:
            ticks = nice_ticks(lo, hi)
            if ticks[-1] < hi and len(ticks) > 1:
                hi = ticks[-1] + (ticks[1] - ticks[0])
        return lo, hi

    def ticks(self, lo: float, hi: float) -> list[tuple[float, str]]:
        if self.categories is not None:
            return [(float(i), name) for i, name in enumerate(self.categories)]
        return [(t, self.fmt(t)) for t in nice_ticks(lo, hi) if lo - 1e-9 <= t <= hi + 1e-9]


@dataclass
class _Series:
    kind: str                 # "bars", "hbars", "points", "line", "vline", "hline", "band"
    label: str
    color: str
    data: list[tuple[float, ...]]
    width: float = 0.8
    dash: bool = False


class Chart:
    """One plot: add series, then `render`. x and y are the horizontal and vertical axes."""

    def __init__(self, x: Axis, y: Axis, *, width: int = 680, height: int = 300, left: int = 70) -> None:
        self.x, self.y = x, y
        self.width, self.height = width, height
        self.left, self.right, self.top, self.bottom = left, 20, 34, 48
        self.series: list[_Series] = []

    # -- what can be drawn -----------------------------------------------------------

    def bars(self, xs: Sequence[float], ys: Sequence[float], *, label: str, color: str = BLUE, width: float = 0.8,
             low: Sequence[float] | None = None, high: Sequence[float] | None = None) -> None:
        """Vertical bars centred at xs, `width` wide in x's units (1 for a histogram of whole
        numbers: touching bars, no gaps), with error bars from low to high if given."""
        self.series.append(_Series("bars", label, color, _rows(xs, ys, low, high), width))

    def hbars(self, ys: Sequence[float], xs: Sequence[float], *, label: str, color: str = BLUE,
              height: float = 0.8, low: Sequence[float] | None = None, high: Sequence[float] | None = None) -> None:
        """Horizontal bars centred at ys (categories), from 0 to xs, with error bars."""
        self.series.append(_Series("hbars", label, color, _rows(ys, xs, low, high), height))

    def points(self, xs: Sequence[float], ys: Sequence[float], *, label: str, color: str = BLUE,
               low: Sequence[float] | None = None, high: Sequence[float] | None = None) -> None:
        """Points with vertical error bars from low to high."""
        self.series.append(_Series("points", label, color, _rows(xs, ys, low, high)))

    def line(self, xs: Sequence[float], ys: Sequence[float], *, label: str, color: str = GREY,
             dash: bool = True) -> None:
        self.series.append(_Series("line", label, color, [(x, y) for x, y in zip(xs, ys, strict=True)], dash=dash))

    def vline(self, x: float, label: str, *, color: str = BLACK, dash: bool = True) -> None:
        self.series.append(_Series("vline", label, color, [(x,)], dash=dash))

    def hline(self, y: float, label: str, *, color: str = GREY, dash: bool = True) -> None:
        self.series.append(_Series("hline", label, color, [(y,)], dash=dash))

    def band(self, x0: float, x1: float, label: str, *, color: str = GREEN) -> None:
        """A shaded vertical band from x0 to x1 (a designer's target range)."""
        self.series.append(_Series("band", label, color, [(x0, x1)]))

    # -- drawing ---------------------------------------------------------------------

    def _extent(self) -> tuple[list[float], list[float]]:
        xs: list[float] = []
        ys: list[float] = []
        for s in self.series:
            for row in s.data:
                if s.kind == "bars":
                    xs += [row[0] - s.width / 2, row[0] + s.width / 2]
                    ys += [row[1], *row[2:]]
                elif s.kind == "hbars":
                    ys.append(row[0])
                    xs += [row[1], *row[2:]]
                elif s.kind in ("points", "line"):
                    xs.append(row[0])
                    ys += [row[1], *row[2:]]
                elif s.kind == "vline":
                    xs.append(row[0])
                elif s.kind == "hline":
                    ys.append(row[0])
                elif s.kind == "band":
                    xs += [row[0], row[1]]
        return xs, ys

    def render(self, title: str, *, description: str = "") -> str:
        """The chart as an `<svg>` element (its title also its accessible name)."""
        xs, ys = self._extent()
        x0, x1 = self.x.span(xs)
        y0, y1 = self.y.span(ys)
        legend = [s for s in self.series if s.label]
        columns = 2 if all(26 + 6.5 * len(s.label) < (self.width - self.left - self.right) / 2 for s in legend) else 1
        rows = math.ceil(len(legend) / columns)
        top = self.top + 18 * rows
        w, h = self.width, self.height + 18 * rows
        pw, ph = w - self.left - self.right, h - top - self.bottom

        def px(x: float) -> float:
            return self.left + (x - x0) / (x1 - x0) * pw

        def py(y: float) -> float:
            return top + ph - (y - y0) / (y1 - y0) * ph

        out = [f'<svg class="plot" xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
               f'viewBox="0 0 {w} {h}" role="img" aria-label="{_e(title)}" style="{FONT}">',
               f"<title>{_e(title)}</title>"]
        if description:
            out.append(f"<desc>{_e(description)}</desc>")
        out.append(f'<text class="title" x="{w / 2}" y="18" text-anchor="middle" font-weight="bold">{_e(title)}</text>')
        for i, s in enumerate(legend):  # the legend, two entries a row (one if they are long), above the plot
            lx, ly = self.left + (i % columns) * pw / 2, self.top + 18 * (i // columns) + 4
            out.append(_swatch(s, lx, ly))
            out.append(f'<text class="legend" x="{_n(lx + 26)}" y="{_n(ly + 4)}">{_e(s.label)}</text>')
        out.append(f'<rect x="{self.left}" y="{top}" width="{_n(pw)}" height="{_n(ph)}" fill="none" '
                   'stroke="#bbb"/>')
        for value, text in self.y.ticks(y0, y1):
            y = py(value)
            out.append(f'<line x1="{self.left}" x2="{_n(self.left + pw)}" y1="{_n(y)}" y2="{_n(y)}" stroke="#eee"/>')
            out.append(f'<text class="tick y" x="{self.left - 6}" y="{_n(y + 4)}" text-anchor="end">{_e(text)}</text>')
        for value, text in self.x.ticks(x0, x1):
            x = px(value)
            out.append(f'<line x1="{_n(x)}" x2="{_n(x)}" y1="{_n(top + ph)}" y2="{_n(top + ph + 4)}" stroke="#888"/>')
            out.append(f'<text class="tick x" x="{_n(x)}" y="{_n(top + ph + 17)}" text-anchor="middle">'
                       f"{_e(text)}</text>")
        box = (self.left, top, self.left + pw, top + ph)
        for s in sorted(self.series, key=lambda s: s.kind != "band"):  # a band beneath the rest
            out += _draw(s, px, py, box)
        out.append(f'<text class="axis-label x" x="{_n(self.left + pw / 2)}" y="{h - 8}" '
                   f'text-anchor="middle">{_e(self.x.label)}</text>')
        out.append(f'<text class="axis-label y" transform="translate(14,{_n(top + ph / 2)}) rotate(-90)" '
                   f'text-anchor="middle">{_e(self.y.label)}</text>')
        out.append("</svg>")
        return "".join(out)


def _rows(xs: Sequence[float], ys: Sequence[float], low: Sequence[float] | None,
          high: Sequence[float] | None) -> list[tuple[float, ...]]:
    if low is None or high is None:
        return [(x, y) for x, y in zip(xs, ys, strict=True)]
    return [(x, y, lo, hi) for x, y, lo, hi in zip(xs, ys, low, high, strict=True)]


def _swatch(s: _Series, x: float, y: float) -> str:
    if s.kind in ("bars", "hbars", "band"):
        opacity = ' fill-opacity="0.25"' if s.kind == "band" else ""
        return f'<rect class="swatch" x="{_n(x)}" y="{_n(y - 4)}" width="20" height="10" fill="{s.color}"{opacity}/>'
    if s.kind == "points":
        return f'<circle class="swatch" cx="{_n(x + 10)}" cy="{_n(y + 1)}" r="4" fill="{s.color}"/>'
    dash = ' stroke-dasharray="5,3"' if s.dash else ""
    return f'<line class="swatch" x1="{_n(x)}" x2="{_n(x + 20)}" y1="{_n(y + 1)}" y2="{_n(y + 1)}" ' \
           f'stroke="{s.color}" stroke-width="1.5"{dash}/>'


def _draw(s: _Series, px: Callable[[float], float], py: Callable[[float], float],
          box: tuple[float, float, float, float]) -> list[str]:
    """The SVG elements of one series; `box` is the plot's left, top, right and bottom in pixels."""
    left_edge, top_edge, right_edge, bottom_edge = box
    out: list[str] = []
    dash = ' stroke-dasharray="5,3"' if s.dash else ""
    label = _e(s.label)
    if s.kind == "bars":
        base = min(py(0.0), bottom_edge)
        for row in s.data:
            x, y = row[0], row[1]
            left, right = px(x - s.width / 2), px(x + s.width / 2)
            top = py(y)
            out.append(f'<rect x="{_n(left)}" y="{_n(min(top, base))}" width="{_n(max(right - left, 0.5))}" '
                       f'height="{_n(abs(base - top))}" fill="{s.color}" fill-opacity="0.85" '
                       f'shape-rendering="crispEdges"><title>{label}: {_e(f"{y:g}")}</title></rect>')
            if len(row) == 4:
                out.append(_errbar(px(x), py(row[2]), py(row[3]), vertical=True))
    elif s.kind == "hbars":
        base = px(0.0)
        for row in s.data:
            y, x = row[0], row[1]
            top, bottom = py(y + s.width / 2), py(y - s.width / 2)
            end = px(x)
            out.append(f'<rect x="{_n(min(base, end))}" y="{_n(min(top, bottom))}" width="{_n(abs(end - base))}" '
                       f'height="{_n(abs(bottom - top))}" fill="{s.color}" fill-opacity="0.85">'
                       f"<title>{label}: {_e(f'{x:g}')}</title></rect>")
            if len(row) == 4:
                out.append(_errbar(py(y), px(row[2]), px(row[3]), vertical=False))
    elif s.kind == "points":
        for row in s.data:
            if len(row) == 4:
                out.append(_errbar(px(row[0]), py(row[2]), py(row[3]), vertical=True))
            out.append(f'<circle cx="{_n(px(row[0]))}" cy="{_n(py(row[1]))}" r="4" fill="{s.color}">'
                       f"<title>{label}</title></circle>")
    elif s.kind == "line":
        points = " ".join(f"{_n(px(x))},{_n(py(y))}" for x, y in s.data)
        out.append(f'<polyline points="{points}" fill="none" stroke="{s.color}" stroke-width="1.5"{dash}>'
                   f"<title>{label}</title></polyline>")
    elif s.kind in ("vline", "hline"):
        v = s.data[0][0]
        if s.kind == "vline":
            a, b, c, d = px(v), px(v), bottom_edge, top_edge
        else:
            a, b, c, d = left_edge, right_edge, py(v), py(v)
        out.append(f'<line x1="{_n(a)}" x2="{_n(b)}" y1="{_n(c)}" y2="{_n(d)}" stroke="{s.color}" '
                   f'stroke-width="1.5"{dash}><title>{label}</title></line>')
    elif s.kind == "band":
        lo, hi = s.data[0]
        out.append(f'<rect x="{_n(px(lo))}" y="{_n(top_edge)}" width="{_n(px(hi) - px(lo))}" '
                   f'height="{_n(bottom_edge - top_edge)}" fill="{s.color}" fill-opacity="0.15">'
                   f"<title>{label}</title></rect>")
    return out


def _errbar(at: float, a: float, b: float, *, vertical: bool) -> str:
    """An error bar with caps, at `at` across, from a to b along."""
    cap = 4
    if vertical:
        return (f'<path d="M{_n(at)},{_n(a)}V{_n(b)}M{_n(at - cap)},{_n(a)}H{_n(at + cap)}M{_n(at - cap)},{_n(b)}'
                f'H{_n(at + cap)}" stroke="{BLACK}" stroke-width="1" fill="none"/>')
    return (f'<path d="M{_n(a)},{_n(at)}H{_n(b)}M{_n(a)},{_n(at - cap)}V{_n(at + cap)}M{_n(b)},{_n(at - cap)}'
            f'V{_n(at + cap)}" stroke="{BLACK}" stroke-width="1" fill="none"/>')
