"""A small program client of the site, as a user's bot would write one: HTTP with cookies and
CSRF for rooms, and the JSON room socket for play."""

from __future__ import annotations

import http.cookiejar
import json
import urllib.error
import urllib.parse
import urllib.request

import websockets.sync.client


class SiteClient:
    def __init__(self, base_url: str):
        self.base = base_url.rstrip("/")
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.get("/")  # a guest session and a CSRF cookie

    def set_cookie(self, name: str, value: str) -> None:
        host = urllib.parse.urlparse(self.base).hostname
        self.cookies.set_cookie(
            http.cookiejar.Cookie(
                0,
                name,
                value,
                None,
                False,
                host,
                False,
                False,
                "/",
                True,
                False,
                None,
                False,
                None,
                None,
                {},
            )
        )

    def _cookie(self, name: str) -> str:
        return next(c.value for c in self.cookies if c.name == name)

    def get(self, path: str):
        return self.opener.open(self.base + path, timeout=10)

    def post(self, path: str, data: dict | None = None) -> str:
        """POST a form; returns the path it redirected to."""
        body = urllib.parse.urlencode(data or {}).encode()
        request = urllib.request.Request(
            self.base + path,
            data=body,
            headers={"X-CSRFToken": self._cookie("csrftoken"), "Referer": self.base + "/"},
        )
        response = self.opener.open(request, timeout=10)
        return urllib.parse.urlparse(response.geturl()).path

    def post_json(self, path: str, data: dict | None = None) -> dict:
        """POST a form to an endpoint that answers JSON (?format=json), 4xx answers too."""
        body = urllib.parse.urlencode(data or {}).encode()
        request = urllib.request.Request(
            self.base + path,
            data=body,
            headers={"X-CSRFToken": self._cookie("csrftoken"), "Referer": self.base + "/"},
        )
        try:
            response = self.opener.open(request, timeout=10)
        except urllib.error.HTTPError as error:
            response = error
        return json.loads(response.read())

    def sign_up(self, username: str, password: str = "a long enough pw 1") -> None:
        self.post(
            "/accounts/signup/",
            {"username": username, "password1": password, "password2": password},
        )

    def create_room(self) -> str:
        return self.post("/rooms/").strip("/").split("/")[-1]

    def socket(self, code: str, base: str | None = None):
        """The room's JSON socket, through this client's site or through `base` (one of
        several servers of the same site)."""
        return self.socket_at(f"/ws/rooms/{code}/?format=json", base)

    def socket_at(self, path: str, base: str | None = None):
        cookie = "; ".join(f"{c.name}={c.value}" for c in self.cookies)
        url = (base or self.base).replace("http://", "ws://") + path
        # No keepalive pings from the client: the server keeps its own, and a client ping sent
        # as the server closes can meet a reset that drops the server's last words unread.
        return websockets.sync.client.connect(
            url,
            additional_headers={"Cookie": cookie, "Origin": self.base},
            open_timeout=10,
            ping_interval=None,
        )


def receive(ws, timeout: float = 20) -> dict:
    return json.loads(ws.recv(timeout=timeout))


def act(ws, action: dict, seq: int) -> None:
    ws.send(json.dumps({"type": "act", "action": action, "seq": seq}))
