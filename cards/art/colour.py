"""The suits' ink, the panels' colours, and mixing colours."""

from __future__ import annotations

INK = "#1d1d26"
TWO_COLOUR = {"S": INK, "H": "#d3182f", "D": "#d3182f", "C": INK, "B": "#b06f00"}
FOUR_COLOUR = {"S": INK, "H": "#d3182f", "D": "#1b5fd0", "C": "#13843a", "B": "#b06f00"}

# A face's panel per suit family: (gradient centre, gradient edge, motifs).
PANELS = {
    "S": ("#eef0fa", "#d3d9ef", "#aab4d8"),
    "H": ("#fff4ea", "#ffdccb", "#f6b39a"),
    "D": ("#ecfbfd", "#c9eef5", "#93d3e3"),
    "C": ("#f2f9e8", "#d6ecc4", "#a9d08c"),
    "B": ("#fff9e6", "#fbe6ae", "#e8c86f"),
}
# The night panel of the shadow Aces, the dark joker and the badges not yet earned.
NIGHT_PANEL = ("#3b2a58", "#120b1d", "#6b4fa0")


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _hex(rgb: tuple[float, ...]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(v))):02x}" for v in rgb)


def mix(a: str, b: str, t: float) -> str:
    ra, rb = _rgb(a), _rgb(b)
    return _hex(tuple(x + (y - x) * t for x, y in zip(ra, rb, strict=True)))


def darken(colour: str, t: float) -> str:
    return mix(colour, "#140c1c", t)


def lighten(colour: str, t: float) -> str:
    return mix(colour, "#ffffff", t)
