#!/usr/bin/env python3
"""A whole Cubic Cards bot in one file: Python's standard library and `websockets`.

    pip install websockets
    python examples/bot.py --server https://cards.example --token cc_...
    python examples/bot.py --server ... --token ... --challenge otherbot --game gin,poker

It signs in with an access token (make one at /accounts/tokens/, scopes play and read; turn
the account into a bot account at /accounts/bot/ first), listens on the bot event socket
(/ws/bot/) for challenges, accepts every challenge made to it, and plays each game on the
table socket (/ws/rooms/<CODE>/?format=json) with a simple rule: the first legal action, but
never folding or passing when something else is allowed. A dropped socket is opened again
(with growing pauses); an action is sent with an id, so sending it again after a drop is safe.
The protocol is at /api/ (docs/protocol.md).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import random
import urllib.error
import urllib.parse
import urllib.request

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

log = logging.getLogger("bot")

AVOID = {"fold", "pass", "leave", "drop"}  # played only when nothing else is legal
REFUSED = {4401, 4403, 4404}  # close codes that a reconnect would not mend
TOO_MANY = 4429  # the token's requests this minute are used up: wait for the next minute


def choose(legal: list[dict]) -> dict:
    """The simple strategy: the first legal action that isn't giving up."""
    keep = [action for action in legal if action.get("type") not in AVOID]
    return (keep or legal)[0]


