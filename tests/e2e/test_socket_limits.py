"""Limits of the socket that only the real server shows: a frame past the cap is refused with
a close code and a reason, not a dropped connection."""

import time

import pytest
import websockets
import websockets.sync.client

from .client import SiteClient, receive

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_huge_frame_is_closed_with_a_code_and_a_reason(daphne_server):
    host = SiteClient(daphne_server)
    code = host.create_room()
    with host.socket(code) as ws:
        assert receive(ws)["type"] == "lobby"
        with pytest.raises(websockets.ConnectionClosed):
            # Past the 64 KB cap (16 MB did the same, but a busy machine may still be
            # writing it when the server, having said why, drops the connection).
            ws.send("x" * (256 * 1024))
            ws.recv(timeout=10)
        time.sleep(0.5)  # the reader may still be handling the close frame
        said = ws.protocol.close_rcvd
    assert said is not None, "the server dropped the connection without a word"
    assert said.code == 1009 and "exceeds" in said.reason


def _turned_away(ws) -> tuple[int, str]:
    said = receive(ws)
    assert said["type"] == "error"
    with pytest.raises(websockets.ConnectionClosed) as closed:
        ws.recv(timeout=10)
    return closed.value.rcvd.code, said["message"]


def test_a_socket_turned_away_hears_the_documented_code_and_why(daphne_server):
    code = SiteClient(daphne_server).create_room()
    stranger = SiteClient(daphne_server)
    stranger.get(f"/rooms/{code}/")  # the join page: a guest, but not in the room
    with stranger.socket(code) as ws:
        assert _turned_away(ws) == (4403, "Join the room by its code first.")
    url = daphne_server.replace("http://", "ws://") + f"/ws/rooms/{code}/?format=json"
    with websockets.sync.client.connect(url, additional_headers={"Origin": daphne_server}) as ws:
        assert _turned_away(ws)[0] == 4401


@pytest.mark.parametrize("path", ["/ws/kudos/2/", "/ws/queue/../x/", "/ws/nothing", "/ws/"])
def test_a_socket_at_no_address_is_turned_away_with_a_code_and_why(daphne_server, path):
    client = SiteClient(daphne_server)
    with client.socket_at(path) as ws:
        assert _turned_away(ws) == (4404, "There is no socket at this address.")
