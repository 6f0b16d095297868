"""Each game's rules.md: the written rules inside the repository, in one format, rendered at
/rules/<kind>/ with the examples drawn as cards, and the only rules text code comments cite."""

import re
from pathlib import Path

import pytest
from django.utils.html import escape

from cards.rules import RulesError, parse, rules, source
from gameplay.engine import registry
from gameplay.engine.cards import HIDDEN

from .test_cards import assert_images_have_alt

ROOT = Path(__file__).resolve().parents[1]
KINDS = registry.kinds()
SECTION = re.compile(r"^### (\d+)\. \S", re.MULTILINE)


@pytest.mark.parametrize("kind", KINDS)
def test_rules_file_follows_the_format(kind):
    text = source(kind).read_text(encoding="utf-8")
    found = rules(kind)
    assert found.title == registry.get(kind).title
    assert found.summary and found.how_to_play and found.exact
    assert found.examples, f"{kind}: the player's part draws no example"
    exact = text.split("\n## Exact rules\n", 1)[1]
    numbers = [int(n) for n in SECTION.findall(exact)]
    assert numbers[:8] == list(range(1, 9)), f"{kind}: Exact rules must number §1-§8: {numbers}"
    assert numbers == list(range(1, len(numbers) + 1)), f"{kind}: sections {numbers}"
    # Decisions are stated as rules; nothing points outside the repository.
    for word in ("Decision:", "seed 0", "shared/", "DESIGN.md", "00-common"):
        assert word not in text, f"{kind}: rules.md mentions {word!r}"


def test_a_file_out_of_format_is_refused():
    with pytest.raises(RulesError, match="How to play"):
        parse("x", "# X\n\nA game.\n\n## Exact rules\n\n### 1. Deck\n")
    with pytest.raises(RulesError, match="summary"):
        parse("x", "# X\n\n## How to play\n\n## Exact rules\n")
    with pytest.raises(RulesError, match="not a card in an example: ZZ"):
        parse("x", "# X\n\nA game.\n\n## How to play\ncards: AS ZZ — no\n\n## Exact rules\n")


def test_examples_become_slots_even_right_after_a_list():
    found = parse(
        "x",
        "# X\n\nA game.\n\n## How to play\n\n### Goal\n- Win.\n"
        "cards: KD ?? 2C | KS — Two Kings.\n\n## Exact rules\n\n### 1. Deck\n- 52.\n",
    )
    assert found.examples[0].cards == ("KD", HIDDEN, "2C", "|", "KS")
    assert found.examples[0].caption == "Two Kings."
    assert '<figure class="example" data-example="0"></figure>' in found.how_to_play
    assert "<h2" in found.how_to_play and "<li>Win.</li>" in found.how_to_play


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_rules_page(client, kind):
    response = client.get(f"/rules/{kind}/")
    assert response.status_code == 200
    html = response.content.decode()
    found = rules(kind)
    assert f"<h1>{found.title}</h1>" in html
    drawn = sum(1 for e in found.examples for cd in e.cards if cd != "|")
    # every example card, one per other game in the nav: no image is missing or unnamed
    assert assert_images_have_alt(html) == drawn
    assert html.count('<figure class="example">') == len(found.examples)
    assert 'data-example="' not in html, "an example slot was left empty"
    assert '<details class="rules-exact"' in html and "1. Players" in html
    assert f'action="/play/{kind}/"' in html


@pytest.mark.django_db
def test_examples_follow_the_card_style(client):
    client.post("/cards/prefs/", {"four_colour": "on", "back": "classic"})
    html = client.get("/rules/poker/").content.decode()
    assert "/cards/AD.svg?four=1" in html


@pytest.mark.django_db
def test_rules_index_lists_every_registered_game(client):
    html = client.get("/rules/").content.decode()
    assert f"{len(KINDS)} games, one creature deck" in html
    for kind in KINDS:
        assert f'href="/rules/{kind}/"' in html and escape(rules(kind).summary) in html
    assert client.get("/rules/chess/").status_code == 404


FOREIGN = re.compile(r"rules/[\w-]+\.md|DESIGN\.md|STYLE\.md|shared/rules|/work/")
CITATION = re.compile(r"rules\.md §(\d+)")


TEXT = ("*.py", "*.html", "*.js", "*.css", "*.md", "*.toml", "*.sh", "Makefile")


def text_files():
    skip = {".venv", "node_modules", ".git", "screenshots"}
    found = {p for pattern in TEXT for p in ROOT.rglob(pattern)}
    return sorted(p for p in found if not skip & set(p.relative_to(ROOT).parts))


def test_comments_cite_only_the_rules_inside_the_repository():
    foreign = []
    for path in text_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FOREIGN.search(line) and path.name != Path(__file__).name:
                foreign.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not foreign, "comments point outside the repository:\n" + "\n".join(foreign)


@pytest.mark.parametrize("kind", KINDS)
def test_each_engine_cites_sections_its_rules_file_has(kind):
    sections = {int(n) for n in SECTION.findall(source(kind).read_text(encoding="utf-8"))}
    package = source(kind).parent
    cited = {
        (path.name, int(n))
        for path in package.glob("*.py")
        for n in CITATION.findall(path.read_text(encoding="utf-8"))
    }
    missing = sorted((name, n) for name, n in cited if n not in sections)
    assert not missing, f"{kind}: cites sections its rules.md lacks: {missing}"
