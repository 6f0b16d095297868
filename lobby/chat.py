"""Quick chat at a table: a seated player says one of a fixed set of phrases and emotes, and
everyone at the table (seats, the room's other people, spectators) sees it beside that seat
for a few seconds.

Only ids of the phrases below travel, never text a person typed: nothing to moderate, nothing
to store. A phrase is news to the table's sockets, not part of the game: it is not written to
the game's log, so replays and log.json never hold it.

A person may say CHAT_BURST phrases in any CHAT_BURST_WINDOW seconds and CHAT_PER_MINUTE in
any minute at one table, counted for them across all their sockets in the shared cache, in
one atomic step. A
message with an `id` is said once: the same id again (a retry after a dropped connection, or
a replay) is refused and shown to nobody."""

from __future__ import annotations

import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache
from django.utils.translation import gettext, gettext_noop

from gameplay.moves import MAX_ACTION_ID
from infra import limits as clock

from . import words
from .messages import BadMessage

if TYPE_CHECKING:
    from .models import Member, Room

log = logging.getLogger(__name__)

# id: what the table shows. The ids are the protocol (api/schema.py lists them).
PHRASES = {
    "gg": gettext_noop("Good game"),
    "wp": gettext_noop("Well played"),
    "oops": gettext_noop("Oops"),
    "thanks": gettext_noop("Thanks"),
    "hurry": gettext_noop("Hurry up?"),
    "nice": gettext_noop("Nice one!"),
    # The emotes are all from Unicode's first block of faces (6.0): every device draws them.
    "smile": "😀",
    "laugh": "😂",
    "wow": "😮",
    "sad": "😢",
    "wink": "😉",
    "cool": "😎",
}

CHAT_BURST, CHAT_BURST_WINDOW = 3, 10.0  # at most 3 phrases in any 10 seconds
CHAT_PER_MINUTE = 12  # and 12 in any minute (the burst limit alone would allow 18)
REMEMBER_IDS = 600  # seconds a chat id is remembered, so a replay is refused

MALFORMED = words.say(
    'A quick chat is {{"type": "chat", "phrase": "<id>"}}, with one of the phrase ids: {ids}.',
    ids=", ".join(PHRASES),
)
UNKNOWN = words.say(
    "There is no such quick chat phrase. Choose one of: {ids}.", ids=", ".join(PHRASES)
)
BAD_ID = words.say("A chat id is text of up to {n} characters.", n=MAX_ACTION_ID)
SPECTATORS_CANNOT_CHAT = words.say("You are watching this game: only the players can chat.")
NO_GAME = words.say("Quick chat is for the players at a game, and none is in play here.")
GONE = words.say("You are no longer in this room.")
REPLAYED = words.say("That quick chat was sent already (the same id): it is not shown again.")
UNAVAILABLE = words.say("Quick chat is unavailable for a moment. Try again shortly.")


class Refused(Exception):
    """A quick chat that is not shown; the message says why, to the sender only."""

    def __init__(self, message: str, chat_id: str = "", retry_after: float | None = None):
        super().__init__(message)
        self.message, self.chat_id, self.retry_after = message, chat_id, retry_after


def read(message: dict[str, Any]) -> tuple[str, str]:
    """A chat message's (phrase id, chat id); BadMessage for anything else. Other fields are
    ignored (a page's socket adds its own)."""
    chat_id = message.get("id", "")
    if not isinstance(chat_id, str) or len(chat_id) > MAX_ACTION_ID:
        raise BadMessage(BAD_ID)
    phrase = message.get("phrase")
    if not isinstance(phrase, str):
        raise BadMessage(MALFORMED, chat_id)
    if phrase not in PHRASES:
        raise BadMessage(UNKNOWN, chat_id)
    return phrase, chat_id


@dataclass(frozen=True)
class Said:
    """A phrase said at a table: the news its sockets hear (room.chat)."""

    said: str  # this saying's own id, the same for every socket (a page shows it once)
    seat: int
    name: str
    phrase: str
    unheard_by: tuple[str, ...]  # player keys that are not shown it

    def news(self) -> dict[str, Any]:
        return {
            "said": self.said,
            "seat": self.seat,
            "name": self.name,
            "phrase": self.phrase,
            "unheard_by": list(self.unheard_by),
        }


def message(news: dict[str, Any]) -> dict[str, Any]:
    """What a JSON socket is sent for room.chat news (docs/protocol.md, Quick chat)."""
    return {
        "type": "chat",
        "seat": news["seat"],
        "name": news["name"],
        "phrase": news["phrase"],
        "text": gettext(PHRASES[news["phrase"]]),  # in the language active for the reader
    }


def say(*, member: Member, room: Room, phrase: str, chat_id: str = "") -> Said:
    """`member` says `phrase` at `room`'s game, if they sit at it and are within the limits;
    Refused says why not. Call it off the event loop (it reads the cache, and maybe the
    game row)."""
    seat = _speaker_seat(member, room, chat_id)
    _count(room.pk, member.player, chat_id)
    return Said(
        said=secrets.token_hex(6),
        seat=seat,
        name=member.name,
        phrase=phrase,
        unheard_by=tuple(sorted(unheard_by(room, member))),
    )


# Who blocked whom: an app above the lobby (social) adds its check, which answers two user ids
# with whether either has blocked the other.
BLOCKS: list[Callable[[int, int], bool]] = []


