"""Line charts as inline SVG, drawn on the server: no JavaScript, no chart library.

The template (`league/_chart.html`) gets coordinates only; colours come from presentation
attributes (the CSP forbids inline styles), and each chart carries a text summary for screen
readers and for anybody who prefers numbers.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.formats import date_format

from scorebook.templatetags.amounts import amount

WIDTH, HEIGHT = 320, 160  # the viewBox; the SVG scales to the phone's width
LEFT, RIGHT, TOP, BOTTOM = 44, 8, 8, 20
MAX_POINTS = 120  # a phone is ~400 px wide: more points help nobody and cost render time
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


@dataclass
class Series:
    label: str
    colour: str
    points: str  # "x,y x,y …" for <polyline>
    last: str


@dataclass
class Chart:
    title: str
    series: list[Series]
    y_ticks: list[tuple[float, str]]
    x_labels: list[tuple[float, str, str]]  # x, text, text-anchor
    zero: float | None
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    bottom: int = HEIGHT - BOTTOM


def _thin(points: Sequence[tuple[datetime.date, float]]) -> list[tuple[datetime.date, float]]:
    if len(points) <= MAX_POINTS:
        return list(points)
    step = len(points) / MAX_POINTS
    kept = [points[int(i * step)] for i in range(MAX_POINTS)]
    kept[-1] = points[-1]
    return kept


def _fmt(value: float) -> str:
    """A tick or a last value as the page shows units: "−12"."""
    return amount(round(value))


def line_chart(
    title: str, series: Sequence[tuple[str, Sequence[tuple[datetime.date, float]]]]
) -> Chart | None:
    """A chart of one or more series of (date, value), or None when there is nothing to draw."""
    # Floats from here on: the league's amounts are Decimals, and Decimal - float is an error.
    series = [
        (label, [(d, float(v)) for d, v in _thin(points)]) for label, points in series if points
    ]
    if not series:
        return None
    dates = [d for _l, pts in series for d, _v in pts]
    values = [v for _l, pts in series for _d, v in pts]
    first, last = min(dates), max(dates)
    low, high = min(values), max(values)
    if low == high:
        low, high = low - 1, high + 1
    span_days = max((last - first).days, 1)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(d: datetime.date) -> float:
        return round(LEFT + plot_w * ((d - first).days / span_days), 1)

    def y(v: float) -> float:
        return round(TOP + plot_h * (1 - (v - low) / (high - low)), 1)

    drawn = []
    for i, (label, pts) in enumerate(series):
        if len(pts) == 1:  # one evening: a flat stub, so there is something to see
            pts = [pts[0], pts[0]]
            coords = f"{LEFT},{y(pts[0][1])} {WIDTH - RIGHT},{y(pts[0][1])}"
        else:
            coords = " ".join(f"{x(d)},{y(v)}" for d, v in pts)
        drawn.append(Series(label, COLOURS[i % len(COLOURS)], coords, _fmt(pts[-1][1])))
    mid = (low + high) / 2
    return Chart(
        title=title,
        series=drawn,
        y_ticks=[(y(v), _fmt(v)) for v in (high, mid, low)],
        x_labels=[
            (LEFT, date_format(first, "SHORT_DATE_FORMAT"), "start"),
            (WIDTH - RIGHT, date_format(last, "SHORT_DATE_FORMAT"), "end"),
        ],
        zero=y(0) if low < 0 < high else None,
    )
