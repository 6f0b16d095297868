"""Small ASGI apps for tests/test_server.py, which runs the site's server on them."""

import asyncio
import gc
import json


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
    state = {"frozen": gc.get_freeze_count(), "thresholds": gc.get_threshold()}
    await _answer(send, json.dumps(state).encode())
