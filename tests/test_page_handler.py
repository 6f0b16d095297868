"""A page through the site's ASGI application (cubiccards.handler): the sync middleware chain
and the view run in one hop to the request's thread, not a hop back to the event loop between
the middleware and each view middleware, the view and the template's render; and a page leaves
nothing in reference cycles for the garbage collector."""

import gc

import pytest
from asgiref.sync import SyncToAsync, async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.test import Client

from accounts.models import User

# The page is served on threads of its own: what the test wrote must be committed.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("real_services")]


async def get(path: str, cookie: str) -> tuple[int, bytes]:
    from cubiccards.asgi import django_asgi_app  # the HTTP part, without embedded beat

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), (b"cookie", cookie.encode())],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    talk = ApplicationCommunicator(django_asgi_app, scope)
    await talk.send_input({"type": "http.request", "body": b""})
    start = await talk.receive_output(10)
    body = b""
    while True:
        part = await talk.receive_output(10)
        body += part.get("body", b"")
        if not part.get("more_body"):
            break
    await talk.wait(10)
    return start["status"], body


def test_a_signed_in_page_takes_one_hop_to_its_thread(monkeypatch):
    client = Client()
    client.force_login(User.objects.create_user("hopper", password=None))
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    hops = []
    real = SyncToAsync.__call__

    async def counted(self, *args, **kwargs):
        hops.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    status, page = async_to_sync(get)("/", cookie)

    assert status == 200
    assert b'action="/accounts/logout/"' in page  # signed in: the session and user were read
    assert b"hopper" in page
    # Django's own: request_started's receivers, the page, closing the response.
    assert len(hops) <= 3, hops


def test_a_page_leaves_nothing_for_the_garbage_collector():
    """What a page leaves in reference cycles waits for a garbage collection, which holds every
    table of a daphne while it looks: the request (its user, messages and htmx details), the
    template's context, the database wrapper of the request's own context, a cancelled task's
    traceback. Django's handler, templates and PostgreSQL wrapper left about 110 such objects a
    signed-in page. (Django's own query compiler still leaves three for each query that joins
    a related row, `select_related`: a recursive closure; these pages make none.)"""
    client = Client()
    client.force_login(User.objects.create_user("tidy", password=None))
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    for path in ("/", "/icon.svg", "/no-such-page/"):
        async_to_sync(get)(path, cookie)  # anything built once a process, built now
        gc.collect()
        gc.disable()
        try:
            for _ in range(5):
                status, _page = async_to_sync(get)(path, cookie)
            left = gc.collect()
        finally:
            gc.enable()
        assert status in (200, 404)
        assert left == 0, (path, left)
