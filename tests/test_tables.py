"""Every registered game has a table, a rules page and a home tile, and its table renders for
each seat and for a spectator from a real game (started through the room, played through the
services, shown through the same room context the page and the socket use)."""

import re
from pathlib import Path

import pytest
from django.template.loader import get_template, select_template
from django.test import Client

from gameplay import services as gameplay
from gameplay import store
from gameplay.engine import registry
from lobby import services, tables
from lobby.models import Member, Room

pytestmark = pytest.mark.django_db
KINDS = registry.kinds()
ROOT = Path(__file__).resolve().parents[1]


def table_template(kind: str) -> str:
    """The game's own table, or the generic one that works for any game."""
    return select_template(tables.table_templates(kind)).origin.template_name


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_has_a_table_a_rules_page_and_a_home_tile(kind, client):
    name = table_template(kind)
    assert name in (f"tables/{kind}.html", "tables/generic.html")
    assert client.get(f"/rules/{kind}/").status_code == 200
    assert f'<li class="game-tile" data-kind="{kind}">' in client.get("/").content.decode()


def a_table(kind: str) -> Room:
    """A room whose host starts ``kind`` at its largest table and plays a few actions."""
    engine = registry.get(kind)
    host = "guest:host"
    room = services.create_room(player=host, name="Ann", private=engine.solo)
    for i in range(1, engine.max_players):
        services.join_room(code=room.code, player=f"guest:{i}", name=f"P{i}")
    size = engine.max_players
    game = services.start_game(room=room, player=host, kind=kind, seats=size, seed=f"table-{kind}")
    state = store.load_state(game)
    for _ in range(6):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        action = engine.bot_action(state, seat)
        state = gameplay.submit_action(
            game_id=game.pk, seat=seat, action=action, seq=state["applied"]
        ).state
    room.refresh_from_db()
    return room


BUTTON = re.compile(r"<button\b")
CARD_IMAGE = re.compile(r'src="/cards/([^".]+)\.svg')


@pytest.mark.parametrize("kind", KINDS)
def test_the_table_renders_for_every_seat_and_a_spectator(kind):
    room = a_table(kind)
    engine = registry.get(kind)
    members = list(room.present())
    seated = sorted((m for m in members if m.seat is not None), key=lambda m: m.seat)
    assert [m.seat for m in seated] == list(range(engine.max_players))
    viewers = seated + [Member(room=room, player="guest:nobody", name="Spectator")]
    for member in viewers:
        context = tables.room_context(room, member)
        html = tables.render_fragment(context)
        who = f"{kind}, seat {member.seat}"
        assert f'data-kind="{kind}"' in html and 'class="table felt' in html, who
        assert "Watching" in html if member.seat is None else "Watching" not in html, who
        assert "{{" not in html and "{%" not in html, f"{who}: template syntax left in the page"
        drawn = CARD_IMAGE.findall(html)
        own_table = table_template(kind) == f"tables/{kind}.html"
        assert drawn or not own_table, f"{who}: no card drawn"
        seen = engine.visible_cards(store.load_state(room.game), member.seat)
        hidden = sorted({c for c in drawn if c != "back" and c not in seen})
        assert not hidden, f"{who}: the table draws cards this seat may not see: {hidden}"
        if member.seat is not None and context["legal"]:
            assert BUTTON.search(html), f"{who}: legal actions but no button"
        # Whose turn it is, in words, for the table's live region.
        awaited = member.seat in context["to_act"]
        turn = "Your turn" if awaited else "Game over" if context["over"] else "Waiting for "
        assert f'data-turn="{turn}' in html or not context["to_act"] and not context["over"], who


def test_the_generic_table_offers_every_legal_action_of_any_game():
    """A game without a table of its own is still playable: a button for each legal action."""
    room = a_table("poker")
    to_act = registry.get("poker").to_act(store.load_state(room.game))
    member = room.present().get(seat=to_act[0])
    context = tables.room_context(room, member)
    context["table_template"] = get_template("tables/generic.html")
    html = tables.render_fragment(context)
    assert context["legal"]
    for action in context["legal"]:
        sent = '"action":{"type":"' + action["type"] + '"'
        assert sent in html.replace("&quot;", '"')


def test_templates_do_no_arithmetic():
    """Numbers a table shows come from the engine's view or the table context."""
    offenders = []
    for path in ROOT.glob("**/templates/**/*.html"):
        if ".venv" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        if "widthratio" in text or re.search(r"\|add:(?!\d)", text):
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, offenders


def test_home_page_from_a_fresh_client_lists_every_table():
    html = Client().get("/").content.decode()
    assert html.count('class="game-tile"') == len(KINDS)


def test_act_sends_a_legal_action_or_one_built_from_its_fields():
    from django.template import Context, Template

    def render(source: str, **context) -> str:
        html = Template("{% load tables %}" + source).render(Context(context))
        return html.replace("&quot;", '"')

    legal = {"type": "bid", "n": 3}
    assert render("{% act a 7 %}", a=legal) == (
        'ws-send hx-vals=\'{"type":"act","seq":7,"action":{"type":"bid","n":3}}\''
    )
    built = render('{% act "play" 7 card=c %}', c="QB")
    assert '"action":{"type":"play","card":"QB"}' in built


def test_spectators_share_one_rendering_of_the_table_per_state(
    django_assert_num_queries, django_capture_on_commit_callbacks
):
    """Render once per viewpoint: the second spectator's view at the same state costs no
    engine work and one query, the room's presence rows (who is here moves without the game
    row, so it is read per call); a new state is worked out afresh; a seat never gets the
    spectators' (or another seat's) view."""
    room = a_table("war")
    for i in range(2):  # the room's last two places
        services.join_room(code=room.code, player=f"guest:watch{i}", name=f"W{i}")
    room = Room.objects.select_related("game").get(pk=room.pk)
    people = list(room.present())
    watchers = [m for m in people if m.seat is None]
    first = tables.room_context(room, watchers[0], people)
    with django_assert_num_queries(1):
        second = tables.room_context(room, watchers[1], people)
    assert second["view"] is first["view"] and second["member"] == watchers[1]
    seated = tables.room_context(room, people[0], people)
    assert seated["seat"] == 0 and seated["view"] != first["view"]

    game = room.game
    state = store.load_state(game)
    seat = registry.get("war").to_act(state)[0]
    with django_capture_on_commit_callbacks(execute=True):  # the new state is cached
        gameplay.submit_action(game_id=game.pk, seat=seat, action={"type": "flip"}, seq=game.seq)
    room = Room.objects.select_related("game").get(pk=room.pk)
    with django_assert_num_queries(1):  # presence; the room's wins change only when a game ends
        after = tables.room_context(room, watchers[0], people)
    assert after["seq"] == first["seq"] + 1 and after["view"] != first["view"]
    # A table socket knows who is here from its last room update, and this process wrote the
    # move: the other seat's new view costs no query at all (name tags and wins included).
    room.game = store.latest_row(game.pk, game.seq + 1)
    online = services.online_ids(room.pk)
    with django_assert_num_queries(0):
        other = tables.room_context(room, people[1], people, online)
    assert other["seat"] == 1 and other["seq"] == after["seq"]
