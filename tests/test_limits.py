"""Limits on guessing (infra.limits): room codes, sign-ins (the admin's too) and sign-ups,
each with a clear "Try again in N minutes" and none locking anyone out for good."""

import html
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from infra import limits
from lobby.models import Room

User = get_user_model()
pytestmark = pytest.mark.django_db
GOOD = "grey-Otter-71-lantern"


def text(response) -> str:
    return html.unescape(response.content.decode())


def create_room(client) -> str:
    return client.post("/rooms/").url.rstrip("/").split("/")[-1]


def join(client, code: str) -> str:
    return text(client.post("/rooms/join/", {"code": code}, follow=True))


def smaller(monkeypatch, name: str, attempts: int, window: int) -> None:
    """The same limit with fewer attempts and a shorter window."""
    old = getattr(limits, name)
    monkeypatch.setattr(limits, name, limits.Limit(old.name, attempts, window, old.message))


# ---- room codes ------------------------------------------------------------------------------


def test_room_codes_limited_per_session():
    host = Client()
    code = create_room(host)
    guesser = Client()
    for n in range(limits.ROOM_CODES_PER_SESSION.attempts):
        assert "No open room has the code" in join(guesser, f"ZZZZ{'ABCDEFGHJKMN'[n]}")
    page = join(guesser, code)  # even the right code, once the limit is used up
    assert "Too many room codes tried. Try again in 10 minutes." in page
    assert not Room.objects.get(code=code).members.filter(name__startswith="Guest").count() > 1
    assert "Join the table" not in page
    assert code in join(Client(), code)  # another browser at the same address still can


def test_room_codes_limited_per_address():
    code = create_room(Client())
    per_address = limits.ROOM_CODES_PER_ADDRESS.attempts
    for n in range(per_address):  # a fresh session for every guess
        join(
            Client(), f"ZZZ{'ABCDEFGHJKMNPQRSTUVWXYZ'[n // 23]}{'ABCDEFGHJKMNPQRSTUVWXYZ'[n % 23]}"
        )
    page = join(Client(), code)
    assert "Too many room codes tried from your network. Try again in 10 minutes." in page
    elsewhere = Client(REMOTE_ADDR="203.0.113.9")
    assert "Too many" not in join(elsewhere, code)


def test_joining_counts_only_codes_that_lead_nowhere():
    host = Client()
    code = create_room(host)
    person = Client()
    for _ in range(limits.ROOM_CODES_PER_SESSION.attempts + 2):
        join(person, code)  # rejoining one's own room is no guess
    assert "Too many" not in join(person, "ZZZZZ")


def test_no_room_private_and_closed_rooms_answer_alike():
    host = Client()
    open_code = create_room(host)
    private_code = host.post("/play/war/", {"seats": "2"}).url.rstrip("/").split("/")[-1]
    closed_code = create_room(Client())
    Room.objects.filter(code=closed_code).update(is_open=False)
    stranger = Client()
    for code in (private_code, closed_code, "ZZZZZ"):
        assert f"No open room has the code {code}." in join(stranger, code)
    # The room page offers the same invitation whether a room has the code or not.
    pages = {
        code: re.sub(r"[A-Za-z0-9]{64}", "TOKEN", text(stranger.get(f"/rooms/{code}/"))).replace(
            code, "CODE"
        )
        for code in (open_code, private_code, closed_code, "ZZZZZ")
    }
    assert len(set(pages.values())) == 1, "a room page tells rooms apart"
    # Someone else's room answers the host's actions as if it weren't there.
    for action in ("start", "lobby"):
        page = text(stranger.post(f"/rooms/{open_code}/{action}/", {"game": "war"}, follow=True))
        assert f"No open room has the code {open_code}." in page


# ---- sign-ins --------------------------------------------------------------------------------


def sign_in(client, username: str, password: str, path: str = "/accounts/login/"):
    return client.post(path, {"username": username, "password": password})


@pytest.fixture
def clock(monkeypatch):
    """The limits' clock, stopped: a test moves it rather than racing a window on a busy
    machine (four sign-ins may take longer than a short window)."""
    moment = [time.time()]
    monkeypatch.setattr(limits, "now", lambda: moment[0])
    return moment


