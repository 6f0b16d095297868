"""Profiles, leaderboards, account settings and password reset."""

import html
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts import ratings, selectors
from accounts.models import GameRecord, Rating, RatingChange, User
from gameplay import hooks
from gameplay.engine import registry
from gameplay.engine.core import Record
from gameplay.models import Game, GameEvent
from kudos.models import Entry

from .test_ratings import ended_game, seat

pytestmark = pytest.mark.django_db(transaction=True)


def text(response) -> str:
    return html.unescape(response.content.decode())


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def settled(user: User, kind: str, mu: float, days_ago: int = 1) -> Rating:
    sigma = ratings.PROVISIONAL_SIGMA - 1
    return Rating.objects.create(
        user=user,
        kind=kind,
        mu=mu,
        sigma=sigma,
        ordinal=mu - 3 * sigma,
        games=20,
        updated=timezone.now() - timedelta(days=days_ago),
    )


# ---- profiles ----------------------------------------------------------------------------------


def test_profile_shows_rating_chart_streaks_records_and_recent_games(real_services, monkeypatch):
    ann = User.objects.create_user("ann", password="pw-long-enough", time_zone="Asia/Tokyo")
    bob = User.objects.create_user("bob", password="pw-long-enough")
    engine = registry.get("poker")
    monkeypatch.setattr(
        type(engine),
        "records",
        (Record("pot", "Biggest pot", "max"), Record("hands", "Hands", "sum")),
    )
    results = [[[0], [1]], [[0], [1]], [[1], [0]], [[0], [1]], [[0], [1]], [[0], [1]]]
    for i, ranking in enumerate(results):
        game = ended_game([seat(ann), seat(bob)], ranking, minutes=i)
        game.result["winners"] = ranking[0]
        game.facts = [{"pot": 10 * (i + 1), "hands": 2}, {"pot": 5, "hands": 2}]
        game.save()
        hooks.deliver(game.pk)
    page = text(signed_in(bob).get("/u/ann/"))
    rating = Rating.objects.get(user=ann, kind="poker")
    assert f'data-rating="{ratings.shown(rating.mu, rating.sigma)}"' in page
    assert "provisional" in page  # six games: not settled yet
    charts = re.findall(r"<figure class=\"rating-chart\".*?</figure>", page, re.S)
    assert len(charts) == 1 and "<svg" in charts[0]
    assert "Poker rating after each ranked game" in page
    row = re.search(r'<tr data-stats="poker">(.*?)</tr>', page, re.S).group(1)
    cells = re.findall(r"<td>(.*?)</td>", row, re.S)
    assert cells[0] == "6" and cells[1].startswith("83%")  # 5 of 6
    assert cells[2:4] == ["3", "3"]  # won the last three; best run three
    records = re.search(r'<ul class="records" data-records="poker">(.*?)</ul>', page, re.S)
    assert "Biggest pot: <strong>60</strong>" in records.group(1)
    assert "Hands: <strong>12</strong>" in records.group(1)
    assert page.count("/games/") >= 6 and "ranked, place 1" in page
    # Times in the viewer's zone: bob (UTC) and ann (Tokyo) see the same game at different hours.
    assert "Times in UTC." in page
    ann_page = text(signed_in(ann).get("/u/ann/"))
    assert "Times in Asia/Tokyo." in ann_page
    utc_time = re.search(r'<time datetime="[^"]+">([^<]+)</time>', page).group(1)
    tokyo_time = re.search(r'<time datetime="[^"]+">([^<]+)</time>', ann_page).group(1)
    assert utc_time != tokyo_time


def test_a_rated_game_that_did_not_count_is_in_the_history_marked_and_earns_nothing(
    real_services,
):
    """Left or resigned before playing: rated as a loss, so the history shows it (the rating
    chart's points would otherwise have no game), marked, with no Kudos and no "played"."""
    ann = User.objects.create_user("ann", password="pw-long-enough")
    bob = User.objects.create_user("bob", password="pw-long-enough")
    left = ended_game([seat(ann, bot=True, left=True), seat(bob)], [[1], [0]], minutes=1)
    hooks.deliver(left.pk)
    resigned = ended_game([seat(ann), seat(bob)], [[1], [0]], minutes=2, save=False)
    resigned.save()
    GameEvent.objects.create(game=resigned, seq=1, seat=0, action={"type": "resign"})
    Game.objects.filter(pk=resigned.pk).update(seq=1)
    hooks.deliver(resigned.pk)
    assert RatingChange.objects.filter(user=ann).count() == 2  # both rated
    assert not GameRecord.objects.filter(user=ann).exists()  # neither played
    assert not Entry.objects.filter(user=ann).exists()  # nor paid

    page = text(signed_in(bob).get("/u/ann/"))
    history = re.search(r'<ul class="history">(.*?)</ul>', page, re.S).group(1)
    rows = re.findall(r"<li[^>]*>(.*?)</li>", history, re.S)
    assert len(rows) == 2
    assert "lost · ranked, resigned, place 2" in rows[0]  # the latest first
    assert "lost · ranked, left, place 2" in rows[1]
    for row in rows:
        assert "not counted as play" in row and "data-delta" in row
    assert f"/games/{resigned.pk}/" in rows[0] and f"/games/{left.pk}/" in rows[1]


