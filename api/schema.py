"""The published protocol: a JSON Schema (draft 2020-12) for every message each socket sends
and accepts, and an OpenAPI 3.1 document for the HTTP endpoints programs use. Served at
/api/schema/<name>.json; tests check the server's real messages against them.

An action (``act``'s ``action``, each of ``legal``) and a seat's ``view`` are the game's own:
the envelope is fixed here, and their contents are listed by the rules pages and, exactly as
they are to be sent, by ``legal`` in every state message."""

from __future__ import annotations

from gameplay.engine import STRENGTHS
from lobby.chat import PHRASES

DRAFT = "https://json-schema.org/draft/2020-12/schema"
BASE = "/api/schema/"

text = {"type": "string"}
whole = {"type": "integer", "minimum": 0}
nullable_text = {"type": ["string", "null"]}
action = {
    "type": "object",
    "required": ["type"],
    "properties": {"type": text},
    "description": "One of the game's actions, exactly as `legal` lists it.",
}
member = {
    "type": "object",
    "required": ["name", "online"],
    "additionalProperties": False,
    "properties": {"name": text, "online": {"type": "boolean"}},
}
seat = {
    "type": "object",
    "required": ["name", "bot", "strength", "bot_account", "wins", "presence"],
    "additionalProperties": False,
    "properties": {
        "name": text,
        "bot": {"type": "boolean", "description": "A computer player's own seat."},
        "strength": {
            "enum": [*STRENGTHS, None],
            "description": "How well a computer player's own seat plays; null for anyone else.",
        },
        "bot_account": {"type": "boolean", "description": "A bot account sits here."},
        "wins": {"type": ["integer", "null"], "minimum": 0},
        "presence": {"enum": ["online", "reconnecting", "computer", None]},
    },
}
room_fields = {
    "room": {"type": "string", "pattern": "^[A-Z]{5}$"},
    "host": {"type": "boolean"},
    "members": {"type": "array", "items": member},
    "notice": text,
}


def _message(kind: str, required: list[str], properties: dict, description: str) -> dict:
    return {
        "type": "object",
        "description": description,
        "required": ["type", *required],
        "additionalProperties": False,
        "properties": {"type": {"const": kind}, **properties},
    }


error = _message(
    "error",
    ["message"],
    {
        "message": {"type": "string", "minLength": 1},
        "id": text,
        "retry_after": {"type": "number", "minimum": 0},
    },
    "Something was refused or went wrong, as a sentence for a person; nothing changed. "
    "`id` echoes the act's; `retry_after` says when to try again.",
)
pong = _message("pong", [], {}, "The answer to a ping.")
ping = _message("ping", [], {}, "Are you there?")
sync = _message("sync", [], {}, "Send me the current state now.")

TABLE_OUT = {
    "state": _message(
        "state",
        [
            "seq",
            "game",
            "game_id",
            "seed_sha256",
            "seat",
            "view",
            "legal",
            "to_act",
            "over",
            "result",
            "seats",
            "speed_play",
            "room",
            "host",
            "members",
        ],
        {
            "seq": whole,
            "game": text,
            "game_id": whole,
            "seed_sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
            "seat": {"type": ["integer", "null"], "minimum": 0},
            "view": {"type": "object"},
            "legal": {"type": "array", "items": action},
            "to_act": {"type": "array", "items": whole},
            "over": {"type": "boolean"},
            "result": {"type": ["object", "null"]},
            "seats": {"type": "array", "items": seat, "minItems": 1},
            "speed_play": {"enum": ["normal", "fast", "instant"]},
            **room_fields,
        },
        "The table as this connection may see it, at once and after every action.",
    ),  # fmt: skip
    "lobby": _message("lobby", ["room", "host", "members"], room_fields, "The room between games."),
    "ack": _message(
        "ack",
        ["id", "seq"],
        {"id": text, "seq": whole},
        "The act with this id is in the log as action `seq`.",
    ),
    "hint": _message(
        "hint",
        ["hint"],
        {
            "hint": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "required": ["message"],
                        "properties": {
                            "action": {"oneOf": [{"type": "null"}, action]},
                            "message": text,
                        },
                    },
                ]
            }
        },
        "The game's advice for this seat, or null.",
    ),
    "chat": _message(
        "chat",
        ["seat", "name", "phrase", "text"],
        {
            "seat": whole,
            "name": text,
            "phrase": {"enum": list(PHRASES)},
            "text": {"enum": list(PHRASES.values())},
        },
        "A player at the table said a quick chat phrase: `text` is how the table shows it.",
    ),
    "watchers": _message(
        "watchers",
        ["count"],
        {"count": {"type": "integer", "minimum": 0}},
        "How many spectators watch the table, sent whenever it changes.",
    ),
    "error": error,
    "pong": pong,
}
TABLE_IN = {
    "act": _message(
        "act",
        ["action", "seq"],
        {
            "action": action,
            "seq": {
                "oneOf": [whole, {"type": "string", "pattern": "^[0-9]+$"}],
                "description": "The seq of the state acted on.",
            },
            "id": {"type": "string", "maxLength": 64},
        },
        "Play one of `legal`.",
    ),
    "sync": sync,
    "hint": _message("hint", [], {}, "Ask the game for advice."),
    "speed_play": _message(
        "speed_play",
        ["speed"],
        {"speed": {"enum": ["normal", "fast", "instant"]}},
        "The host sets the computer players' pace.",
    ),
    "chat": _message(
        "chat",
        ["phrase"],
        {
            "phrase": {"enum": list(PHRASES), "description": "One of the quick chat phrases."},
            "id": {"type": "string", "maxLength": 64},
        },
        "A seated player says a quick chat phrase to the table (an id sent again is refused).",
    ),
    "ping": ping,
}
QUEUE_OUT = {
    "queue": {
        "type": "object",
        "description": "The ranked queue as this person sees it.",
        "required": ["type", "game", "status"],
        "properties": {
            "type": {"const": "queue"},
            "game": text,
            "title": text,
            "status": {"enum": ["none", "waiting", "matched", "left"]},
            "rating": {"type": ["integer", "null"]},
            "provisional": {"type": ["boolean", "null"]},
            "waited": {"type": ["number", "null"]},
            "window": {"type": ["number", "null"]},
            "fill_after": {"type": ["number", "null"]},
            "seats": {"type": ["integer", "null"]},
            "room": nullable_text,
            "url": nullable_text,
            "waiting": {"type": "array", "items": {"type": "object"}},
        },
    },
    "error": error,
    "pong": pong,
}
QUEUE_IN = {"leave": _message("leave", [], {}, "Leave the queue."), "sync": sync, "ping": ping}

