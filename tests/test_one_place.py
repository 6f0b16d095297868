"""One place per game: the registry and the engines' own metadata are the only lists of games.

The home page, the rules pages, the room's game picker, the options forms, the profiles, the
badges and the Daily Challenge derive from ``registry.kinds()`` and each engine's metadata; no
other app names a game or imports a game's package, so adding a game is its package plus one
registry line. And the apps stand in layers, each importing only the ones below it."""

import ast
import json
import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string

from gameplay.engine import registry
from gameplay.engine.core import Engine, Option
from lobby import tables
from lobby.models import Room

ROOT = Path(__file__).resolve().parents[1]
KINDS = registry.kinds()
# The apps that must read the engines instead of naming games (the engine packages, a game's
# own table template, script and stylesheet are the game's place).
APPS = ["accounts", "arenas", "cards", "cubiccards", "gameplay", "kudos", "lobby", "templates"]


def app_files(suffix: str) -> list[Path]:
    found = []
    for app in APPS:
        for path in (ROOT / app).rglob(f"*{suffix}"):
            parts = path.relative_to(ROOT).parts
            if parts[:2] == ("gameplay", "engine") or "tables" in parts or "migrations" in parts:
                continue
            found.append(path)
    return found


def test_no_app_names_a_game():
    named = []
    kinds = "|".join(KINDS)
    quoted = re.compile(rf"""["'/](?:{kinds})["'/]""")
    for path in app_files(".py") + app_files(".html"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if quoted.search(line):
                named.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not named, "games named outside their package:\n" + "\n".join(named)


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_no_app_imports_a_game_package():
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in app_files(".py")
        for name in _imports(path)
        if name.startswith("gameplay.engine.games")
    ]
    assert not found, found


def test_each_game_brings_its_badges_and_daily_challenge():
    from kudos import badges, challenges

    for kind in KINDS:
        engine = registry.get(kind)
        for milestone in engine.milestones:
            badge = badges.get(milestone.slug)
            assert badge.kind == kind and badge.goal == milestone.goal
        assert badges.get(f"first-win-{kind}").card == engine.first_win_card
    assert {d.kind for d in challenges.DAILY} == {k for k in KINDS if registry.get(k).daily}
    assert challenges.DAILY, "no game offers a Daily Challenge"


# The apps in layers, the platform at the bottom: an app imports only apps of lower layers
# (also inside functions), so there is no import circle and no import climbing back up.
LAYERS = [
    ["infra"],
    ["gameplay"],
    ["accounts", "cards"],
    ["kudos"],
    ["lobby"],
    ["arenas", "api", "social"],
    ["cubiccards"],
]


def imported_apps(app: str) -> set[tuple[str, str]]:
    """(file, app) for each other app that ``app``'s code imports, migrations aside."""
    apps = {a for layer in LAYERS for a in layer}
    found = set()
    for path in (ROOT / app).rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            found |= {(path.name, n.split(".")[0]) for n in names if n.split(".")[0] in apps}
    return {(f, a) for f, a in found if a != app}


def test_the_apps_import_only_the_layers_below_them():
    floor = {app: i for i, layer in enumerate(LAYERS) for app in layer}
    assert sorted(floor) == sorted(
        p.name for p in ROOT.iterdir() if (p / "apps.py").exists() or p.name == "infra"
    ), "every app has its place in LAYERS"
    upward = [
        f"{app}/{file} imports {other}"
        for app in floor
        for file, other in sorted(imported_apps(app))
        if floor[other] >= floor[app]
    ]
    assert not upward, upward
    for path in (ROOT / "templates" / "accounts").glob("*.html"):
        assert "{% load tables" not in path.read_text(encoding="utf-8"), path.name


@pytest.mark.django_db
def test_profile_titles_come_from_the_engines(client, django_user_model):
    from accounts.models import GameStat

    ann = django_user_model.objects.create_user("ann", password="x-Long-pass-77")
    for kind in [*KINDS, "retired"]:
        GameStat.objects.create(user=ann, kind=kind, played=1)
    html = client.get("/u/ann/").content.decode()
    for kind in KINDS:
        assert f'<th scope="row">{registry.get(kind).title}</th>' in html
    assert '<th scope="row">retired</th>' in html  # a game no longer registered


# ---- the options forms ----------------------------------------------------------------------


class Custom(Engine):
    """Not registered: a game whose second option only shows in the custom mode."""

    kind = "custom-options"
    title = "Custom"
    options = (
        Option(
            "mode",
            ("standard", "custom"),
            "Mode",
            "How the game is set up.",
            ("Standard", "Custom"),
        ),
        Option("target", (100, 250), "Target", "Points to win.", shown_when={"mode": "custom"}),
        Option("fast", (False, True), "Fast"),
    )


def test_option_fields_follow_the_engine():
    fields = tables.option_fields(Custom())
    mode, target, fast = fields
    assert mode["name"] == "rule_mode" and mode["label"] == "Mode"
    assert mode["help"] == "How the game is set up." and mode["shown"]
    assert [(c["value"], c["label"], c["selected"]) for c in mode["choices"]] == [
        ('"standard"', "Standard", True),
        ('"custom"', "Custom", False),
    ]
    assert not target["shown"]
    assert json.loads(target["shown_when"]) == {"rule_mode": '"custom"'}
    assert [c["label"] for c in fast["choices"]] == ["Off", "On"]
    html = render_to_string("lobby/_options.html", {"fields": fields})
    assert re.search(
        r'data-shown-when="[^"]+" hidden>\s*Target\s*<select name="rule_target" disabled>', html
    )
    assert '<option value="&quot;custom&quot;">Custom</option>' in html
    assert '<small class="help">Points to win.</small>' in html


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_play_page_offers_the_engine_options(client, kind):
    engine = registry.get(kind)
    html = client.get(f"/play/{kind}/").content.decode()
    assert f"<h1>{engine.title}</h1>" in html and "js/options.js" in html
    for option in engine.options:
        assert f'name="rule_{option.name}"' in html and option.label in html
        for value in option.values:
            assert f">{option.value_label(value)}</option>" in html
    assert ('name="seats"' in html) == (not engine.solo)


@pytest.mark.django_db
def test_play_page_options_start_the_game_they_name(client):
    client.post("/play/klondike/", {"rule_draw": "3", "rule_winnable": "false"})
    room = Room.objects.get(private=True)
    assert room.game.kind == "klondike" and room.game.rules == {"draw": 3, "winnable": False}


@pytest.mark.django_db
def test_room_picker_lists_the_table_games_with_their_options(client):
    code = client.post("/rooms/").url.rstrip("/").split("/")[-1]
    html = client.get(f"/rooms/{code}/").content.decode()
    games = [registry.get(k) for k in KINDS if not registry.get(k).solo]
    picked = re.findall(r'name="game" value="([\w-]+)" checked', html)
    assert picked == [games[0].kind]
    for engine in games:
        assert f'value="{engine.kind}"' in html
        assert f"{engine.title} <small>{engine.players_text()}</small>" in html
        if engine.options:
            disabled = "" if engine.kind == picked[0] else " hidden disabled"
            assert f'data-game="{engine.kind}"{disabled}>' in html
    for engine in (registry.get(k) for k in KINDS if registry.get(k).solo):
        assert f'name="game" value="{engine.kind}"' not in html
