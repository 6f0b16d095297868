"""The Kudos shop: what Kudos buy, and wearing what a player owns.

Everything is cosmetic or a streak freeze: card backs and table felts (the player's own view
of every table), a name colour (everyone sees it beside the name), streak freezes. Buying is
``services.spend`` with the grant in the same transaction, so a short balance or a refused
grant changes nothing. Backs and felts are bought once (the key ``shop:<item>:<user>``);
each freeze is one order (``shop:freeze:<user>:<order>``, the order number coming from the
form, so a double click buys one).

What a signed-in player wears is kept in ``Look``; card backs and felts reach the pages and
the table socket through the session's card style (``cards.prefs``), which ``dress`` fills
from the database when the player signs in, buys or wears something.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from django.db import transaction
from django.utils import translation
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cards import art
from cards import prefs as card_prefs

from . import clock, header, keys, services
from .models import Look, Owned

BACK, FELT, COLOUR, FREEZE = "back", "felt", "colour", "freeze"
SECTIONS = {
    BACK: _("Card backs"),
    FELT: _("Table felts"),
    COLOUR: _("Name colours"),
    FREEZE: _("Streak freezes"),
}
# A name colour's CSS class is name-<colour> (static/css/site.css).
NAME_COLOURS = {
    "gold": _("Gold"),
    "coral": _("Coral"),
    "sky": _("Sky"),
    "mint": _("Mint"),
    "violet": _("Violet"),
}
# "Your name in coral": the colour as the sentence says it (lower case in English).
_COLOURS_IN = {
    "gold": _("gold"),
    "coral": _("coral"),
    "sky": _("sky"),
    "mint": _("mint"),
    "violet": _("violet"),
}
ORDER = re.compile(r"[0-9a-f]{8,32}")


@dataclass(frozen=True)
class Item:
    slug: str  # "back-nebula", "felt-midnight", "colour-gold", "freeze"
    section: str
    value: str  # the back's, felt's or colour's own name; "" for a freeze
    name: str  # lazily translated, as is about
    price: int
    about: str


def _back(value: str, price: int, about: str) -> Item:
    name = format_lazy(_("{back} card back"), back=art.BACK_NAMES[value])
    return Item(f"back-{value}", BACK, value, name, price, about)


def _felt(value: str, price: int, about: str) -> Item:
    name = format_lazy(_("{felt} felt"), felt=card_prefs.FELTS[value])
    return Item(f"felt-{value}", FELT, value, name, price, about)


def _colour(value: str, price: int) -> Item:
    about = format_lazy(
        _("Your name in {colour}, beside you at every table."), colour=_COLOURS_IN[value]
    )
    name = format_lazy(_("{colour} name"), colour=NAME_COLOURS[value])
    return Item(f"colour-{value}", COLOUR, value, name, price, about)


# Priced from bench/economy.py (docs/economy.md): a player of 20 minutes a day buys a name
# colour on their first day; the gold card back takes a player of an hour a day about a month.
CATALOGUE: tuple[Item, ...] = (
    _back("felt", 250, _("Green cloth and a stitched edge, like the table.")),
    _back("nebula", 1200, _("Stars and a violet cloud.")),
    _back("critters", 3000, _("The deck's creatures peeking out.")),
    _back("gold", 6000, _("Gold leaf on deep red.")),
    _felt("midnight", 600, _("A deep blue cloth for late games.")),
    _felt("claret", 600, _("A dark red cloth.")),
    _felt("slate", 600, _("A cool grey cloth.")),
    _felt("walnut", 2000, _("Polished wood, no cloth at all.")),
    _colour("coral", 80),
    _colour("sky", 80),
    _colour("mint", 80),
    _colour("violet", 80),
    _colour("gold", 4000),
    Item(
        "freeze",
        FREEZE,
        "",
        _("Streak freeze"),
        150,
        _(
            "Covers one missed day of your daily streak, used by itself after the week's grace "
            "day. You can hold 2."
        ),
    ),
)
BY_SLUG = {item.slug: item for item in CATALOGUE}


def english(text) -> str:
    """A (lazily translated) name as the ledger keeps it: in English, whoever bought it."""
    with translation.override("en"):
        return str(text)


def get(slug: str) -> Item | None:
    return BY_SLUG.get(slug)


# ---- buying ----------------------------------------------------------------------------------


def buy(*, user_id: int, slug: str, order: str = "") -> Item:
    """Buy one item: the debit and what it grants in one transaction. A card back, felt or
    name colour is worn at once. Raises ``services.Refused`` (``NotEnoughKudos`` when the
    balance is short) with a sentence, changing nothing."""
    item = get(str(slug))
    if item is None:
        raise services.Refused(gettext("There is no such item in the shop."))
    if item.section == FREEZE:
        if not ORDER.fullmatch(str(order)):
            raise services.Refused(
                gettext("That order is not valid: reload the shop and try again.")
            )
        key = keys.freeze(user_id, order)

        def grant():
            services.give_freeze(user_id=user_id)

    else:
        if Owned.objects.filter(user_id=user_id, item=item.slug).exists():
            raise services.Refused(gettext("You own the %(item)s already.") % {"item": item.name})
        key = keys.shop(item.slug, user_id)

        def grant():
            Owned.objects.create(user_id=user_id, item=item.slug, bought=clock.now())
            _wear(user_id, item.section, item.value)

    _, created = services.spend(
        user_id=user_id,
        amount=item.price,
        key=key,
        memo=f"Bought: {english(item.name)}",
        grant=grant,
    )
    if not created:  # the same order again (a double click), or a back bought in parallel
        if item.section == FREEZE:
            raise services.Refused(gettext("That order went through already: one streak freeze."))
        raise services.Refused(gettext("You own the %(item)s already.") % {"item": item.name})
    return item


# ---- wearing -------------------------------------------------------------------------------------


def wear(*, user_id: int, section: str, value: str) -> None:
    """Wear an owned back, felt or name colour; ``value`` "" goes back to the free one."""
    if section not in (BACK, FELT, COLOUR):
        raise services.Refused(gettext("That is not something you can wear."))
    if value:
        item = get(f"{section}-{value}")
        if item is None:
            raise services.Refused(gettext("There is no such item in the shop."))
        if not Owned.objects.filter(user_id=user_id, item=item.slug).exists():
            raise services.Refused(
                gettext("The %(item)s is not yours yet: buy it in the shop first.")
                % {"item": item.name}
            )
    _wear(user_id, section, value)


def _wear(user_id: int, section: str, value: str) -> None:
    Look.objects.update_or_create(user_id=user_id, defaults={section: value})
    header.changed(user_id)  # the name colour


def remember(user_id: int, style: card_prefs.CardPrefs) -> None:
    """The player chose a card back or felt elsewhere (the card style form): keep it."""
    with transaction.atomic():
        look, _ = Look.objects.select_for_update().get_or_create(user_id=user_id)
        look.back = "" if style.back == art.DEFAULT_BACK else style.back
        look.felt = "" if style.felt == card_prefs.DEFAULT_FELT else style.felt
        look.save(update_fields=["back", "felt"])


def dress(session, user_id: int) -> None:
    """Put what the player owns and wears into the session's card style, which every page and
    the table socket read."""
    owned = owned_items(user_id)
    look = Look.objects.filter(user_id=user_id).first() or Look(user_id=user_id)
    style = card_prefs.read(session)
    style = replace(
        style,
        backs=frozenset(i.value for i in owned if i.section == BACK),
        felts=frozenset(i.value for i in owned if i.section == FELT),
    )
    style = replace(
        style,
        back=look.back if look.back and style.may_wear_back(look.back) else art.DEFAULT_BACK,
        felt=look.felt if look.felt and style.may_wear_felt(look.felt) else card_prefs.DEFAULT_FELT,
    )
    card_prefs.save(session, style)


# ---- reading ---------------------------------------------------------------------------------------


def owned_items(user_id: int) -> list[Item]:
    slugs = Owned.objects.filter(user_id=user_id).values_list("item", flat=True)
    return [BY_SLUG[s] for s in slugs if s in BY_SLUG]


def wardrobe(user_id: int) -> dict:
    """What the player owns and wears, by section, for the Kudos page and the shop."""
    look = Look.objects.filter(user_id=user_id).first() or Look(user_id=user_id)
    owned = {item.slug for item in owned_items(user_id)}
    sections = []
    for section in (BACK, FELT, COLOUR):
        worn = getattr(look, section)
        items = [i for i in CATALOGUE if i.section == section and i.slug in owned]
        sections.append(
            {
                "section": section,
                "title": SECTIONS[section],
                "free": _free_name(section),
                "worn": worn,
                "items": items,
            }
        )
    return {"owned": owned, "look": look, "sections": sections}


def _free_name(section: str) -> str:
    if section == BACK:
        return gettext("{back} card back").format(back=art.BACK_NAMES[art.DEFAULT_BACK])
    if section == FELT:
        return gettext("{felt} felt").format(felt=card_prefs.FELTS[card_prefs.DEFAULT_FELT])
    return gettext("Plain name")


def catalogue() -> list[dict]:
    """The shop's shelves, in order."""
    return [
        {
            "section": section,
            "title": title,
            "items": [i for i in CATALOGUE if i.section == section],
        }
        for section, title in SECTIONS.items()
    ]
