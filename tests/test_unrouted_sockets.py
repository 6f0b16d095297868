"""A socket path that matches no route is turned away like any refused socket: accepted, told
why, closed with 4404; never a handshake failing with an exception."""

import pytest
from channels.testing import WebsocketCommunicator

from cubiccards.asgi import application
from tests.socket_helpers import refused

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

HEADERS = [(b"origin", b"http://testserver"), (b"host", b"testserver")]


@pytest.mark.parametrize("path", ["/ws/kudos/2/", "/ws/queue/../x/", "/ws/rooms/", "/x"])
async def test_an_unrouted_path_is_refused_with_4404(path):
    communicator = WebsocketCommunicator(application, path, headers=HEADERS)
    assert await refused(communicator) == 4404
