"""The profile's rating-history chart: an SVG drawn on the server with pygal (no script)."""

from __future__ import annotations

from datetime import datetime

import pygal
from django.utils import timezone
from pygal.style import Style

STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground="#f4efe4",
    foreground_strong="#f4efe4",
    foreground_subtle="rgba(255,255,255,.18)",
    colors=("#f2c14e",),
    font_family="system-ui, sans-serif",
    label_font_size=13,
    major_label_font_size=13,
)


def rating_chart(points: list[tuple[datetime, int]], title: str) -> str:
    """An inline SVG of the shown rating before the first ranked game and after each one,
    one step per game (several games a day would crowd a time axis), labelled with the
    game's date in the viewer's time zone."""
    zone = timezone.get_current_timezone()
    chart = pygal.Line(
        style=STYLE,
        width=640,
        height=240,
        explicit_size=False,
        show_legend=False,
        js=(),  # no script: the SVG stands alone
        disable_xml_declaration=True,
        dots_size=3,
        show_dots=len(points) <= 60,
        x_label_rotation=0,
        truncate_label=-1,
        show_minor_x_labels=False,
        y_labels_major_count=5,
        show_minor_y_labels=False,
        margin=8,
        margin_right=28,
    )
    # A date under the first game of each day; about five of them are shown.
    labels, seen = [], set()
    for when, _ in points:
        day = when.astimezone(zone).strftime("%-d %b")
        labels.append("" if day in seen else day)
        seen.add(day)
    days = [label for label in labels if label]
    step = max(1, -(-len(days) // 5))
    chart.x_labels = labels
    chart.x_labels_major = days[::step]
    chart.add(title, [value for _, value in points])
    return chart.render(is_unicode=True)
