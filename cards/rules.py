"""The rules pages: each game's ``rules.md``, kept in its engine package, drawn for players.

A rules file is a title, a one-paragraph summary, "## How to play" for players and "## Exact
rules" (the numbered sections the code cites). A translation sits beside it as
``rules.<lang>.md`` (``crazy8.fr.md``) with the same sections, numbers and examples, under that
language's headings (``HEADINGS``); a language without one reads the English file. A line ``cards: <cards> — <caption>`` is an
example drawn with the card images: card strings separated by spaces, "|" for a gap and "??"
for a face-down card.
"""

from __future__ import annotations

import functools
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import markdown
from django.utils import translation
from django.utils.html import escape

from gameplay.engine import cards as c
from gameplay.engine import registry

GAP = "|"
HOW_TO_PLAY = "## How to play"
EXACT_RULES = "## Exact rules"
SOURCE_LANGUAGE = "en"
# The two headings a rules file is split on, in each language a file is written in.
HEADINGS = {
    "en": (HOW_TO_PLAY, EXACT_RULES),
    "fr": ("## Comment jouer", "## Règles exactes"),
}
CARDS_LINE = re.compile(r"^cards:\s*(?P<cards>.+?)\s+—\s+(?P<caption>.+?)\s*$")
# Where an example goes in the rendered HTML; filled in per request (the player's card style).
SLOT = '<figure class="example" data-example="{}"></figure>'
SLOT_RE = re.compile(r'<figure class="example" data-example="(\d+)"></figure>')
EXTENSIONS = ["tables", "fenced_code", "toc", "sane_lists"]


class RulesError(ValueError):
    """A rules file that doesn't follow the format."""


@dataclass(frozen=True)
class Example:
    cards: tuple[str, ...]
    caption: str


@dataclass(frozen=True)
class Rules:
    kind: str
    title: str
    summary: str
    how_to_play: str  # HTML, with example slots
    exact: str  # HTML, with example slots
    examples: tuple[Example, ...]


def source(kind: str, language: str = SOURCE_LANGUAGE) -> Path:
    """The rules file beside the engine of ``kind`` (KeyError for an unknown kind), in
    ``language``: ``rules.fr.md`` beside ``rules.md``. It may not exist; see ``rules``."""
    engine = registry.get(kind)
    english = Path(sys.modules[type(engine).__module__].__file__).with_name(engine.rules_file)
    if language == SOURCE_LANGUAGE:
        return english
    return english.with_name(f"{english.stem}.{language}{english.suffix}")


def language_of(code: str | None) -> str:
    """The rules language for a Django language code: "fr-ca" reads French, "en-us" or an
    unknown language English."""
    base = (code or SOURCE_LANGUAGE).split("-")[0].lower()
    return base if base in HEADINGS else SOURCE_LANGUAGE


def parse_example(line: str) -> Example | None:
    found = CARDS_LINE.match(line.strip())
    if not found:
        return None
    cards = tuple(found["cards"].split())
    bad = [cd for cd in cards if not (c.is_card(cd) or cd in (c.HIDDEN, GAP))]
    if bad or not cards:
        raise RulesError(f"not a card in an example: {' '.join(bad) or '(none)'}")
    return Example(cards, found["caption"])


def _render(text: str, examples: list[Example]) -> str:
    """Markdown to HTML; each cards: line becomes its own block, a slot for its example."""
    lines = []
    for line in text.splitlines():
        example = parse_example(line)
        if example is None:
            lines.append(line)
            continue
        lines += ["", SLOT.format(len(examples)), ""]
        examples.append(example)
    return markdown.markdown("\n".join(lines), extensions=EXTENSIONS)


def parse(kind: str, text: str, language: str = SOURCE_LANGUAGE) -> Rules:
    """Split a rules file into its parts and render them (examples left as slots); the
    headings are ``language``'s."""
    how_to_play, exact_rules = HEADINGS[language]
    head, how_sep, rest = text.partition(f"\n{how_to_play}\n")
    how, exact_sep, exact = rest.partition(f"\n{exact_rules}\n")
    if not (how_sep and exact_sep):
        raise RulesError(f"{kind}: needs '{how_to_play}' then '{exact_rules}'")
    title_line, _, summary = head.strip().partition("\n")
    if not title_line.startswith("# ") or not summary.strip():
        raise RulesError(f"{kind}: starts with '# <Title>' and a summary paragraph")
    examples: list[Example] = []
    # The player's part is the page: its ### sections are the page's headings.
    how = re.sub(r"^###(?!#)", "##", how, flags=re.MULTILINE)
    return Rules(
        kind=kind,
        title=title_line[2:].strip(),
        summary=" ".join(summary.split()),
        how_to_play=_render(how, examples),
        exact=_render(exact, examples),
        examples=tuple(examples),
    )


def rules(kind: str, language: str | None = None) -> Rules:
    """The rules of a registered kind (KeyError for an unknown kind) in ``language``, by
    default the active one; English where the game has no file in that language."""
    if language is None:
        language = translation.get_language()
    return _rules(kind, language_of(language))


@functools.cache
def _rules(kind: str, language: str) -> Rules:
    path = source(kind, language)
    if not path.exists():
        return _rules(kind, SOURCE_LANGUAGE)
    return parse(kind, path.read_text(encoding="utf-8"), language)


def fill(html: str, examples: tuple[Example, ...], draw) -> str:
    """Put each example, drawn by ``draw(card) -> <img>``, into its slot."""

    def figure(found: re.Match) -> str:
        example = examples[int(found[1])]
        hand = "".join(
            '<span class="gap" aria-hidden="true"></span>' if cd == GAP else draw(cd)
            for cd in example.cards
        )
        return (
            f'<figure class="example"><div class="hand">{hand}</div>'
            f"<figcaption>{escape(example.caption)}</figcaption></figure>"
        )

    return SLOT_RE.sub(figure, html)
