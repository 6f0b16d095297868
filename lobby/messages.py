"""Reading what a client sends on a socket, before anything acts on it: size, JSON, nesting,
text, and the fields of an act. Bad input raises BadMessage with a sentence for a person and
nothing else, so a consumer answers it and carries on."""

from __future__ import annotations

import json
from typing import Any

from gameplay.moves import MAX_ACTION_ID

from .words import say

MAX_MESSAGE = 4096  # characters; the largest real action is far smaller
MAX_DEPTH = 8  # nesting of objects and lists; a real action needs 3 ({"action": {"cards": []}})

TOO_LARGE = say("That message is too large.")
NOT_JSON = say("Messages must be JSON.")
TOO_DEEP = say("That message is nested too deeply.")
BAD_TEXT = say("Messages must be plain text: no NUL characters or unpaired surrogates.")
NOT_OBJECT = say('A message must be a JSON object with a "type".')
MALFORMED_SEQ = say(
    'That message is malformed: "seq" must be the number of the last state you saw '
    "(a whole number)."
)


class BadMessage(Exception):
    def __init__(self, message: str, action_id: str = ""):
        super().__init__(message)
        self.message, self.action_id = message, action_id


def parse(raw: str | bytes | None, limit: int = MAX_MESSAGE) -> dict[str, Any]:
    """A client's message as a JSON object whose every string is storable, printable text."""
    if raw is None or len(raw) > limit:
        raise BadMessage(TOO_LARGE)
    if isinstance(raw, bytes):
        try:
            raw = raw.decode()
        except UnicodeDecodeError as exc:
            raise BadMessage(NOT_JSON) from exc
    # Checked before parsing: json's decoder recurses once per level and would overflow.
    if raw.count("[") + raw.count("{") > MAX_DEPTH and _depth(raw) > MAX_DEPTH:
        raise BadMessage(TOO_DEEP)
    try:
        message = json.loads(raw)
    except ValueError as exc:
        raise BadMessage(NOT_JSON) from exc
    _check_text(message)
    if not isinstance(message, dict):
        raise BadMessage(NOT_OBJECT)
    return message


def _depth(text: str) -> int:
    """How deeply the brackets of a JSON text nest, ignoring those inside strings."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _check_text(value: Any) -> None:
    """PostgreSQL can't store NUL in JSON and a lone surrogate can't be sent back as UTF-8:
    refuse both wherever they are (keys too), so no answer or log entry ever meets them."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and not _plain(item):
            raise BadMessage(BAD_TEXT)


def _plain(text: str) -> bool:
    if "\x00" in text:
        return False
    if text.isascii():
        return True
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def read_act(message: dict[str, Any]) -> tuple[Any, int, str]:
    """An act's (action, seq, id). `seq` is an int, sent as a number or as ASCII digits;
    anything else (text, true, null, missing) is a malformed message, said so, never "the
    table moved on"."""
    action_id = message.get("id", "")
    if isinstance(action_id, int) and not isinstance(action_id, bool):
        action_id = str(action_id)
    if not isinstance(action_id, str) or len(action_id) > MAX_ACTION_ID:
        raise BadMessage(say("An action id is text of up to {n} characters.", n=MAX_ACTION_ID))
    action = message.get("action")
    if isinstance(action, str):  # an htmx form sends JSON as text
        try:
            action = parse(action)
        except BadMessage as exc:
            raise BadMessage(say("The action must be a JSON object."), action_id) from exc
    seq = _seq(message.get("seq"))
    if seq is None:
        raise BadMessage(MALFORMED_SEQ, action_id)
    return action, seq, action_id


def _seq(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    # "²".isdigit() is true and int() refuses it: only ASCII digits are a number here.
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19:
        return int(value)
    return None