CHALLENGE = {
    "type": "object",
    "required": [
        "id", "challenger", "challenged", "game", "rated", "status", "room", "created", "expires",
    ],
    "additionalProperties": False,
    "properties": {
        "id": whole,
        "challenger": text,
        "challenged": text,
        "game": text,
        "rated": {"type": "boolean"},
        "status": {"enum": ["open", "accepted", "declined", "cancelled", "expired"]},
        "room": {"type": ["string", "null"], "pattern": "^[A-Z]{5}$"},
        "created": {"type": "string", "format": "date-time"},
        "expires": {"type": "string", "format": "date-time"},
    },
}  # fmt: skip
BOT_OUT = {
    "challenges": _message(
        "challenges",
        ["challenges"],
        {"challenges": {"type": "array", "items": {"$ref": "#/$defs/Challenge"}}},
        "The account's open challenges, made and received.",
    ),
    "challenge": _message(
        "challenge",
        ["challenge"],
        {"challenge": {"$ref": "#/$defs/Challenge"}},
        "One of the account's challenges changed.",
    ),
    "error": error,
    "pong": pong,
}
BOT_IN = {"sync": sync, "ping": ping}


def _socket_schema(name: str, title: str, path: str, messages: dict[str, dict], defs=None):
    return {
        "$schema": DRAFT,
        "$id": f"{BASE}{name}.json",
        "title": title,
        "description": f"Every message on {path}, told apart by `type`.",
        "oneOf": [{"$ref": f"#/$defs/{kind}"} for kind in messages],
        "$defs": {**(defs or {}), **messages},
    }


def socket_schemas() -> dict[str, dict]:
    defs = {"Challenge": CHALLENGE}
    return {
        "table-out": _socket_schema(
            "table-out", "What the table socket sends", "/ws/rooms/<CODE>/?format=json", TABLE_OUT
        ),
        "table-in": _socket_schema(
            "table-in", "What the table socket accepts", "/ws/rooms/<CODE>/?format=json", TABLE_IN
        ),
        "queue-out": _socket_schema(
            "queue-out", "What the queue socket sends", "/ws/queue/<kind>/?format=json", QUEUE_OUT
        ),
        "queue-in": _socket_schema(
            "queue-in", "What the queue socket accepts", "/ws/queue/<kind>/?format=json", QUEUE_IN
        ),
        "bot-out": _socket_schema(
            "bot-out", "What the bot event socket sends", "/ws/bot/", BOT_OUT, defs
        ),
        "bot-in": _socket_schema(
            "bot-in", "What the bot event socket accepts", "/ws/bot/", BOT_IN, defs
        ),
    }


