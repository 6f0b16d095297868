"""Sessions are read from the cache and kept in the database (accounts.sessions), and so is a
signed-in player's account row (accounts.backends): a signed-in page doesn't ask the database
for either, signing out ends the session for every copy of its cookie, a saved row is read
afresh on the next page, and with Redis away every page reads the database instead."""

import logging

import pytest
import redis
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import backends, privacy, sessions
from accounts.models import User

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("real_services")]

DEAD_REDIS = {"default": {"BACKEND": "infra.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}}


def signed_in(name: str) -> Client:
    client = Client()
    client.force_login(User.objects.create_user(name, password=None))
    return client


def signed_in_as(client: Client) -> str | None:
    page = client.get("/").content.decode()
    return None if 'action="/accounts/logout/"' not in page else page


def session_queries(client: Client) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    return [q["sql"] for q in queries.captured_queries if "django_session" in q["sql"]]


def test_a_signed_in_page_reads_its_session_from_the_cache(settings):
    assert settings.SESSION_ENGINE == "accounts.sessions"
    client = signed_in("ann")
    assert session_queries(client) == []
    key = client.cookies["sessionid"].value
    # The copy in the cache lives at most KEPT seconds; then the database is read again.
    ttl = cache._cache.get_client().ttl(
        cache.make_key(sessions.SessionStore.cache_key_prefix + key)
    )
    assert 0 < ttl <= sessions.KEPT
    cache.delete(sessions.SessionStore.cache_key_prefix + key)
    assert len(session_queries(client)) == 1
    assert session_queries(client) == []


def test_signing_out_ends_the_session_for_every_copy_of_its_cookie():
    client = signed_in("ann")
    stolen = Client()
    stolen.cookies["sessionid"] = client.cookies["sessionid"].value
    assert signed_in_as(stolen)
    assert client.post("/accounts/logout/").status_code == 302
    assert signed_in_as(client) is None
    assert signed_in_as(stolen) is None


def test_with_the_cache_away_pages_read_the_database_and_signing_out_works(settings, caplog):
    client = signed_in("ann")
    stolen = Client()
    stolen.cookies["sessionid"] = client.cookies["sessionid"].value
    settings.CACHES = DEAD_REDIS
    with caplog.at_level(logging.WARNING, logger="accounts.sessions"):
        assert signed_in_as(client)
        assert client.post("/accounts/logout/").status_code == 302
        assert signed_in_as(stolen) is None
    said = [r for r in caplog.records if r.name == "accounts.sessions"]
    assert said and all(r.exc_info is None for r in said)  # one line each, no traceback


def test_with_the_cache_away_a_person_can_sign_in(settings):
    User.objects.create_user("bea", password="a long pass phrase")
    settings.CACHES = DEAD_REDIS
    client = Client()
    answer = client.post("/accounts/login/", {"username": "bea", "password": "a long pass phrase"})
    assert answer.status_code == 302
    assert signed_in_as(client)


def test_ending_a_players_sessions_ends_their_copies_in_the_cache():
    client = signed_in("ann")
    assert signed_in_as(client)
    assert privacy.end_sessions(User.objects.get(username="ann").pk) == 1
    assert signed_in_as(client) is None


def all_queries(client: Client, path: str = "/") -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return [q["sql"] for q in queries.captured_queries]


def test_a_signed_in_home_page_asks_the_database_nothing():
    client = signed_in("ann")
    client.get("/")
    assert all_queries(client) == []
    ann = User.objects.get(username="ann")
    ttl = cache._cache.get_client().ttl(cache.make_key(backends._key(ann.pk)))
    assert 0 < ttl <= backends.KEPT
    cache.delete(backends._key(ann.pk))
    assert [q for q in all_queries(client) if "accounts_user" in q]  # read once more, kept
    assert all_queries(client) == []


def test_a_saved_account_row_is_read_afresh_on_the_next_page():
    client = signed_in("ann")
    assert ">ann</a>" in signed_in_as(client)
    ann = User.objects.get(username="ann")
    ann.username = "annie"
    ann.save()
    assert ">annie</a>" in signed_in_as(client)
    ann.is_active = False
    ann.save()
    assert signed_in_as(client) is None  # a closed account is signed out at once


def test_a_new_password_signs_out_the_other_sessions_at_once():
    User.objects.create_user("bea", password="a long pass phrase")
    phone, laptop = Client(), Client()
    for client in (phone, laptop):
        answer = client.post(
            "/accounts/login/", {"username": "bea", "password": "a long pass phrase"}
        )
        assert answer.status_code == 302
        assert signed_in_as(client)
    bea = User.objects.get(username="bea")
    bea.set_password("another long pass phrase")
    bea.save()
    assert signed_in_as(laptop) is None


def _strings(client_):
    """Every string value in the test's Redis database (the cache writes nothing else; the
    channel layer's sorted sets and lists are not read)."""
    for key in client_.scan_iter():
        try:
            yield client_.get(key) or b""
        except redis.ResponseError:  # a key of another type
            continue


def test_the_cache_never_holds_a_password_hash():
    User.objects.create_user("bea", password="a long pass phrase")
    client = Client()
    client.post("/accounts/login/", {"username": "bea", "password": "a long pass phrase"})
    assert signed_in_as(client)
    bea = User.objects.get(username="bea")
    hashed = bea.password.encode()
    client_ = cache._cache.get_client()
    assert client_.get(cache.make_key(backends._key(bea.pk))) is not None  # the row is kept
    everything = b"".join(_strings(client_))
    assert hashed not in everything
    assert hashed.split(b"$")[-1] not in everything  # nor the hash alone
    assert signed_in_as(client)  # the session still checks out with the kept copy


def test_a_kept_account_row_saves_without_losing_its_password():
    User.objects.create_user("bea", password="a long pass phrase")
    backend = backends.SignInBackend()
    pk = User.objects.get(username="bea").pk
    backend.get_user(pk)  # read, kept
    kept = backend.get_user(pk)  # the cache's copy
    assert "password" in kept.get_deferred_fields()
    kept.time_zone = "Europe/Paris"
    kept.save()
    bea = User.objects.get(pk=pk)
    assert bea.time_zone == "Europe/Paris"
    assert bea.check_password("a long pass phrase")
    assert backend.get_user(pk).check_password("a long pass phrase")  # loaded when asked for


def test_a_password_changed_on_the_site_keeps_this_session_and_ends_the_others():
    User.objects.create_user("bea", password="a long pass phrase")
    phone, laptop = Client(), Client()
    for client in (phone, laptop):
        client.post("/accounts/login/", {"username": "bea", "password": "a long pass phrase"})
        assert signed_in_as(client)  # and the row is kept, without its hash
    new = "violet-Harbor-93-candle"
    answer = phone.post(
        "/accounts/password/",
        {"old_password": "a long pass phrase", "new_password1": new, "new_password2": new},
    )
    assert answer.status_code == 302
    assert signed_in_as(phone)
    assert signed_in_as(laptop) is None
    assert User.objects.get(username="bea").check_password(new)


def test_a_deleted_account_is_signed_out_at_once():
    client = signed_in("ann")
    assert signed_in_as(client)
    User.objects.get(username="ann").delete()
    assert signed_in_as(client) is None


def test_with_the_cache_away_the_account_row_is_read_from_the_database(settings, caplog):
    client = signed_in("ann")
    settings.CACHES = DEAD_REDIS
    with caplog.at_level(logging.WARNING, logger="accounts.backends"):
        assert [q for q in all_queries(client) if "accounts_user" in q]
        assert ">ann</a>" in signed_in_as(client)
    said = [r for r in caplog.records if r.name == "accounts.backends"]
    assert said and all(r.exc_info is None for r in said)


def cache_commands(client: Client, monkeypatch) -> list[str]:
    """The Redis commands of one signed-in page."""
    commands = []
    ask = redis.Redis.execute_command

    def counted(self, *args, **options):
        commands.append(args[0])
        return ask(self, *args, **options)

    with monkeypatch.context() as patch:
        patch.setattr(redis.Redis, "execute_command", counted)
        assert signed_in_as(client)
    return commands


def test_a_signed_in_home_page_asks_the_cache_once(monkeypatch):
    """Its session, the account row and what the header reads by the player's id (the Kudos
    facts, everyone's bonus event, the table where the player sits), in one round trip once
    the process knows whose session it is; in two before."""
    client = signed_in("ann")
    for _ in range(2):  # what the header shows, kept
        assert signed_in_as(client)
    sessions.ACCOUNTS.clear()  # a process that has not read this session yet
    assert cache_commands(client, monkeypatch) == ["MGET", "MGET"]
    assert cache_commands(client, monkeypatch) == ["MGET"]


def test_only_the_session_says_whose_page_it_is():
    """What the process remembers of a session's account only picks what is read beside it: a
    session that names another account (or none) is that account's (or no one's)."""
    ann, bob = (
        User.objects.create_user("annabel", password=None),
        User.objects.create_user("bobbie", password=None),
    )
    client = Client()
    client.force_login(ann)
    key = client.cookies["sessionid"].value
    assert "data-username>annabel<" in signed_in_as(client)
    sessions.ACCOUNTS[key] = str(bob.pk)  # wrong: bob's row and header are read beside
    page = signed_in_as(client)
    assert "data-username>annabel<" in page and "bobbie" not in page
    assert sessions.ACCOUNTS[key] == str(ann.pk)
    client.post("/accounts/logout/")
    sessions.ACCOUNTS[key] = str(ann.pk)  # the ended session's key, still remembered as ann's
    client.cookies["sessionid"] = key
    assert signed_in_as(client) is None
    assert key not in sessions.ACCOUNTS


def test_what_is_read_with_the_account_row_is_taken_once():
    ann = User.objects.create_user("ann", password=None)
    seated, nowhere = f"seated:user:{ann.pk}", "header:version:nobody"
    cache.set(seated, "ABCDE", 5)
    user = backends.SignInBackend().get_user(ann.pk)
    assert backends.read_beside(user, [nowhere]) is None  # not read with the row
    assert backends.read_beside(user, [seated]) == {seated: "ABCDE"}
    assert backends.read_beside(user, [seated]) is None  # taken: the next asks the cache


def test_what_the_session_read_is_taken_fresh_and_for_its_account_only(monkeypatch):
    ann = User.objects.create_user("annabel", password=None)
    bob = User.objects.create_user("bobbie", password=None)
    stand_in = User(pk=ann.pk, username="stand-in")  # what a session's read found, made up
    backend = backends.SignInBackend()
    backends.read_ahead(ann.pk, {f"user:{ann.pk}": stand_in})
    assert backend.get_user(bob.pk).username == "bobbie"  # another account: not used, dropped
    assert backend.get_user(ann.pk).username == "annabel"
    backends.read_ahead(ann.pk, {f"user:{ann.pk}": stand_in})
    assert backend.get_user(ann.pk).username == "stand-in"  # fresh, and this account's: taken
    assert backend.get_user(ann.pk).username == "annabel"  # once
    backends.read_ahead(ann.pk, {f"user:{ann.pk}": stand_in})
    monkeypatch.setattr(backends, "FRESH", 0.0)  # read longer ago than FRESH
    assert backend.get_user(ann.pk).username == "annabel"
