"""Sessions read from the cache and kept in the database.

Every signed-in page reads its session. Read from PostgreSQL, that was about an eighth of a home
page's CPU, mostly the ORM building the query. Django's own cached store reads the cache first,
but with Redis away it fails every signed-in page: it writes to the cache unguarded. Here every
cache call is guarded. With Redis away the store is the database store and logs one line.

The database stays the truth: a new key is checked there, and a signed-out session is deleted
there first. A copy in the cache lives at most KEPT seconds. So a session signed out while Redis
could not be told (and came back with its data) is trusted again for at most that long.

A signed-in page reads its session and then, by the account the session names, the account's
row and what the header shows (accounts.backends): two round trips in turn. A process that has
read a session remembers whose it was (``ACCOUNTS``, by session key), and reads that account's
keys in the session's own round trip next time. They are used only if the session still names
that account; the session is the only word on whose it is.
"""

from __future__ import annotations

import logging

from asgiref.sync import sync_to_async
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DatabaseStore

from . import backends

KEPT = 60
log = logging.getLogger(__name__)

# Whose session each session key was when this process last read it (key -> user id as the
# session stores it); emptied when it holds MANY (the next read of each pays a round trip).
ACCOUNTS: dict[str, str] = {}
MANY = 50_000


def _away(what: str, exc: Exception) -> None:
    log.warning("session %s without the cache (Redis away?): %r", what, exc)


class SessionStore(cached_db.SessionStore):
    cache_key_prefix = "session:"

    def load(self):
        key = self.session_key  # the database store forgets a key it doesn't hold
        account = ACCOUNTS.get(key)
        keys = [self.cache_key, *(backends.row_keys(account) if account else ())]
        try:
            got = self._cache.get_many(keys)
        except Exception as exc:
            _away("read", exc)
            return DatabaseStore.load(self)
        data = got.get(self.cache_key)
        if data is None:
            stored = self._get_session_from_db()
            data = self.decode(stored.session_data) if stored else {}
            if stored:
                self._keep(data, self.get_expiry_age(expiry=stored.expire_date))
        named = data.get(SESSION_KEY)
        if named is None:
            ACCOUNTS.pop(key, None)
        elif named == account:
            backends.read_ahead(account, got)
        else:
            if len(ACCOUNTS) >= MANY:
                ACCOUNTS.clear()
            ACCOUNTS[key] = named
        return data

    def exists(self, session_key):
        return DatabaseStore.exists(self, session_key)

    def save(self, must_create=False):
        DatabaseStore.save(self, must_create)
        self._keep(self._session, self.get_expiry_age())

    def delete(self, session_key=None):
        DatabaseStore.delete(self, session_key)
        session_key = session_key or self.session_key
        if session_key is None:
            return
        try:
            self._cache.delete(self.cache_key_prefix + session_key)
        except Exception as exc:
            _away("deleted", exc)

    def _keep(self, data: dict, expiry_age: int) -> None:
        try:
            self._cache.set(self.cache_key, data, min(KEPT, expiry_age))
        except Exception as exc:
            _away("kept", exc)

    # The async doors (Django's alogout, a socket's session) go through the same guarded code.
    async def aload(self):
        return await sync_to_async(self.load)()

    async def aexists(self, session_key):
        return await sync_to_async(self.exists)(session_key)

    async def asave(self, must_create=False):
        await sync_to_async(self.save)(must_create)

    async def adelete(self, session_key=None):
        await sync_to_async(self.delete)(session_key)