def _json_answer(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


REFUSAL = {
    "type": "object",
    "required": ["ok", "message"],
    "properties": {"ok": {"const": False}, "message": {"type": "string"}},
}
ONE = {
    "type": "object",
    "required": ["ok", "challenge"],
    "properties": {"ok": {"const": True}, "challenge": {"$ref": "#/components/schemas/Challenge"}},
}


REFUSED = {
    400: "Bad input",
    401: "No account: the token is wrong or revoked",
    403: "Not allowed, or the token lacks the scope",
    404: "No such player or challenge",
    409: "Answered already",
    429: "Too many requests for this token, or too many open challenges",
}


def _refusals(*codes: int) -> dict:
    return {str(c): {"$ref": f"#/components/responses/R{c}"} for c in codes}


def openapi() -> dict:
    """The HTTP endpoints a program uses, with Bearer tokens."""
    id_param = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
    challenge_form = {
        "type": "object",
        "required": ["opponent", "game"],
        "properties": {
            "opponent": {"type": "string", "description": "A username."},
            "game": {"type": "string", "description": "A kind two can play."},
            "rated": {"type": "boolean", "default": False},
        },
    }
    room_redirect = {"description": "A redirect to `/rooms/<CODE>/` (the room's code)."}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Cubic Cards for programs",
            "version": "1",
            "description": "Send `Authorization: Bearer <token>` (make one at "
            "/accounts/tokens/). Requests with a token need no CSRF token. Limits: "
            "TOKEN_RATE requests a minute per token (429). Play happens on the table "
            "socket: see /api/schema/table-in.json and table-out.json.",
        },
        "security": [{"bearer": []}],
        "paths": {
            "/api/me/": {
                "get": {
                    "summary": "Who this token acts for",
                    "responses": {
                        "200": _json_answer(
                            {
                                "type": "object",
                                "required": ["ok", "username", "role", "scopes"],
                                "properties": {
                                    "ok": {"const": True},
                                    "username": text,
                                    "role": {"enum": ["person", "computer", "bot"]},
                                    "scopes": {"type": "array", "items": text},
                                },
                            },
                            "The account",
                        ),
                        **_refusals(401, 429),
                    },
                }
            },
            "/api/challenges/": {
                "get": {
                    "summary": "Your open challenges, made and received",
                    "responses": {
                        "200": _json_answer(
                            {
                                "type": "object",
                                "required": ["ok", "challenges"],
                                "properties": {
                                    "ok": {"const": True},
                                    "challenges": {
                                        "type": "array",
                                        "items": {"$ref": "#/components/schemas/Challenge"},
                                    },
                                },
                            },
                            "The challenges",
                        ),
                        **_refusals(401, 429),
                    },
                },
                "post": {
                    "summary": "Challenge a bot (or, as a bot, a person who allows it)",
                    "requestBody": {
                        "content": {
                            "application/json": {"schema": challenge_form},
                            "application/x-www-form-urlencoded": {"schema": challenge_form},
                        }
                    },
                    "responses": {
                        "201": _json_answer(ONE, "The challenge, open"),
                        **_refusals(400, 401, 403, 404, 429),
                    },
                },
            },
            "/api/challenges/{id}/": {
                "get": {
                    "summary": "One of your challenges",
                    "parameters": [id_param],
                    "responses": {"200": _json_answer(ONE, "The challenge"), **_refusals(401)},
                }
            },
            "/api/challenges/{id}/accept": {
                "post": {
                    "summary": "Accept (the challenged side): a table for the two, started",
                    "parameters": [id_param],
                    "responses": {
                        "200": _json_answer(ONE, "The challenge, accepted, with its room"),
                        **_refusals(401, 403, 404, 409, 429),
                    },
                }
            },
            "/api/challenges/{id}/decline": {
                "post": {
                    "summary": "Decline, or (by the challenger) withdraw",
                    "parameters": [id_param],
                    "responses": {
                        "200": _json_answer(ONE, "The challenge, declined or cancelled"),
                        **_refusals(401, 404, 409, 429),
                    },
                }
            },
            "/rooms/": {
                "post": {
                    "summary": "Create a room (you host it)",
                    "responses": {"302": room_redirect, **_refusals(401, 403, 429)},
                }
            },
            "/rooms/join/": {
                "post": {
                    "summary": "Join a room by its code",
                    "requestBody": {
                        "content": {
                            "application/x-www-form-urlencoded": {
                                "schema": {
                                    "type": "object",
                                    "required": ["code"],
                                    "properties": {"code": {"type": "string"}},
                                }
                            }
                        }
                    },
                    "responses": {"302": room_redirect, **_refusals(401, 403, 429)},
                }
            },
            "/rooms/{code}/start/": {
                "post": {
                    "summary": "Start a game (the host): `game`, `seats`, `rules`, `turn_timer`",
                    "parameters": [
                        {"name": "code", "in": "path", "required": True, "schema": text}
                    ],
                    "responses": {"302": room_redirect, **_refusals(401, 403, 429)},
                }
            },
            "/games/{id}/log.json": {
                "get": {
                    "summary": "A finished game's seed, rules, players and actions",
                    "parameters": [id_param],
                    "responses": {"200": {"description": "The log"}},
                }
            },
        },
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {"Challenge": CHALLENGE, "Refusal": REFUSAL},
            "responses": {
                f"R{code}": _json_answer({"$ref": "#/components/schemas/Refusal"}, said)
                for code, said in REFUSED.items()
            },
        },
    }


def documents() -> dict[str, dict]:
    return {**socket_schemas(), "openapi": openapi()}
