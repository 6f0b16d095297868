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
    """An inline SVG of the shown rating after each game, dated in the viewer's time zone."""
    zone = timezone.get_current_timezone()
    chart = pygal.DateTimeLine(
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
        x_labels_major_count=4,
        show_minor_x_labels=False,
        x_value_formatter=lambda when: when.strftime("%-d %b"),
        margin=8,
    )
    chart.title = None
    chart.add(title, [(when.astimezone(zone), value) for when, value in points])
    return chart.render(is_unicode=True)
