"""/kudos/ (the schedules, the player's balance, streak and history), the header slot, the
admin (read-only ledger, bonus events) and correct_kudos."""

from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command

from kudos import services
from kudos.models import Account, BonusEvent, Entry

from .conftest import ended_game

pytestmark = pytest.mark.django_db(transaction=True)


def test_guests_read_how_kudos_are_earned(client):
    page = client.get("/kudos/").content.decode()
    assert "Sign up</a> to earn Kudos" in page
    for stated in [
        "<td>10</td><td>15</td><td>20</td><td>25</td><td>30</td><td>35</td><td>40</td><td>45</td><td>50</td>",
        '<th scope="col">9+</th>',
        '<th scope="row">Solo</th><td>1</td><td>1.5</td>',
        '<th scope="row">2 seats</th><td>1.5</td><td>2.25</td>',
        '<th scope="row">3–4 seats</th><td>2</td><td>3</td>',
        '<th scope="row">5+ seats</th><td>2.5</td><td>3.75</td>',
        "Klondike: 15 of your own decisions",
        "War: played to its end with you at the table",
        "stop at <strong>200 a day</strong>",
        "<strong>first win of the day</strong> at each game pays double",
        "one automatic <strong>grace day</strong> each week",
        "hold up to 2",
        '<th scope="row">1</th><td>500</td>',
        '<th scope="row">4–10</th><td>100</td>',
        "(×1.1 to ×5)",
    ]:
        assert stated in page
    assert 'class="kudos-balance">0<' in page and "ws-connect" not in page


def test_the_history_is_paged_and_links_what_it_paid_for(at, player, client):
    ann = player("ann")
    at("2030-01-07 09:00")
    game = ended_game(seats=[{"user_id": ann.pk}, {"bot": True}], winners=[0])
    services.pay_for_game(game)
    for i in range(28):
        services.credit(
            user_id=ann.pk, amount=1, kind=Entry.Kind.PLAY, key=f"test:{i}", memo=f"Test {i}"
        )
    client.force_login(ann)
    first = client.get("/kudos/").content.decode()
    assert 'class="kudos-balance">32<' in first and "Page 1 of 2" in first
    assert first.count("<td><time datetime=") == 25
    assert "Older →" in first and "<strong data-balance>32</strong>" in first
    second = client.get("/kudos/?page=2").content.decode()
    assert f'<a href="/games/{game.pk}/">Won War at a table of 2: 1 min 0 s of play</a>' in second
    assert client.get("/kudos/?page=99").status_code == 200  # the last page
    assert client.get("/kudos/?page=x").status_code == 200


def test_a_bonus_event_in_progress_is_in_the_header(at, player, client):
    ann = player("ann")
    at("2030-01-07 09:00")
    BonusEvent.objects.create(
        name="Double Kudos weekend",
        multiplier=Decimal("2"),
        starts=datetime(2030, 1, 7, tzinfo=UTC),
        ends=datetime(2030, 1, 8, tzinfo=UTC),
    )
    client.force_login(ann)
    page = client.get("/").content.decode()
    assert "×2 Double Kudos weekend</a>" in page and 'ws-connect="/ws/kudos/"' in page
    at("2030-01-08 09:00")
    assert "Double Kudos weekend" not in client.get("/").content.decode()


def test_the_admin_shows_the_ledger_read_only(real_services, player, admin_client):
    ann = player("ann")
    entry, _ = services.credit(
        user_id=ann.pk, amount=5, kind=Entry.Kind.PLAY, key="test:1", memo="Test"
    )
    assert admin_client.get("/admin/kudos/entry/").status_code == 200
    assert admin_client.get(f"/admin/kudos/entry/{entry.pk}/change/").status_code == 200  # a view
    assert admin_client.get("/admin/kudos/entry/add/").status_code == 403
    assert (
        admin_client.post(f"/admin/kudos/entry/{entry.pk}/change/", {"amount": 500}).status_code
        == 403
    )
    assert (
        admin_client.post(f"/admin/kudos/entry/{entry.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert admin_client.get(f"/admin/kudos/account/{ann.pk}/change/").status_code == 200
    assert Entry.objects.get(pk=entry.pk).amount == 5


def test_staff_schedule_bonus_events_in_the_admin(real_services, admin_client):
    form = {
        "name": "Poker night",
        "multiplier": "7",
        "kind": "poker",
        "starts_0": "2030-01-07",
        "starts_1": "20:00",
        "ends_0": "2030-01-07",
        "ends_1": "19:00",
    }
    refused = admin_client.post("/admin/kudos/bonusevent/add/", form).content.decode()
    assert "A multiplier goes from 1.1 to 5." in refused
    assert not BonusEvent.objects.exists()
    form["multiplier"] = "1.5"
    refused = admin_client.post("/admin/kudos/bonusevent/add/", form).content.decode()
    assert "An event must end after it starts." in refused
    form["ends_1"] = "23:00"
    assert admin_client.post("/admin/kudos/bonusevent/add/", form).status_code == 302
    event = BonusEvent.objects.get()
    assert event.times == "×1.5" and event.game_title == "Poker"


def test_correct_kudos(real_services, player, capsys):
    ann = player("ann")
    services.credit(user_id=ann.pk, amount=20, kind=Entry.Kind.PLAY, key="test:1", memo="Test")
    call_command("correct_kudos", "ann", "-15", "Paid twice by mistake", key="ticket-1")
    call_command("correct_kudos", "ann", "-15", "Paid twice by mistake", key="ticket-1")
    out = capsys.readouterr().out
    assert "ann: -15 Kudos, balance 5." in out and "Correction ticket-1 was made before" in out
    with pytest.raises(CommandError, match="has 5 Kudos: a correction can't take 6"):
        call_command("correct_kudos", "ann", "-6", "More", key="ticket-2")
    with pytest.raises(CommandError, match="No player is called zed"):
        call_command("correct_kudos", "zed", "5", "Gift", key="ticket-3")
    assert Account.objects.get(user=ann).balance == 5
    call_command("verify_ledger")
