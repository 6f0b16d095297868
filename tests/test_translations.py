"""Every language but English complete: the catalogues hold every string the code marks, each
translated (none new, none fuzzy), and the compiled .mo files are those of the .po files.

The check runs scripts/messages.sh on a copy of the project, so a string marked in the code but
missing from a catalogue (or one translated only in the .po, never compiled) fails here."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
LEFT_OUT = shutil.ignore_patterns(
    ".git", ".venv", "node_modules", "staticfiles", "__pycache__", "*.sqlite3*", "test-results",
    "screenshots", ".pytest_cache", ".ruff_cache", "*.egg-info", "backups", "out",
)  # fmt: skip
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def catalogues(root: Path) -> dict[str, Path]:
    """Every .po file under root, by its path relative to root."""
    found = root.glob("**/locale/*/LC_MESSAGES/*.po")
    return {str(p.relative_to(root)): p for p in found if ".venv" not in p.parts}


def problems(po: polib.POFile) -> list[str]:
    said = []
    if po.metadata_is_fuzzy:
        said.append("its header is fuzzy")
    said += [f"untranslated: {e.msgid!r}" for e in po.untranslated_entries()]
    said += [f"fuzzy: {e.msgid!r}" for e in po.fuzzy_entries()]
    return said


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> Path:
    """A copy of the project with its catalogues brought up to date with its code."""
    copy = tmp_path_factory.mktemp("messages") / "project"
    shutil.copytree(ROOT, copy, ignore=LEFT_OUT)
    env = {**os.environ, "PY": sys.executable}
    subprocess.run(["bash", "scripts/messages.sh"], cwd=copy, env=env, check=True, timeout=300)
    return copy


def test_every_language_has_the_site_catalogue():
    found = catalogues(ROOT)
    for language in LANGUAGES:
        assert f"locale/{language}/LC_MESSAGES/django.po" in found, language


def test_every_marked_string_is_in_a_catalogue_and_translated(regenerated):
    now, committed = catalogues(regenerated), catalogues(ROOT)
    assert set(now) == set(committed), "scripts/messages.sh makes or drops a catalogue"
    for name, path in now.items():
        po, before = polib.pofile(str(path)), polib.pofile(str(committed[name]))
        assert problems(po) == [], f"{name}: run scripts/messages.sh and translate"
        new = {e.msgid for e in po} - {e.msgid for e in before}
        assert not new, f"{name}: strings not yet in the catalogue: {sorted(new)[:5]}"


def test_the_compiled_catalogues_are_the_translations(regenerated):
    for name, path in catalogues(ROOT).items():
        mo = path.with_suffix(".mo")
        assert mo.exists(), f"{name} is not compiled: run scripts/messages.sh"
        written = {(e.msgctxt, e.msgid): e.msgstr or e.msgstr_plural for e in polib.mofile(str(mo))}
        wanted = {
            (e.msgctxt, e.msgid): e.msgstr or e.msgstr_plural
            for e in polib.pofile(str(path)).translated_entries()
        }
        assert written == wanted, f"{name} and its .mo differ: run scripts/messages.sh"


def test_a_string_left_out_is_caught(tmp_path):
    """The check itself: an untranslated entry and a fuzzy one are both named."""
    po = polib.POFile()
    po.append(polib.POEntry(msgid="Deal", msgstr=""))
    po.append(polib.POEntry(msgid="Draw", msgstr="Piocher", flags=["fuzzy"]))
    po.append(polib.POEntry(msgid="Pass", msgstr="Passer"))
    assert problems(po) == ["untranslated: 'Deal'", "fuzzy: 'Draw'"]
