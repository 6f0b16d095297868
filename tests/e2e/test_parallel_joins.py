"""One person is one member, however many joins they send at once."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.sessions.backends.db import SessionStore

from lobby.models import Member

from .client import SiteClient

pytestmark = pytest.mark.django_db(transaction=True)


def test_twenty_parallel_joins_from_one_new_guest_make_one_member(daphne_server):
    code = SiteClient(daphne_server).create_room()
    guest = SiteClient(daphne_server)
    session = SessionStore()
    session.create()  # a new guest session: a cookie, nothing in it yet
    guest.set_cookie("sessionid", session.session_key)
    with ThreadPoolExecutor(20) as pool:
        paths = list(pool.map(lambda _: guest.post("/rooms/join/", {"code": code}), range(20)))
    assert paths == [f"/rooms/{code}/"] * 20
    assert Member.objects.filter(room__code=code).count() == 2