class Bot:
    def __init__(self, server: str, token: str, games: int = 0, drop_after: int = 0):
        self.server = server.rstrip("/")
        self.ws_base = self.server.replace("http://", "ws://").replace("https://", "wss://")
        self.headers = {"Authorization": f"Bearer {token}"}
        self.games_wanted = games  # stop after this many games (0: play forever)
        self.drop_after = drop_after  # drop the table socket after N actions (to test recovery)
        self.finished: list[dict] = []
        self.playing: dict[str, asyncio.Task] = {}
        self.me = ""
        self.done = asyncio.Event()
        self.reconnects = 0

    # ---- HTTP ------------------------------------------------------------------------------

    def http(self, method: str, path: str, fields: dict | None = None) -> dict:
        body = json.dumps(fields).encode() if fields is not None else None
        headers = {**self.headers, "Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.server + path, body, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=15) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            return json.loads(refused.read() or b"{}") | {"status": refused.code}

    async def call(self, method: str, path: str, fields: dict | None = None) -> dict:
        return await asyncio.to_thread(self.http, method, path, fields)

    # ---- sockets, reopened when they drop --------------------------------------------------

    async def socket(self, path: str, handle) -> None:
        """Hold the socket at `path` open, reopening it when it drops, and hand every
        message to `handle(ws, message)`, which returns True when it is done."""
        pause = 0.5
        while True:
            try:
                async with connect(
                    self.ws_base + path, additional_headers=self.headers, open_timeout=15
                ) as ws:
                    pause = 0.5
                    async for raw in ws:
                        if await handle(ws, json.loads(raw)):
                            return
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
                if code in REFUSED:
                    log.error("%s refused (%s): giving up", path, code)
                    return
                log.warning("%s dropped (%s): reconnecting", path, code)
                if code == TOO_MANY:
                    pause = 30
            except (OSError, InvalidStatus, TimeoutError) as exc:
                log.warning("%s could not connect (%s): retrying", path, exc)
            self.reconnects += 1
            await asyncio.sleep(pause + random.random() * pause)
            pause = min(pause * 2, 30)

    # ---- challenges ------------------------------------------------------------------------

    async def run(self, challenge: str = "", game: str = "", rated: bool = False) -> None:
        self.me = (await self.call("GET", "/api/me/"))["username"]
        log.info("signed in as %s", self.me)
        events = asyncio.create_task(self.socket("/ws/bot/", self.on_event))
        for kind in filter(None, game.split(",") if challenge else []):
            made = await self.call(
                "POST", "/api/challenges/", {"opponent": challenge, "game": kind, "rated": rated}
            )
            log.info("challenged %s to %s: %s", challenge, kind, made.get("message") or "open")
        await self.done.wait()
        events.cancel()
        for task in self.playing.values():
            task.cancel()

    async def on_event(self, ws, message: dict) -> bool:
        if message["type"] == "challenges":
            for challenge in message["challenges"]:
                await self.on_challenge(challenge)
        elif message["type"] == "challenge":
            await self.on_challenge(message["challenge"])
        elif message["type"] == "error":
            log.warning("the event socket says: %s", message["message"])
        return self.done.is_set()

    async def on_challenge(self, challenge: dict) -> None:
        if challenge["status"] == "open" and challenge["challenged"] == self.me:
            answer = await self.call("POST", f"/api/challenges/{challenge['id']}/accept")
            challenge = answer.get("challenge") or challenge
            if not answer.get("ok"):
                log.warning("could not accept: %s", answer.get("message"))
        room = challenge.get("room")
        if challenge["status"] == "accepted" and room and room not in self.playing:
            log.info("playing %s in room %s", challenge["game"], room)
            self.playing[room] = asyncio.create_task(self.play(room))

    # ---- a table ----------------------------------------------------------------------------

    async def play(self, room: str) -> None:
        table = Table(self, room)
        await self.socket(f"/ws/rooms/{room}/?format=json", table.on_message)
        if table.result is not None:
            self.finished.append({"room": room, "game": table.game, "result": table.result})
            log.info("game over in %s: %s", room, table.result)
        if self.games_wanted and len(self.finished) >= self.games_wanted:
            self.done.set()


class Table:
    """One game on the table socket: act on each new state that lists actions for us."""

    def __init__(self, bot: Bot, room: str):
        self.bot, self.room = bot, room
        self.ids = itertools.count(1)
        self.acted_at = -1
        self.pending: dict | None = None  # the last act sent, until it is acknowledged
        self.actions = 0
        self.ws = None
        self.game = ""
        self.result = None

    async def on_message(self, ws, message: dict) -> bool:
        kind = message["type"]
        if ws is not self.ws:  # a new connection: an act that may not have arrived goes again
            self.ws = ws
            if self.pending is not None:
                await ws.send(json.dumps(self.pending))  # its id makes it apply at most once
        if kind == "state":
            self.game = message["game"]
            if message["over"]:
                self.result = message["result"]
                return True
            if message["legal"] and message["seq"] != self.acted_at:
                action = choose(message["legal"])
                self.pending = {"type": "act", "action": action, "seq": message["seq"]}
                self.pending["id"] = f"{self.room}-{next(self.ids)}"
                self.acted_at = message["seq"]
                await ws.send(json.dumps(self.pending))
                self.actions += 1
                if self.bot.drop_after and self.actions % self.bot.drop_after == 0:
                    ws.transport.abort()  # as a network fault would: no closing handshake
        elif kind == "ack":
            self.pending = None
        elif kind == "error":
            if "retry_after" in message and self.pending is not None:
                await asyncio.sleep(message["retry_after"])  # dropped: the same act again
                await ws.send(json.dumps(self.pending))
            else:
                log.warning("%s: %s", self.room, message["message"])
                self.acted_at = -1  # a refused act: act again on the next state
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="e.g. http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="an access token (cc_...)")
    parser.add_argument("--challenge", default="", help="challenge this bot account first")
    parser.add_argument("--game", default="war", help="the game(s) to challenge to: gin,war")
    parser.add_argument("--rated", action="store_true", help="a rated challenge")
    parser.add_argument("--games", type=int, default=0, help="stop after N games (0: never)")
    parser.add_argument("--drop-after", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    bot = Bot(args.server, args.token, games=args.games, drop_after=args.drop_after)
    asyncio.run(bot.run(args.challenge, args.game, args.rated))
    print(json.dumps({"finished": bot.finished, "reconnects": bot.reconnects}))


if __name__ == "__main__":
    main()
