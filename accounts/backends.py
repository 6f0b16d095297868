"""Signing in without holding a database connection across the password hash, and a
signed-in player's account row read from the cache.

A password hash costs hundreds of milliseconds of CPU on purpose. Django's ModelBackend reads
the account and then hashes while the request keeps its pooled connection; a burst of sign-ins
(each page request runs on a thread of its own under ASGI) then held every connection of the
pool for the length of a hash, and pages and table sockets alike waited the pool's timeout and
failed. Here the connection goes back to the pool between the read and the hash.

Every signed-in page and socket reads its player's row. From PostgreSQL that was the home
page's only query, a quarter of its CPU with taking a pooled connection and giving it back.
A copy in the cache lives at most KEPT seconds and goes when the row is saved or deleted
(accounts.signals), so a password change still signs out the other sessions at once. The copy
holds no password hash (``_keepable``). A row
changed without a save (a queryset's update) would be read as it was for at most KEPT
seconds: the site's code saves the row. With Redis away the row is read from the database.

What other parts of the page read from the cache by the player's id (the header's facts, the
table where the player sits) comes in the same round trip as the row: they name their keys
in BESIDE and take what was read with ``read_beside``. And that round trip is usually the
session's own: the session store reads the row's keys with the session's when it knows whose
session it is (accounts.sessions) and hands them over with ``read_ahead``.
"""

import logging
import time
from contextvars import ContextVar

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.db import connections, transaction

KEPT = 60
log = logging.getLogger(__name__)

# Functions of a signed-in player's id giving cache keys every page of theirs reads: read with
# the account row, in one round trip (kudos.header, lobby.services.table_code add theirs).
BESIDE: list = []


def row_keys(user_id) -> list[str]:
    """The keys ``get_user`` reads: the row's copy, then what is read beside it."""
    return [_key(user_id), *(key for keys in BESIDE for key in keys(user_id))]


# What the session store read for the account its session names (user id, keys -> values,
# when), for this request's ``get_user`` to take.
_read_ahead: ContextVar[tuple[str, dict, float] | None] = ContextVar("read_ahead", default=None)
FRESH = 1.0  # seconds: a session read for something else leaves nothing older to a later get_user


def read_ahead(user_id, got: dict) -> None:
    """``got`` (as ``cache.get_many`` answers) holds ``row_keys(user_id)``, read by the session
    store in its round trip: the next ``get_user(user_id)`` in this context takes it."""
    _read_ahead.set((str(user_id), got, time.monotonic()))


def read_beside(user, keys: list[str]) -> dict | None:
    """What was read with ``user``'s row for these keys, as ``cache.get_many`` answers (only
    the keys found), and only once; None when they were not read with it."""
    read = getattr(user, "read_beside", None)
    if read is None or not all(key in read for key in keys):
        return None
    return {key: value for key in keys if (value := read.pop(key)) is not None}


def _key(user_id) -> str:
    return f"user:{user_id}"


def _keepable(user):
    """The row as the cache keeps it: the password hash stays in the database (a copy of the
    cache would otherwise be a list of hashes to crack), and the session's proof of it, which
    the session itself holds, takes its place. ``user.password`` loads it from the database
    when asked for (changing a password, say); ``user.save()`` saves the other fields."""
    user.session_auth_hash = user.get_session_auth_hash()
    del user.__dict__["password"]
    return user


def forget(user_id) -> None:
    """The row changed: drop its copy now and again once the change is committed (a page that
    read the old row meanwhile may have kept it)."""

    def drop():
        try:
            cache.delete(_key(user_id))
        except Exception as exc:
            log.warning("account row not dropped from the cache (Redis away?): %r", exc)

    drop()
    transaction.on_commit(drop)


def give_back_connection(alias: str) -> None:
    """Return this thread's connection to the pool (a later query takes one again). Only with
    a pool and outside a transaction: there is nothing to give back otherwise."""
    connection = connections[alias]
    if getattr(connection, "pool", None) is not None and not connection.in_atomic_block:
        connection.close()


class SignInBackend(ModelBackend):
    """Listed before ModelBackend (which stays for the sessions it signed in). Wrong
    credentials raise PermissionDenied, which ends Django's tour of the backends: ModelBackend
    would hash the password a second time, holding a connection."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        users = get_user_model()
        if username is None:
            username = kwargs.get(users.USERNAME_FIELD)
        if username is None or password is None:
            return None
        try:
            user = users._default_manager.get_by_natural_key(username)
        except users.DoesNotExist:
            give_back_connection(users._default_manager.db)
            # Hash anyway, so an unknown name takes as long as a wrong password.
            users().set_password(password)
            raise PermissionDenied from None
        give_back_connection(user._state.db)
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        raise PermissionDenied

    def get_user(self, user_id):
        keys = row_keys(user_id)
        ahead = _read_ahead.get()
        if ahead is not None:
            _read_ahead.set(None)  # taken once
        if ahead and ahead[0] == str(user_id) and time.monotonic() - ahead[2] < FRESH:
            got = ahead[1]
        else:
            try:
                got = cache.get_many(keys)
            except Exception as exc:
                log.warning("account row read without the cache (Redis away?): %r", exc)
                return super().get_user(user_id)
        user = got.get(keys[0])
        if user is None:
            user = super().get_user(user_id)  # None for an inactive or deleted account
            if user is not None:
                user = _keepable(user)
                try:
                    cache.set(_key(user_id), user, KEPT)
                except Exception as exc:
                    log.warning("account row not kept (Redis away?): %r", exc)
        if user is not None:  # after keeping it: the copy is the row alone
            user.read_beside = {key: got.get(key) for key in keys[1:]}
        return user
