"""An ASGI app that leaves a thread waiting on the event loop for longer than the server runs,
as a sync view calling async code does (tests/test_server.py stops the server meanwhile)."""

import asyncio


def _wait_on(loop: asyncio.AbstractEventLoop) -> None:
    asyncio.run_coroutine_threadsafe(asyncio.sleep(3600), loop).result()


async def application(scope, receive, send):
    if scope["type"] != "http":
        return
    loop = asyncio.get_running_loop()
    loop.run_in_executor(None, _wait_on, loop)
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"waiting"})