def test_streaks_count_runs_of_wins():
    user = User.objects.create_user("ann", password="pw-long-enough")
    opponent = User.objects.create_user("bob", password="pw-long-enough")
    for i, won in enumerate([True, True, False, True, True, True, False, True]):
        game = ended_game(
            [seat(user), seat(opponent)], [[0], [1]] if won else [[1], [0]], minutes=i
        )
        game.result["winners"] = [0] if won else [1]
        game.ranked = False
        game.save()
        hooks.deliver(game.pk)
    assert selectors.win_streaks(user) == [("poker", 1, 3)]


# ---- leaderboards ------------------------------------------------------------------------------


def test_leaderboard_lists_settled_active_players_and_highlights_the_viewer(real_services):
    people = [User.objects.create_user(f"p{i:02d}", password="pw-long-enough") for i in range(60)]
    for i, user in enumerate(people):
        settled(user, "poker", mu=20 + i * 0.2)
    newcomer = User.objects.create_user("newbie", password="pw-long-enough")
    Rating.objects.create(
        user=newcomer, kind="poker", mu=40, sigma=8, ordinal=16, games=1, updated=timezone.now()
    )
    idle = User.objects.create_user("idle", password="pw-long-enough")
    settled(idle, "poker", mu=45, days_ago=40)
    me = people[5]  # 55 players are better: the second page
    page = text(signed_in(me).get("/leaderboards/poker/"))
    assert "You are <strong>#55</strong>" in page
    assert "Page 2 of 2" in page
    assert re.search(
        r'<tr class="you" aria-current="true"><td>55</td><td><a href="/u/p05/">p05</a>', page
    )
    first = text(Client().get("/leaderboards/poker/?page=1"))
    assert '<td>1</td><td><a href="/u/p59/">p59</a>' in first
    assert "newbie" not in first + page and "idle" not in first + page
    assert "provisional" in text(signed_in(newcomer).get("/leaderboards/poker/"))
    overview = text(Client().get("/leaderboards/"))
    assert "Poker" in overview and "60 players" in overview and "p59" in overview
    assert Client().get("/leaderboards/war/").status_code == 404
    assert Client().get("/leaderboards/nosuchgame/").status_code == 404


# ---- account settings and password reset ----------------------------------------------------------


def test_settings_change_email_and_time_zone():
    user = User.objects.create_user("ann", password="pw-long-enough")
    client = signed_in(user)
    page = text(client.get("/accounts/settings/"))
    assert "Add an email address so you can reset your password" in page
    response = client.post(
        "/accounts/settings/", {"email": "ann@example.com", "time_zone": "Europe/Paris"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.email, user.time_zone) == ("ann@example.com", "Europe/Paris")
    bad = text(client.post("/accounts/settings/", {"email": "nope", "time_zone": "Mars/Base"}))
    assert "Enter a valid email address." in bad and "Select a valid choice" in bad
    user.refresh_from_db()
    assert user.time_zone == "Europe/Paris"
    # Another change at once is fine: days that pay are UTC days, the zone only shows times.
    again = client.post("/accounts/settings/", {"email": "", "time_zone": "Pacific/Kiritimati"})
    assert again.status_code == 302
    user.refresh_from_db()
    assert user.time_zone == "Pacific/Kiritimati"
    assert Client().get("/accounts/settings/").status_code == 302  # sign in first


def test_password_reset_by_email(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    user = User.objects.create_user("ann", email="ann@example.com", password="old-password-1")
    User.objects.create_user("bob", password="pw-long-enough")  # no email: no mail
    client = Client()
    response = client.post("/accounts/password/reset/", {"email": "ann@example.com"})
    assert response.url == "/accounts/password/reset/sent/"
    client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ann@example.com"]
    assert mail.outbox[0].subject == "Reset your Cubic Cards password"
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    response = client.get(link.group(1), follow=True)
    form_url = response.redirect_chain[-1][0]
    response = client.post(
        form_url, {"new_password1": "brand-new-pw-42", "new_password2": "brand-new-pw-42"}
    )
    assert response.url == "/accounts/password/reset/done/"
    user.refresh_from_db()
    assert user.check_password("brand-new-pw-42")
    assert "That link has expired" in text(client.get(link.group(1), follow=True))
    assert "Forgot your password?" in text(Client().get("/accounts/login/"))
