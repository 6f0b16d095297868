"""The profile's rating-history chart: an SVG drawn on the server with pygal (no script).

pygal writes a <style> (and a <script> of its settings) into every SVG; the content security
policy refuses both inline, so they are taken out and the style sheet is a static file,
static/css/rating-chart.css, which ``stylesheet()`` writes (tests/test_csp.py checks that
it still matches pygal's).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pygal
from django.utils import dateformat, timezone
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
    chart = _chart(points)
    # A date under the first game of each day; about five of them are shown.
    labels, seen = [], set()
    for when, _ in points:
        day = dateformat.format(when.astimezone(zone), "j M")  # "5 Dec", "5 déc."
        labels.append("" if day in seen else day)
        seen.add(day)
    days = [label for label in labels if label]
    step = max(1, -(-len(days) // 5))
    chart.x_labels = labels
    chart.x_labels_major = days[::step]
    chart.add(title, [value for _, value in points])
    return INLINE.sub("", chart.render(is_unicode=True))


INLINE = re.compile(r"<(style|script)\b[^>]*>.*?</\1>", re.S)
STYLE_OF_ONE = re.compile(r"<style[^>]*>(.*?)</style>", re.S)
SCOPE = ".rating-chart .pygal-chart"  # in place of pygal's per-chart id


def stylesheet() -> str:
    """The style sheet pygal writes into these charts, for every chart on the site."""
    when = timezone.now()
    chart = _chart([(when, 1500), (when + timedelta(days=1), 1510)])
    chart.add("rating", [1500, 1510])
    svg = chart.render(is_unicode=True)
    chart_id = re.search(r'id="(chart-[0-9a-f-]+)"', svg).group(1)
    return STYLE_OF_ONE.search(svg).group(1).replace(f"#{chart_id}", SCOPE) + "\n"


def _chart(points: list) -> pygal.Line:
    return pygal.Line(
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
