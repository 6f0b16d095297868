"""The creature deck: roster, SVG art, the card image URLs and the deck page."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.template import Context, Template

from cards import art, roster
from gameplay.engine import cards as c

SVG_NS = "{http://www.w3.org/2000/svg}"
STANDARD = c.deck(jokers=2)  # 52 + JK1, JK2
BELLS = [r + "B" for r in c.RANKS]


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg"
    assert root.get("viewBox") == "0 0 250 350"
    return root


def title_of(root: ET.Element) -> str:
    title = root.find(SVG_NS + "title")
    assert title is not None and title.text
    return title.text


# ---- roster --------------------------------------------------------------------------------


def test_roster_has_48_creatures_12_per_suit():
    assert len(roster.CREATURES) == 48
    for suit in "SHDC":
        ranks = sorted(cr.rank for cr in roster.CREATURES.values() if cr.suit == suit)
        assert ranks == sorted(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
    for card, cr in roster.CREATURES.items():
        assert card == cr.rank + cr.suit
        assert cr.line and cr.name


def test_bells_have_their_own_12_creatures():
    assert sorted(roster.BELLS_CREATURES) == sorted(r + "B" for r in roster.CREATURE_RANKS)


def test_names_are_unique():
    names = [cr.name for cr in [*roster.CREATURES.values(), *roster.BELLS_CREATURES.values()]]
    names += [roster.shadow_name(s) for s in "SHDCB"]
    assert len(names) == len(set(names))


def test_looks_use_their_suits_palette_and_known_parts():
    for cr in [*roster.CREATURES.values(), *roster.BELLS_CREATURES.values()]:
        look, palette = cr.look, roster.PALETTES[cr.suit]
        assert look.colour in palette and look.accent in palette, cr.name
        assert look.body in roster.BODIES and look.top in roster.TOPS
        assert look.eyes in roster.EYES and look.mouth in roster.MOUTHS
        assert look.arms in roster.ARMS and look.feet in roster.FEET
        assert look.tail in roster.TAILS and look.pattern in roster.PATTERNS


def test_neighbours_look_different():
    for suit in "SHDCB":
        looks = [roster.creature(r + suit).look for r in roster.CREATURE_RANKS]
        assert len(set(looks)) == 12
        for a, b in zip(looks, looks[1:], strict=False):
            differences = sum(
                getattr(a, f) != getattr(b, f)
                for f in ("body", "top", "eyes", "mouth", "arms", "tail", "pattern", "colour")
            )
            assert differences >= 3


def test_aces_reference_their_king():
    for suit in "SHDCB":
        king = roster.king(suit)
        assert king.rank == "K" and king.suit == suit
        assert roster.figure_name("A" + suit) == "Shadow " + king.name
        assert king.name in roster.describe("A" + suit)


def test_descriptions():
    assert roster.describe("QH") == f"Queen of Hearts ({roster.CREATURES['QH'].name})"
    assert roster.describe("??") == "Face-down card"
    assert roster.describe("JK1") == "Joker (A.M.I.C. logo)"
    with pytest.raises(KeyError):
        roster.describe("1X")


# ---- art -----------------------------------------------------------------------------------


@pytest.mark.parametrize("card", STANDARD + BELLS)
def test_every_card_renders_to_valid_svg(card):
    for four in (False, True):
        root = parse(art.card_svg(card, four_colour=four))
        assert title_of(root) == roster.describe(card)


@pytest.mark.parametrize("back", art.BACKS)
def test_every_back_renders(back):
    root = parse(art.card_svg("??", back=back))
    assert title_of(root).startswith("Face-down card")


def test_art_is_deterministic_and_self_contained():
    for card in ["QH", "AS", "JK1", "7B", "??"]:
        svg = art.card_svg(card)
        art.card_svg.cache_clear()
        assert art.card_svg(card) == svg
        assert "<image" not in svg and 'href="http' not in svg and "@font-face" not in svg
        assert "url(http" not in svg


def test_ids_are_unique_within_a_card():
    for card in STANDARD + BELLS + ["??"]:
        ids = re.findall(r'\bid="([^"]+)"', art.card_svg(card))
        assert len(ids) == len(set(ids)), card


def test_every_part_the_roster_names_is_drawn():
    from cards.art.creature import body, face, limbs, patterns, tails, tops

    assert set(body.BODIES) == set(roster.BODIES)
    assert set(tops.TOPS) == set(roster.TOPS)
    assert set(face.EYES) == set(roster.EYES)
    assert set(face.MOUTHS) == set(roster.MOUTHS)
    assert set(limbs.ARMS) == set(roster.ARMS)
    assert set(limbs.FEET) == set(roster.FEET)
    assert set(tails.TAILS) == set(roster.TAILS)
    assert set(patterns.PATTERNS) == set(roster.PATTERNS)


def test_four_colour_changes_diamonds_and_clubs_only():
    assert art.card_svg("5D") != art.card_svg("5D", four_colour=True)
    assert art.card_svg("5C") != art.card_svg("5C", four_colour=True)
    assert art.card_svg("5H") == art.card_svg("5H", four_colour=True)
    assert art.card_svg("5S") == art.card_svg("5S", four_colour=True)


def test_aces_glow_violet():
    svg = art.card_svg("AH")
    assert "<filter" in svg and roster.SHADOW["glow"] in svg


def test_suit_symbols_are_paths_not_glyphs():
    for card in ["AS", "2H", "3D", "4C", "5B"]:
        svg = art.card_svg(card)
        for glyph in "♠♥♦♣🔔":
            assert glyph not in svg


def test_bad_input_is_refused():
    for bad in ["", "1S", "11H", "QX", "JK3", "qh"]:
        with pytest.raises(ValueError):
            art.card_svg(bad)
    with pytest.raises(ValueError):
        art.card_svg("??", back="plaid")


# ---- template tag --------------------------------------------------------------------------


def render(source: str, **context) -> str:
    return Template("{% load cards %}" + source).render(Context(context))


def test_card_tag():
    html = render('{% card "QH" %}')
    name = roster.CREATURES["QH"].name
    assert f'alt="Queen of Hearts ({name})"' in html
    assert 'class="card card-md"' in html and 'src="/cards/QH.svg?' in html
    assert 'width="100" height="140"' in html


def test_card_tag_face_down_and_options():
    html = render('{% card "??" back="nebula" size="sm" %}')
    assert 'alt="Face-down card"' in html and "/cards/back.svg?back=nebula" in html
    assert 'width="64"' in html
    assert "four=1" in render('{% card "5D" four=True %}')
    assert "four=1" in render('{% card "5D" %}', card_four_colour=True)
    assert "back=gold" in render('{% card "??" %}', card_back="gold")
    assert 'alt="Unknown card"' in render('{% card "ZZ" %}')


def test_suit_icon_tag():
    bells = render('{% suit_icon "B" css="big" %}')
    assert bells.startswith('<svg class="suit-icon big" viewBox="0 0 100 100" role="img"')
    assert 'aria-label="Bells"' in bells and art.SUIT_PATHS["B"] in bells
    ET.fromstring(bells)  # well-formed
    assert art.TWO_COLOUR["C"] in render('{% suit_icon "C" %}')
    assert art.FOUR_COLOUR["C"] in render('{% suit_icon "C" %}', card_four_colour=True)
    assert render('{% suit_icon "X" %}') == ""


# ---- views ---------------------------------------------------------------------------------

IMG = re.compile(r"<img\b[^>]*>")


def assert_images_have_alt(html: str) -> int:
    imgs = IMG.findall(html)
    for img in imgs:
        alt = re.search(r'\balt="([^"]*)"', img)
        assert alt and alt.group(1).strip(), img
    return len(imgs)


@pytest.mark.django_db
def test_card_svg_view(client):
    response = client.get("/cards/QH.svg")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert "max-age=31536000" in response["Cache-Control"]
    parse(response.content.decode())
    four = client.get("/cards/5D.svg?four=1").content.decode()
    assert four == art.card_svg("5D", four_colour=True)
    back = client.get("/cards/back.svg?back=gold")
    assert back.status_code == 200 and "Gold back" in back.content.decode()
    assert client.get("/cards/%3F%3F.svg").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/cards/ZZ.svg", "/cards/1S.svg", "/cards/qh.svg", "/cards/back.svg?back=plaid"]
)
def test_bad_card_svg_is_404(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.django_db
def test_deck_page(client):
    response = client.get("/cards/")
    assert response.status_code == 200
    html = response.content.decode()
    # The deck, then the card style form: each back and a preview of one card per suit.
    assert assert_images_have_alt(html) == 54 + 13 + len(art.BACKS) + 4
    for cr in [*roster.CREATURES.values(), *roster.BELLS_CREATURES.values()]:
        assert cr.name in html
    assert "Shadow " + roster.king("S").name in html
    four = client.get("/cards/?four=1").content.decode()
    assert "/cards/5D.svg?four=1" in four
