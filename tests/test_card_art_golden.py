"""Every drawing of ``cards.art`` against the SHA-256 of its SVG as last approved.

The card faces (the whole deck with Cardice's Bells and both jokers, in two and four colours),
every back, every badge of the Kudos catalogue (earned and not yet), every creature in every
badge ring (so every creature is also drawn as a shadow) and the A.M.I.C. logo. A change to
the art code that changes no drawing leaves every hash as it is.

When a drawing is meant to change, look at it, then write the new hashes:
``.venv/bin/python tests/test_card_art_golden.py``
"""

import hashlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

GOLDEN = Path(__file__).with_name("card_art_golden.json")


def drawings() -> Iterator[tuple[str, str]]:
    """(name, SVG) for everything the art draws."""
    # Imported here so that, run as a script, Django is set up first (the badges are models').
    from cards import art, roster
    from gameplay.engine import cards as c
    from kudos import badges

    for card in c.deck(suits=c.SUITS + c.BELLS, jokers=2):
        yield f"card/{card}", art.card_svg(card)
        yield f"card/{card}/four", art.card_svg(card, four_colour=True)
    for back in art.BACKS:
        yield f"back/{back}", art.card_svg(c.HIDDEN, back=back)
    for badge in badges.CATALOGUE:
        for earned in (True, False):
            svg = art.badge_svg(badge.card, badge.ring, badge.mark, badge.name, earned=earned)
            yield f"badge/{badge.slug}/{'earned' if earned else 'locked'}", svg
    for card in [*roster.CREATURES, *roster.BELLS_CREATURES]:
        for ring in art.BADGE_RINGS:
            for earned in (True, False):
                svg = art.badge_svg(card, ring, "Mark", "A badge", earned=earned)
                yield f"creature/{card}/{ring}/{'earned' if earned else 'locked'}", svg
    for size in (150, 64):
        for mono in (False, True):
            for text in (True, False):
                svg = art.amic_logo("logo", size, mono=mono, text=text)
                yield (
                    f"logo/{size}/{'mono' if mono else 'colour'}/{'text' if text else 'bare'}",
                    svg,
                )


def hashes() -> dict[str, str]:
    return {name: hashlib.sha256(svg.encode()).hexdigest() for name, svg in drawings()}


def test_every_drawing_is_as_approved():
    approved = json.loads(GOLDEN.read_text())
    now = hashes()
    changed = sorted(name for name in approved.keys() & now.keys() if approved[name] != now[name])
    assert not changed, f"{len(changed)} drawings changed, e.g. {changed[:10]}"
    assert sorted(now.keys() - approved.keys()) == [], "drawings without an approved hash"
    assert sorted(approved.keys() - now.keys()) == [], "approved drawings no longer drawn"


if __name__ == "__main__":
    import django

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")
    django.setup()
    GOLDEN.write_text(json.dumps(hashes(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")
