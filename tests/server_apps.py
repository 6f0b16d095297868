"""Small ASGI apps for tests/test_server.py, which runs the site's server on them."""

import asyncio
import gc
import json
import sys
import time


def _wait_on(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.run_coroutine_threadsafe(asyncio.sleep(3600), loop).result()


async def _answer(send, body: bytes) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})


async def waits_on_the_loop(scope, receive, send):
    """Leaves a thread waiting on the event loop for longer than the server runs, as a sync
    view calling async code does."""
    if scope["type"] != "http":
        return
    loop = asyncio.get_running_loop()
    loop.run_in_executor(None, _wait_on, loop)
    await _answer(send, b"waiting")


async def garbage_collection(scope, receive, send):
    """How the server process collects garbage."""
    if scope["type"] != "http":
        return
    state = {
        "frozen": gc.get_freeze_count(),
        "thresholds": gc.get_threshold(),
        "switch_interval": sys.getswitchinterval(),
    }
    await _answer(send, json.dumps(state).encode())


async def holds_the_loop(scope, receive, send):
    """A request that keeps the event loop busy for 4 s (no connection is accepted meanwhile);
    a WebSocket is accepted at once."""
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        return
    if scope["type"] != "http":
        return
    time.sleep(4)
    await _answer(send, b"held")


async def accepts_slowly(scope, receive, send):
    """A WebSocket accepted 8 s after its request, as a socket waiting on a busy database."""
    if scope["type"] != "websocket":
        return
    await receive()
    await asyncio.sleep(8)
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": "accepted"})
    await receive()