def unheard_by(room: Room, speaker: Member) -> set[str]:
    """The player keys at `room` that must not see `speaker`'s quick chat: the people who
    blocked the speaker or whom the speaker blocked (neither sees the other's chat). Guests
    block nobody and can't be blocked; spectators aren't the room's people and see it."""
    if speaker.user_id is None or not BLOCKS:
        return set()
    others = (
        room.members.filter(left=False, user__isnull=False)
        .exclude(pk=speaker.pk)
        .values_list("player", "user_id")
    )
    return {
        player
        for player, user_id in others
        if any(check(speaker.user_id, user_id) for check in BLOCKS)
    }


def _speaker_seat(member: Member, room: Room, chat_id: str) -> int:
    if member.left or not room.is_open:
        raise Refused(GONE, chat_id)
    game = room.game
    if game is None:
        raise Refused(NO_GAME, chat_id)
    if member.seat is None or member.seat >= game.players:
        raise Refused(SPECTATORS_CANNOT_CHAT, chat_id)
    return member.seat


def _count(room_id: int, player: str, chat_id: str) -> None:
    """Count one phrase for this person at this table, or refuse it (a replayed id, over a
    limit). Checking and counting are one step (a Lua script in Redis, a lock in a process
    without it): two phrases sent at the same instant from two of one person's sockets can't
    both take the last place."""
    key = f"limit:chat:{room_id}:{player}"
    now = clock.now()
    try:
        wait = _take(key, now, chat_id)
    except Exception as exc:  # the cache is away: nothing is said rather than unlimited
        log.warning("a quick chat was not counted (cache unavailable): %r", exc)
        raise Refused(UNAVAILABLE, chat_id) from exc
    if wait is None:
        raise Refused(REPLAYED, chat_id)
    if wait > 0:
        raise Refused(
            words.say(
                "Slow down: at most {burst} quick chats in {window} seconds and "
                "{minute} a minute. Try again in {wait} s.",
                burst=CHAT_BURST,
                window=f"{CHAT_BURST_WINDOW:g}",
                minute=CHAT_PER_MINUTE,
                wait=max(1, round(wait)),
            ),
            chat_id,
            retry_after=round(wait, 1),
        )


# KEYS: the times said (a sorted set), the ids said (a sorted set, by when).
# ARGV: now, chat id ("" for none), a unique member for this saying, burst, burst window,
# per minute, seconds ids are remembered. Answers "replayed", or the wait ("0": counted).
_TAKE = """
local now = tonumber(ARGV[1])
local burst, window = tonumber(ARGV[4]), tonumber(ARGV[5])
local per_minute, remember = tonumber(ARGV[6]), tonumber(ARGV[7])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - remember)
if ARGV[2] ~= '' and redis.call('ZSCORE', KEYS[2], ARGV[2]) then
  return 'replayed'
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 60)
local times = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local n = #times / 2
local function at(i) return tonumber(times[2 * i]) end
local recent = 0
for i = 1, n do
  if at(i) > now - window then recent = recent + 1 end
end
local wait = 0
if recent >= burst then wait = at(n - burst + 1) + window - now end
if n >= per_minute then wait = math.max(wait, at(n - per_minute + 1) + 60 - now) end
if wait > 0 then return tostring(wait) end
redis.call('ZADD', KEYS[1], now, ARGV[3])
if ARGV[2] ~= '' then redis.call('ZADD', KEYS[2], now, ARGV[2]) end
redis.call('EXPIRE', KEYS[1], remember)
redis.call('EXPIRE', KEYS[2], remember)
return '0'
"""
_scripts: dict[int, Any] = {}
_lock = threading.Lock()  # for a cache without Redis (one process: make run, tests)


def _take(key: str, now: float, chat_id: str) -> float | None:
    """Seconds to wait before this phrase may be said (0: it is counted now), or None if its
    id was said already."""
    if isinstance(cache, RedisCache):
        client = cache._cache.get_client(write=True)
        script = _scripts.get(id(client))
        if script is None:
            script = _scripts.setdefault(id(client), client.register_script(_TAKE))
        keys = [cache.make_and_validate_key(f"{key}:{part}") for part in ("times", "ids")]
        limits = [CHAT_BURST, CHAT_BURST_WINDOW, CHAT_PER_MINUTE, REMEMBER_IDS]
        answer = script(keys=keys, args=[repr(now), chat_id, secrets.token_hex(8), *limits])
        answer = answer.decode() if isinstance(answer, bytes) else answer
        return None if answer == "replayed" else float(answer)
    with _lock:
        kept = cache.get(key) or {"times": [], "ids": {}}
        ids = {i: t for i, t in kept["ids"].items() if t > now - REMEMBER_IDS}
        if chat_id and chat_id in ids:
            return None
        times = [t for t in kept["times"] if t > now - 60]
        recent = [t for t in times if t > now - CHAT_BURST_WINDOW]
        wait = 0.0
        if len(recent) >= CHAT_BURST:
            wait = recent[-CHAT_BURST] + CHAT_BURST_WINDOW - now
        if len(times) >= CHAT_PER_MINUTE:
            wait = max(wait, times[-CHAT_PER_MINUTE] + 60 - now)
        if wait > 0:
            return wait
        if chat_id:
            ids[chat_id] = now
        cache.set(key, {"times": [*times, now], "ids": ids}, timeout=REMEMBER_IDS)
        return 0.0
