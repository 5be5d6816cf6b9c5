"""The evening's chart: each player's running balance over the evening's deals, as a PNG.

Drawn with matplotlib's object API on the Agg canvas (no pyplot, no global figure state), so
a chart can be drawn in a worker thread while the event loop goes on (``draw_evening_chart``
is called through ``asyncio.to_thread``). Made for a phone: a wide 1200×800 picture, large
type, the names in the legend with their result, the winner's line thick and labelled at its
end. Cyrillic needs a font that has it: DejaVu Sans, bundled with matplotlib (so nothing is
installed for it, in the Docker image either).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from dataclasses import dataclass

#: distinct on white and for the common colour blindnesses (Okabe–Ito), the winner gets the first
COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
WIDTH, HEIGHT, DPI = 12.0, 8.0, 100
LEGEND_COLUMNS = 3


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
    # imported here, in the worker thread, at the first chart: importing matplotlib (and
    # loading its fonts) takes a second or more, which the bot's start-up must not wait for
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    # fixed margins: a layout engine would draw everything twice, and that was half the time
    figure = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
    columns = min(len(lines), LEGEND_COLUMNS) or 1
    legend_rows = -(-len(lines) // columns)
    # the legend goes in rows between the title and the plot, where it hides no line
    figure.subplots_adjust(left=0.085, right=0.975, bottom=0.095, top=0.895 - 0.058 * legend_rows)
    FigureCanvasAgg(figure)  # the Agg canvas: draws in memory, no display, no global state
    axes = figure.add_subplot()
    ordered = sorted(lines, key=lambda line: -(line.running[-1] if line.running else 0))
    deals = max((len(line.running) for line in lines), default=0)
    axes.axhline(0, color="#888888", linewidth=1.2, zorder=1)
    finals = [line.running[-1] if line.running else 0 for line in ordered]
    label_at = _spread(finals, (max([0, *finals, *_all(lines)]) - min([0, *finals, *_all(lines)])))
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
            label=net_label.format(name=_drawable(line.name), net=_signed(final)),
            zorder=3 if winner else 2,
            solid_capstyle="round",
        )
        axes.annotate(
            _signed(final),
            xy=(xs[-1], final),
            xytext=(8, label_at[index]),
            textcoords=("offset points", "data"),
            va="center",
            fontsize=20 if winner else 16,
            fontweight="bold" if winner else "normal",
            color=COLOURS[index % len(COLOURS)],
        )
    figure.suptitle(_drawable(title), fontsize=24, fontweight="bold", x=0.085, y=0.975, ha="left")
    axes.set_xlabel(x_label, fontsize=17)
    axes.set_ylabel(y_label, fontsize=17)
    axes.tick_params(labelsize=15)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=12))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=8))
    axes.set_xlim(0, max(deals, 1) * 1.08 + 0.3)
    axes.grid(True, color="#DDDDDD", linewidth=0.8, zorder=0)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    # matplotlib fills a legend's columns one after another; this order makes it read in rows,
    # best result first
    handles, labels = axes.get_legend_handles_labels()
    order = [k for column in range(columns) for k in range(len(labels)) if k % columns == column]
    axes.legend(
        [handles[k] for k in order],
        [labels[k] for k in order],
        loc="lower left",
        bbox_to_anchor=(0.0, 1.01),
        ncols=columns,
        fontsize=17,
        frameon=False,
        borderaxespad=0.2,
        handlelength=2.2,
        columnspacing=1.6,
    )
    buffer = io.BytesIO()
    # light compression: a PNG of about 150 KB either way, and the default level took a third
    # of the drawing's time
    figure.savefig(buffer, format="png", facecolor="white", pil_kwargs={"compress_level": 1})
    return buffer.getvalue()


def _drawable(text: str) -> str:
    """``text`` without the characters the chart's font cannot draw, which it would show as
    empty boxes: emoji, such as a computer's robot mark or one in a person's name."""
    from matplotlib import font_manager

    charmap = _charmap(font_manager.findfont(font_manager.FontProperties()))
    kept = " ".join("".join(c for c in text if ord(c) in charmap or c.isspace()).split())
    return kept or "?"


@functools.cache
def _charmap(path: str) -> frozenset[int]:
    from matplotlib import font_manager

    return frozenset(font_manager.get_font(path).get_charmap())


def _all(lines: Sequence[Line]) -> list[int]:
    return [value for line in lines for value in line.running]


def _spread(finals: Sequence[int], span: int) -> list[float]:
    """Heights for the end labels: each at its line's end, pushed up just enough that no two
    labels overlap (about 4.5% of the chart's height apart)."""
    gap = max(span, 1) * 0.045
    order = sorted(range(len(finals)), key=lambda i: finals[i])
    heights = [float(value) for value in finals]
    previous: float | None = None
    for index in order:
        if previous is not None and heights[index] < previous + gap:
            heights[index] = previous + gap
        previous = heights[index]
    return heights


def _signed(value: int) -> str:
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"
