"""The ledger's memos and the header's news in the reader's language.

A memo is written once, in English, and kept as it was (entries are never changed); so is the
news a payment announces to every open header, whatever language each speaks. Each is read
back here, when a page or a socket shows it: a known sentence is said again in the active
language, its parts (a game, an item, a badge, a duration) translated too; anything else (a
staff correction's reason, an event's name) is shown as written. In English nothing changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import get_language, gettext, pgettext

from gameplay.engine import registry
from gameplay.text import in_language

from . import badges, referrals, services, shop


def _english_names() -> dict[str, str]:
    names = {shop.english(item.name): item.name for item in shop.CATALOGUE}
    names.update({shop.english(badge.name): badge.name for badge in badges.CATALOGUE})
    return names


def _thing(text: str) -> str:
    """An item, a badge or a game named in English, in the active language."""
    language = get_language() or "en"
    found = _english_names().get(text)
    if found is not None:
        return str(in_language(found, language))
    for kind in registry.kinds():
        engine = registry.get(kind)
        if shop.english(engine.title) == text:
            return str(in_language(engine.title, language))
    return gettext(text) if text else text


def _duration(text: str) -> str:
    """ "3 min 5 s" (services._minutes) in the active language."""
    found = re.fullmatch(r"(?:(\d+) min )?(\d+) s", text)
    if not found:
        return text
    minutes, seconds = found.groups()
    if minutes:
        return gettext("%(minutes)s min %(seconds)s s") % {"minutes": minutes, "seconds": seconds}
    return gettext("%(seconds)s s") % {"seconds": seconds}


def _ordinal(text: str) -> str:
    """ "2nd" (services.ordinal) in the active language."""
    n = int(re.match(r"\d+", text).group())
    return pgettext("ordinal", "1st") if n == 1 else pgettext("ordinal", "%(n)sth") % {"n": n}


def _day(text: str) -> str:
    """ "5 December" in the active language."""
    day, month = text.split(" ", 1)
    return f"{day} {gettext(month)}"


Rule = tuple[re.Pattern, Callable[[re.Match], str]]


def _rules() -> list[Rule]:
    title = r"(?P<title>.+?)"
    return [
        (
            re.compile(r"(?P<memo>.+) \(today's cap from play reached\)"),
            lambda m: (
                gettext("%(memo)s (today's cap from play reached)") % {"memo": memo(m["memo"])}
            ),
        ),
        (
            re.compile(rf"(?P<memo>.+) \({re.escape(services.SHARED_FIRST_WIN)}\)"),
            lambda m: (
                gettext(
                    "%(memo)s (the first win of the day here went to an account seen with yours)"
                )
                % {"memo": memo(m["memo"])}
            ),
        ),
        (
            re.compile(
                rf"(?P<how>Won|Played) {title}(?: at a table of (?P<n>\d+))?: "
                r"(?P<time>[\d a-z]+) of play",
                re.I,
            ),  # fmt: skip
            _played,
        ),
        (
            re.compile(r"Bought: (?P<thing>.+)"),
            lambda m: gettext("Bought: %(item)s") % {"item": _thing(m["thing"])},
        ),
        (
            re.compile(r"Badge: (?P<thing>.+)"),
            lambda m: gettext("Badge: %(badge)s") % {"badge": _thing(m["thing"])},
        ),
        (
            re.compile(r"Watched a spot: (?P<thing>.+)"),
            lambda m: gettext("Watched a spot: %(spot)s") % {"spot": _thing(m["thing"])},
        ),
        (
            re.compile(r"Day (?P<day>\d+) of your daily streak"),
            lambda m: gettext("Day %(day)s of your daily streak") % {"day": m["day"]},
        ),
        (
            re.compile(r"day (?P<day>\d+) of your streak"),
            lambda m: gettext("day %(day)s of your streak") % {"day": m["day"]},
        ),
        (
            re.compile(rf"Day (?P<day>\d+) of your streak: {re.escape(services.SHARED_STREAK)}"),
            lambda m: (
                gettext(
                    "Day %(day)s of your streak: its Kudos went to an account seen on your "
                    "address or device today"
                )
                % {"day": m["day"]}
            ),
        ),
        (
            re.compile(rf"First win of the day at {title}"),
            lambda m: gettext("First win of the day at %(game)s") % {"game": _thing(m["title"])},
        ),
        (
            re.compile(
                rf"(?P<how>Won|Finished) the {title} Daily Challenge of "
                r"(?P<day>\d+ [A-Za-z]+) in (?P<time>[\d:]+)"
            ),  # fmt: skip
            lambda m: (
                (
                    gettext("Won the %(game)s Daily Challenge of %(day)s in %(time)s")
                    if m["how"] == "Won"
                    else gettext("Finished the %(game)s Daily Challenge of %(day)s in %(time)s")
                )
                % {"game": _thing(m["title"]), "day": _day(m["day"]), "time": m["time"]}
            ),
        ),
        (
            re.compile(
                rf"(?P<place>\d+[a-z]+) fastest in the {title} Daily Challenge "
                r"of (?P<day>\d+ [A-Za-z]+)"
            ),  # fmt: skip
            lambda m: (
                gettext("%(place)s fastest in the %(game)s Daily Challenge of %(day)s")
                % {"place": _ordinal(m["place"]), "game": _thing(m["title"]), "day": _day(m["day"])}
            ),
        ),
        (
            re.compile(r"(?P<place>\d+[a-z]+) place in week (?P<week>\S+)"),
            lambda m: (
                gettext("%(place)s place in week %(week)s")
                % {"place": _ordinal(m["place"]), "week": m["week"]}
            ),
        ),
        (
            re.compile(r"(?P<place>\d+[a-z]+) place in the (?P<arena>.+) arena"),
            lambda m: (
                gettext("%(place)s place in the %(arena)s arena")
                % {"place": _ordinal(m["place"]), "arena": gettext(m["arena"])}
            ),
        ),
        (
            re.compile(re.escape(referrals.WELCOME_MEMO)),
            lambda m: gettext("Welcome: you joined through a friend's invite"),
        ),
        (
            re.compile(re.escape(referrals.INVITED_MEMO)),
            lambda m: gettext("Referral: a friend you invited played three days"),
        ),
    ]


def _played(m: re.Match) -> str:
    values = {"game": _thing(m["title"]), "time": _duration(m["time"])}
    lower = m["how"].islower()
    if m["n"]:
        values["n"] = m["n"]
        said = (
            gettext("Won %(game)s at a table of %(n)s: %(time)s of play")
            if m["how"].lower() == "won"
            else gettext("Played %(game)s at a table of %(n)s: %(time)s of play")
        )
    else:
        said = (
            gettext("Won %(game)s: %(time)s of play")
            if m["how"].lower() == "won"
            else gettext("Played %(game)s: %(time)s of play")
        )
    said %= values
    return said[0].lower() + said[1:] if lower else said


def memo(text: str) -> str:
    """A ledger entry's memo, as the reader reads it."""
    if not text or (get_language() or "en").startswith("en"):
        return text
    for pattern, say in _rules():
        found = pattern.fullmatch(text)
        if found:
            return say(found)
    return text


def news(text: str | None) -> str | None:
    """The header's news ("+12 Kudos: won Klondike: 3 min 5 s of play"), as the reader reads it."""
    if not text or (get_language() or "en").startswith("en"):
        return text
    found = re.fullmatch(
        r"(?P<amount>[+−-]\d+) Kudos(?:, \+(?P<xp>\d+) experience)?: (?P<memo>.+)", text
    )
    if not found:
        return memo(text)
    said = memo(found["memo"])
    if found["xp"] is not None:
        return gettext("%(amount)s Kudos, +%(xp)s experience: %(memo)s") % {
            "amount": found["amount"],
            "xp": found["xp"],
            "memo": said,
        }
    return gettext("%(amount)s Kudos: %(memo)s") % {
        "amount": found["amount"],
        "memo": said,
    }
