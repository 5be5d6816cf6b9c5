"""The evening's chart: each player's running balance over the evening's deals, as a PNG.

Drawn with matplotlib's object API on the Agg canvas (no pyplot, no global figure state), so
a chart can be drawn in a worker thread while the event loop goes on (``draw_evening_chart``
is called through ``asyncio.to_thread``). Made for a phone: a wide 1200×800 picture, large
type, the names in the legend with their result, the winner's line thick and labelled at its
end. Cyrillic needs a font that has it: DejaVu Sans, bundled with matplotlib and installed
in the Docker image (``fonts-dejavu-core``).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

#: distinct on white and for the common colour blindnesses (Okabe–Ito), the winner gets the first
COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
WIDTH, HEIGHT, DPI = 12.0, 8.0, 100


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line: his name, and his running net after each deal (the chart adds the
    zero before the first deal)."""

    name: str
    running: Sequence[int]


def draw_evening_chart(
    title: str, lines: Sequence[Line], *, x_label: str, y_label: str, net_label: str
) -> bytes:
    """A PNG of ``lines``, the best final result first in the legend. ``net_label`` formats
    a result for the legend, e.g. ``"{name}: {net}"``."""
    figure = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)  # the Agg canvas: draws in memory, no display, no global state
    axes = figure.add_subplot()
    ordered = sorted(lines, key=lambda line: -(line.running[-1] if line.running else 0))
    deals = max((len(line.running) for line in lines), default=0)
    axes.axhline(0, color="#888888", linewidth=1.2, zorder=1)
    for index, line in enumerate(ordered):
        xs = list(range(len(line.running) + 1))
        ys = [0, *line.running]
        winner = index == 0 and ys[-1] > 0
        final = ys[-1]
        axes.plot(
            xs,
            ys,
            color=COLOURS[index % len(COLOURS)],
            linewidth=5.0 if winner else 2.6,
            marker="o" if deals <= 30 else None,
            markersize=7 if winner else 5,
            label=net_label.format(name=line.name, net=_signed(final)),
            zorder=3 if winner else 2,
            solid_capstyle="round",
        )
        axes.annotate(
            _signed(final),
            xy=(xs[-1], final),
            xytext=(8, 0),
            textcoords="offset points",
            va="center",
            fontsize=20 if winner else 16,
            fontweight="bold" if winner else "normal",
            color=COLOURS[index % len(COLOURS)],
        )
    axes.set_title(title, fontsize=24, fontweight="bold", loc="left", pad=14)
    axes.set_xlabel(x_label, fontsize=17)
    axes.set_ylabel(y_label, fontsize=17)
    axes.tick_params(labelsize=15)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=12))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=8))
    axes.set_xlim(0, max(deals, 1) * 1.08 + 0.3)
    axes.grid(True, color="#DDDDDD", linewidth=0.8, zorder=0)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    axes.legend(
        loc="upper left",
        fontsize=17,
        frameon=True,
        framealpha=0.92,
        borderaxespad=0.8,
    )
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", facecolor="white")
    return buffer.getvalue()


def _signed(value: int) -> str:
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"
