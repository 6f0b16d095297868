"""A player's card style: four-colour suits and the card back, kept in the session.

The session holds ``{"four_colour": bool, "back": str}`` under ``SESSION_KEY``. Every page
gets them as ``card_four_colour`` and ``card_back`` (``cards.context_processors.card_prefs``),
which the ``{% card %}`` tag reads. Code that renders without a request (the table socket)
passes ``as_context(scope["session"])`` to its templates.

Only the classic back can be chosen for now; the others will be sold in the Kudos shop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import art

SESSION_KEY = "card_prefs"
SELECTABLE_BACKS = (art.DEFAULT_BACK,)
TRUE = ("1", "on", "true", "yes")
FALSE = ("0", "off", "false", "no", "")


@dataclass(frozen=True)
class CardPrefs:
    four_colour: bool = False
    back: str = art.DEFAULT_BACK


class PrefsError(ValueError):
    """A value a player can't choose; the message says why, in the player's words."""


def read(session: Mapping[str, Any] | None) -> CardPrefs:
    """The prefs stored in ``session``; defaults for anything missing or no longer valid."""
    stored = session.get(SESSION_KEY) if session is not None else None
    if not isinstance(stored, Mapping):
        return CardPrefs()
    back = stored.get("back")
    return CardPrefs(
        four_colour=stored.get("four_colour") is True,
        back=back if back in art.BACKS else art.DEFAULT_BACK,
    )


def as_context(session: Mapping[str, Any] | None) -> dict[str, Any]:
    """The template variables the ``{% card %}`` tag reads."""
    prefs = read(session)
    return {"card_four_colour": prefs.four_colour, "card_back": prefs.back}


def parse(data: Mapping[str, Any], current: CardPrefs) -> CardPrefs:
    """The prefs after applying a form's ``four_colour`` and ``back``; a field that is absent
    keeps its current value. Raises ``PrefsError`` for a value that can't be chosen."""
    four = current.four_colour
    if "four_colour" in data:
        # A checkbox after a hidden "0": the last value is the one that counts.
        values = data.getlist("four_colour") if hasattr(data, "getlist") else [data["four_colour"]]
        raw = str(values[-1] if values else "").strip().lower()
        if raw in TRUE:
            four = True
        elif raw in FALSE:
            four = False
        else:
            raise PrefsError("Four-colour suits can only be on or off.")
    back = current.back
    if "back" in data:
        back = str(data["back"]).strip().lower()
        if back not in art.BACKS:
            raise PrefsError("There is no card back by that name.")
        if back not in SELECTABLE_BACKS:
            raise PrefsError(
                f"The {art.BACK_NAMES[back]} back will be in the Kudos shop soon; "
                "until then every table uses the Classic back."
            )
    return CardPrefs(four_colour=four, back=back)


def save(session: Any, prefs: CardPrefs) -> None:
    session[SESSION_KEY] = {"four_colour": prefs.four_colour, "back": prefs.back}
