#!/usr/bin/env python3
"""A whole Cubic Cards bot in one file: Python's standard library and `websockets`.

    pip install websockets
    CUBICCARDS_TOKEN=cc_... python examples/bot.py --server https://cards.example
    CUBICCARDS_TOKEN=cc_... python examples/bot.py --server ... --challenge otherbot --game gin

It signs in with an access token (make one at /accounts/tokens/, scopes play and read; turn
the account into a bot account at /accounts/bot/ first), listens on the bot event socket
(/ws/bot/) for challenges, accepts every challenge made to it, and plays each game on the
table socket (/ws/rooms/<CODE>/?format=json) with a simple rule: go out (knock, gin) when it
can, else a legal action at random, never folding or passing when something else is allowed. A dropped socket is opened again
(with growing pauses); an action is sent with an id, so sending it again after a drop is safe.
The protocol is at /api/ (docs/protocol.md).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import logging
import os
import random
import urllib.error
import urllib.parse
import urllib.request

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

log = logging.getLogger("bot")

AVOID = {"fold", "pass", "leave", "drop"}  # played only when nothing else is legal
GO_OUT = {"gin", "knock", "go_out"}  # always taken when legal: they end a hand
REFUSED = {4401, 4403, 4404}  # close codes that a reconnect would not mend
QUIET = 5.0  # seconds without news at a table before asking for its state again
TOO_MANY = 4429  # the token's requests this minute are used up: wait for the next minute


def choose(legal: list[dict], rng: random.Random) -> dict:
    """The simple strategy: go out when it can; otherwise any legal action but giving up, at
    random (always the first would discard the card it just drew, and a hand would never
    end)."""
    out = [action for action in legal if action.get("type") in GO_OUT]
    if out:
        return out[0]
    keep = [action for action in legal if action.get("type") not in AVOID]
    return rng.choice(keep or legal)


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

    async def socket(self, path: str, handle, on_quiet=None) -> None:
        """Hold the socket at `path` open, reopening it when it drops, and hand every
        message to `handle(ws, message)`, which returns True when it is done; after QUIET
        seconds without a message, call `on_quiet(ws)`."""
        pause = 0.5
        while True:
            try:
                async with connect(
                    self.ws_base + path, additional_headers=self.headers, open_timeout=15
                ) as ws:
                    pause = 0.5
                    while True:
                        try:
                            raw = await asyncio.wait_for(ws.recv(), QUIET)
                        except TimeoutError:
                            if on_quiet is not None:
                                await on_quiet(ws)
                            continue
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
        await self.socket(f"/ws/rooms/{room}/?format=json", table.on_message, table.on_quiet)
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
        self.rng = random.Random(room)
        self.acted_at = -1
        self.pending: dict | None = None  # the last act sent, until it is acknowledged
        self.asking: dict | None = None  # the state whose advice was asked for
        self.actions = 0
        self.ws = None
        self.game = ""
        self.result = None

    async def on_message(self, ws, message: dict) -> bool:
        kind = message["type"]
        log.debug("%s < %s seq=%s legal=%s", self.room, kind, message.get("seq"),
                  len(message.get("legal") or []))  # fmt: skip
        if ws is not self.ws:  # a new connection: an act that may not have arrived goes again
            self.ws = ws
            if self.pending is not None:
                await ws.send(json.dumps(self.pending))  # its id makes it apply at most once
            elif self.asking is not None:
                self.acted_at = -1  # the advice asked for went with the old socket: ask again
        if kind == "state":
            self.game = message["game"]
            if message["over"]:
                self.result = message["result"]
                return True
            if message["legal"] and message["seq"] != self.acted_at:
                # Ask the game's advice first (where a game has none, the answer is null).
                self.acted_at, self.asking = message["seq"], message
                await ws.send(json.dumps({"type": "hint"}))
        elif kind == "hint" and self.asking is not None:
            advice = (message.get("hint") or {}).get("action")
            legal = self.asking["legal"]
            await self.act(ws, advice if advice in legal else choose(legal, self.rng))
        elif kind == "ack":
            self.pending = None
        elif kind == "error" and self.asking is not None and self.pending is None:
            # No advice just now (asked too often): play by the simple rule.
            await self.act(ws, choose(self.asking["legal"], self.rng))
        elif kind == "error":
            if "retry_after" in message and self.pending is not None:
                await asyncio.sleep(message["retry_after"])  # dropped: the same act again
                await ws.send(json.dumps(self.pending))
            else:
                log.warning("%s: %s", self.room, message["message"])
                self.acted_at = -1  # a refused act: act again on the next state
        return False

    async def on_quiet(self, ws) -> None:
        """Nothing for a while: whatever went astray (an answer lost with a socket), ask for
        the table again and act on it afresh. An act repeated by mistake is refused, never
        applied twice (its seq has passed)."""
        self.acted_at, self.asking = -1, None
        await ws.send(json.dumps({"type": "sync"}))

    async def act(self, ws, action: dict) -> None:
        seq, self.asking = self.asking["seq"], None
        self.pending = {"type": "act", "action": action, "seq": seq}
        self.pending["id"] = f"{self.room}-{next(self.ids)}"
        await ws.send(json.dumps(self.pending))
        self.actions += 1
        log.debug("%s > act %s at %s", self.room, action.get("type"), seq)
        if self.bot.drop_after and self.actions % self.bot.drop_after == 0:
            ws.transport.abort()  # as a network fault would: no closing handshake


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="e.g. http://127.0.0.1:8000")
    parser.add_argument(
        "--token",
        default=os.environ.get("CUBICCARDS_TOKEN", ""),
        help="an access token (cc_...); better in the environment, CUBICCARDS_TOKEN, where "
        "other users of the machine can't list it",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log every message")
    parser.add_argument("--challenge", default="", help="challenge this bot account first")
    parser.add_argument("--game", default="war", help="the game(s) to challenge to: gin,war")
    parser.add_argument("--rated", action="store_true", help="a rated challenge")
    parser.add_argument("--games", type=int, default=0, help="stop after N games (0: never)")
    parser.add_argument("--drop-after", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.token:
        parser.error("give a token: --token or CUBICCARDS_TOKEN")
    level = logging.DEBUG if args.verbose else logging.INFO
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("websockets").setLevel(logging.INFO)  # its debug lines show the token
    bot = Bot(args.server, args.token, games=args.games, drop_after=args.drop_after)
    asyncio.run(bot.run(args.challenge, args.game, args.rated))
    print(json.dumps({"finished": bot.finished, "reconnects": bot.reconnects}))


if __name__ == "__main__":
    main()