def test_wrong_passwords_limited_per_account_then_the_window_closes(monkeypatch, clock):
    smaller(monkeypatch, "WRONG_PASSWORDS_PER_ACCOUNT", 3, 60)
    User.objects.create_user("maple", password=GOOD)
    client = Client()
    for _ in range(3):
        assert sign_in(client, "maple", "wrong").status_code == 200
    refused = sign_in(client, "Maple", GOOD)  # the right password, any case, is refused too
    assert refused.status_code == 429
    assert "Too many wrong passwords for this account. Try again in 1 minute." in text(refused)
    assert "_auth_user_id" not in client.session
    clock[0] += 59
    assert sign_in(client, "maple", GOOD).status_code == 429  # the window is still open
    clock[0] += 1  # the window closes: a real player is never locked out for good
    assert sign_in(client, "maple", GOOD).status_code == 302


def test_wrong_passwords_limited_per_address(monkeypatch):
    smaller(monkeypatch, "WRONG_PASSWORDS_PER_ADDRESS", 4, 60)
    User.objects.create_user("maple", password=GOOD)
    for n in range(4):
        sign_in(Client(), f"name{n}", "wrong")  # a different account each time
    refused = sign_in(Client(), "maple", GOOD)
    assert refused.status_code == 429
    assert "Too many wrong passwords from your network. Try again in 1 minute." in text(refused)
    assert sign_in(Client(REMOTE_ADDR="2001:db8::1"), "maple", GOOD).status_code == 302


def test_admin_login_shares_the_limits(monkeypatch):
    smaller(monkeypatch, "WRONG_PASSWORDS_PER_ACCOUNT", 2, 60)
    User.objects.create_superuser("boss", password=GOOD)
    for _ in range(2):
        sign_in(Client(), "boss", "wrong", "/admin/login/")
    refused = sign_in(Client(), "boss", GOOD, "/admin/login/")
    assert "Too many wrong passwords for this account. Try again in 1 minute." in text(refused)
    assert "Too many wrong passwords" in text(sign_in(Client(), "boss", GOOD))  # and the site's


def test_ipv6_addresses_count_by_their_64_block():
    request = type("R", (), {"META": {"REMOTE_ADDR": "2001:db8:1:2:aaaa::1"}})()
    assert limits.address(request) == "2001:db8:1:2::/64"


# ---- sign-ups --------------------------------------------------------------------------------


def test_sign_ups_limited_per_address(monkeypatch):
    smaller(monkeypatch, "SIGN_UPS_PER_ADDRESS", 2, 60)
    form = {"password1": GOOD, "password2": GOOD}
    for n in range(2):
        assert Client().post("/accounts/signup/", {**form, "username": f"p{n}"}).status_code == 302
    refused = Client().post("/accounts/signup/", {**form, "username": "p2"})
    assert refused.status_code == 429
    assert "Too many accounts were made from your network. Try again in 1 minute." in text(refused)
    assert not User.objects.filter(username="p2").exists()
    other = Client(REMOTE_ADDR="198.51.100.7").post("/accounts/signup/", {**form, "username": "p2"})
    assert other.status_code == 302


def test_limits_let_everyone_through_when_the_cache_is_down(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }
    User.objects.create_user("maple", password=GOOD)
    assert sign_in(Client(), "maple", "wrong").status_code == 200
    assert sign_in(Client(), "maple", GOOD).status_code == 302


# ---- look-alike usernames --------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, message",
    [
        (
            "\u0430dmin",
            "A username takes its letters from one alphabet: this one mixes Cyrillic and Latin.",
        ),
        ("ADMIN", "That username is taken. Try another one."),
        ("adrnin", "That username looks too much like an existing player's. Try another one."),
        ("AdrnIn", "That username looks too much like an existing player's. Try another one."),
        (
            "\uff41\uff44\uff4d\uff49\uff4e",
            "That username is taken. Try another one.",
        ),  # fullwidth: NFKC
    ],
)
def test_look_alike_usernames_refused(name, message):
    User.objects.create_user("admin", password=GOOD)
    response = Client().post(
        "/accounts/signup/", {"username": name, "password1": GOOD, "password2": GOOD}
    )
    assert response.status_code == 200
    assert message in text(response)
    assert User.objects.filter(role=User.PERSON).count() == 1


def test_names_in_one_alphabet_are_welcome():
    for name in ("\u0438\u0432\u0430\u043d", "ivan_1", "\u00e9lodie"):  # иван, élodie
        response = Client().post(
            "/accounts/signup/", {"username": name, "password1": GOOD, "password2": GOOD}
        )
        assert response.status_code == 302, text(response)
    assert User.objects.get(username="ivan_1").name_key == "ivan_l"
    response = Client().post(  # 1 passes for l
        "/accounts/signup/", {"username": "ivan_l", "password1": GOOD, "password2": GOOD}
    )
    assert "looks too much like an existing player's" in text(response)
