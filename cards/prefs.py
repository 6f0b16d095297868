"""A player's card style: four-colour suits, the card back and the table felt, kept in the
session.

The session holds ``{"four_colour": bool, "back": str, "felt": str, "backs": [...], "felts":
[...]}`` under ``SESSION_KEY``; ``backs`` and ``felts`` are the ones the player owns beyond the
free Classic back and Green baize felt (the Kudos shop writes them there). Every page gets
``card_four_colour``, ``card_back`` and ``table_felt`` (``cards.context_processors``), which
the ``{% card %}`` tag and the table read. Code that renders without a request (the table
socket) passes ``as_context(scope["session"])`` to its templates, so pushed fragments wear
the same style.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.dispatch import Signal
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from . import art

SESSION_KEY = "card_prefs"
# The names are translated where a page shows them (cards.names.felt_name).
FELTS = {
    "baize": gettext_noop("Green baize"),
    "midnight": gettext_noop("Midnight blue"),
    "claret": gettext_noop("Claret"),
    "walnut": gettext_noop("Walnut"),
    "slate": gettext_noop("Slate"),
}
DEFAULT_FELT = "baize"
TRUE = ("1", "on", "true", "yes")
FALSE = ("0", "off", "false", "no", "")

# Sent after a player saves their style (``request``, ``prefs``): an app that keeps a
# signed-in player's style beyond the session listens.
saved = Signal()


@dataclass(frozen=True)
class CardPrefs:
    four_colour: bool = False
    back: str = art.DEFAULT_BACK
    felt: str = DEFAULT_FELT
    backs: frozenset[str] = field(default=frozenset())  # owned beyond the free one
    felts: frozenset[str] = field(default=frozenset())

    def may_wear_back(self, back: str) -> bool:
        return back == art.DEFAULT_BACK or back in self.backs

    def may_wear_felt(self, felt: str) -> bool:
        return felt == DEFAULT_FELT or felt in self.felts


class PrefsError(ValueError):
    """A value a player can't choose; the message says why, in the player's words."""


def read(session: Mapping[str, Any] | None) -> CardPrefs:
    """The prefs stored in ``session``; defaults for anything missing or no longer valid."""
    stored = session.get(SESSION_KEY) if session is not None else None
    if not isinstance(stored, Mapping):
        return CardPrefs()
    owned = CardPrefs(
        backs=frozenset(b for b in _names(stored.get("backs")) if b in art.BACKS),
        felts=frozenset(f for f in _names(stored.get("felts")) if f in FELTS),
    )
    back, felt = stored.get("back"), stored.get("felt")
    return CardPrefs(
        four_colour=stored.get("four_colour") is True,
        back=back if isinstance(back, str) and owned.may_wear_back(back) else art.DEFAULT_BACK,
        felt=felt if isinstance(felt, str) and owned.may_wear_felt(felt) else DEFAULT_FELT,
        backs=owned.backs,
        felts=owned.felts,
    )


def _names(value: Any) -> Iterable[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def as_context(session: Mapping[str, Any] | None) -> dict[str, Any]:
    """The template variables the ``{% card %}`` tag and the tables read."""
    prefs = read(session)
    return {
        "card_four_colour": prefs.four_colour,
        "card_back": prefs.back,
        "table_felt": prefs.felt,
    }


def parse(data: Mapping[str, Any], current: CardPrefs) -> CardPrefs:
    """The prefs after applying a form's ``four_colour``, ``back`` and ``felt``; a field that
    is absent keeps its current value. Raises ``PrefsError`` for a value that can't be chosen."""
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
            raise PrefsError(_("Four-colour suits can only be on or off."))
    back = current.back
    if "back" in data:
        back = str(data["back"]).strip().lower()
        if back not in art.BACKS:
            raise PrefsError(_("There is no card back by that name."))
        if not current.may_wear_back(back):
            raise PrefsError(
                _("The %(back)s back is sold in the Kudos shop: buy it there to use it.")
                % {"back": _(art.BACK_NAMES[back])}
            )
    felt = current.felt
    if "felt" in data:
        felt = str(data["felt"]).strip().lower()
        if felt not in FELTS:
            raise PrefsError(_("There is no table felt by that name."))
        if not current.may_wear_felt(felt):
            raise PrefsError(
                _("The %(felt)s felt is sold in the Kudos shop: buy it there to use it.")
                % {"felt": _(FELTS[felt])}
            )
    return CardPrefs(
        four_colour=four, back=back, felt=felt, backs=current.backs, felts=current.felts
    )


def save(session: Any, prefs: CardPrefs) -> None:
    session[SESSION_KEY] = {
        "four_colour": prefs.four_colour,
        "back": prefs.back,
        "felt": prefs.felt,
        "backs": sorted(prefs.backs),
        "felts": sorted(prefs.felts),
    }
