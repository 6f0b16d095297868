"""Rooms: create, join, leave, start a game, back to the lobby, and who holds which seat."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, OuterRef, Q
from django.utils import timezone

from accounts import backends
from gameplay import services as gameplay
from gameplay.engine import MEDIUM, IllegalAction, registry
from gameplay.models import Game, SpeedPlay
from infra import news
from infra.scheduling import on_thread, run_later, run_soon
from kudos import challenges
from kudos.services import Refused

from .identity import account_key
from .models import ROOM_SIZE, Member, Presence, Room, RoomGame, Watcher
from .words import Said, say

log = logging.getLogger(__name__)

# Letters nobody confuses with a digit or with each other (no I, L, O).
CODE_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ"
BOT_NAMES = ["Cubot", "Pixel", "Gizmo", "Bolt", "Sprocket", "Widget"]


class RoomError(Exception):
    """Something a person asked of a room that can't be done; the message says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NoSuchRoom(RoomError):
    """One answer for a code that leads to no room a person may enter: none has it, it has
    closed, or it is someone's private table. So a code can't be probed for rooms."""

    def __init__(self, code: str):
        super().__init__(say("No open room has the code {code}.", code=code))


def room_group(code: str) -> str:
    return f"room_{code}"


def normalise_code(code: Any) -> str:
    return str(code or "").strip().upper()[:10]


def _new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(5))


# ---- rooms ------------------------------------------------------------------------------------


def create_room(*, player: str, name: str, user=None, private: bool = False) -> Room:
    for _ in range(20):
        try:
            with transaction.atomic():
                room = Room.objects.create(code=_new_code(), host=player, private=private)
                Member.objects.create(room=room, player=player, name=name, user=user)
                return room
        except IntegrityError:  # that code is in use by an open room: draw again
            continue
    raise RoomError(say("Could not find a free room code. Please try again."))


def open_room(code: str) -> Room:
    code = normalise_code(code)
    if len(code) != 5 or not code.isalpha():
        raise RoomError(say("A room code is 5 letters."))
    room = Room.objects.filter(code=code, is_open=True).first()
    if room is None:
        raise NoSuchRoom(code)
    return room


def members_room(code: str, player: str) -> Room:
    """The open room with this code that this person is in; NoSuchRoom otherwise."""
    room = open_room(code)
    if member_of(room, player) is None:
        raise NoSuchRoom(room.code)
    return room


def join_room(*, code: str, player: str, name: str, user=None, listed: bool = False) -> Room:
    """Join by code. At a ranked table anyone the queue did not seat may only watch: they get
    no seat (ranked.match seats people, nothing else does) and never become its host.
    `listed`: joined from the open tables, so it must still be open to everyone, waiting and
    with a seat free (the list may be a moment old)."""
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=open_room(code).pk)
        member = room.members.filter(player=player).first()
        if member and not member.left:
            return room
        if room.private and (member is None):
            raise NoSuchRoom(room.code)
        present = room.present().count()
        if listed:
            _check_listed(room, present)
        if present >= ROOM_SIZE:
            raise RoomError(
                say("Room {code} is full ({size} people).", code=room.code, size=ROOM_SIZE)
            )
        if member is None:
            member = Member.objects.create(room=room, player=player, name=name, user=user)
        else:
            member.left, member.name = False, name
            member.save(update_fields=["left", "name"])
            _return_seat(room, member)
        transaction.on_commit(lambda: notify_room(room.code))
        if room.public:
            tables_changed()
    return room


def leave_room(*, room: Room, player: str) -> None:
    """Pressing Leave: a computer player takes the seat as it stands; the host passes on."""
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        member = room.members.filter(player=player, left=False).first()
        if member is None:
            return
        member.left = True
        member.save(update_fields=["left"])
        seats_changed([player])
        if room.ranked:
            leave_for_good(room, member)
        else:
            _hand_seat_to_bot(room, member)
        remaining = list(room.present())
        if not remaining:
            room.is_open = False
            # A ranked game everyone left is finished by the computer, and rated.
            if room.game_id and not room.game.is_over and not room.ranked:
                gameplay.abandon_game(game_id=room.game_id)
        elif room.host == player:
            # A ranked table is its seated players' alone: someone who only watches (an
            # outsider who knew its code) never runs it. Left with none, nobody hosts.
            hosts = [m for m in remaining if m.seat is not None] if room.ranked else remaining
            room.host = hosts[0].player if hosts else ""
        room.save(update_fields=["is_open", "host", "updated"])
        transaction.on_commit(lambda: notify_room(room.code))
        if room.public:
            tables_changed()


def leave_for_good(room: Room, member: Member) -> None:
    """A person left a ranked game in play (Leave, or away too long): the computer plays their
    seat to the end and they are ranked last. Runs inside the caller's transaction."""
    if member.seat is None or room.game_id is None or room.game.is_over:
        return
    gameplay.leave_seat(game_id=room.game_id, seat=member.seat)
    member.seat = None  # from now on they may only watch
    member.save(update_fields=["seat"])


SPECTATORS_CANNOT_PLAY = say("You are watching this game: spectators can't play.")


def seat_to_move(member: Member, room: Room) -> int:
    """The seat `member` moves for at `room`'s game; RoomError says why there is none."""
    if member.left or not room.is_open:
        raise RoomError(say("You are no longer in this room."))
    if room.game_id is None:
        raise RoomError(say("No game is in play. The host starts one from the lobby."))
    if member.seat is None:
        raise RoomError(SPECTATORS_CANNOT_PLAY)
    return member.seat


def member_of(room: Room, player: str) -> Member | None:
    return room.members.filter(player=player, left=False).first()


# ---- games ------------------------------------------------------------------------------------


def parse_rules(raw: Any) -> dict | None:
    if raw in (None, "", {}):
        return None
    if isinstance(raw, dict):
        return raw
    try:
        rules = json.loads(raw)
    except (TypeError, ValueError) as exc:
        raise RoomError(say("The rule options are not valid JSON.")) from exc
    if not isinstance(rules, dict):
        raise RoomError(say("The rule options must be a JSON object."))
    return rules


def start_game(
    *,
    room: Room,
    player: str,
    kind: str,
    seats: Any = None,
    rules: Any = None,
    turn_timer: Any = None,
    seed: str | None = None,
    speed_play: str = SpeedPlay.NORMAL,
    strengths: Any = None,
) -> Game:
    """The host starts a game: the people present take seats in the order they came, the
    computer fills the rest of the table, and anyone past the table's size watches.
    `speed_play`: the computer players' pace, the host's own choice (remembered_speed_play).
    `strengths`: each computer seat's strength in seat order (Medium where none is given)."""
    rules = parse_rules(rules)
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        if not room.is_open:
            raise RoomError(say("This room is closed."))
        if room.ranked:
            raise RoomError(say("A ranked table plays one game: queue again for the next."))
        if room.host != player:
            raise RoomError(say("Only the host can start a game."))
        if room.game_id and not room.game.is_over:
            raise RoomError(say("A game is already in play at this table."))
        try:
            engine = registry.get(str(kind))
        except KeyError as exc:
            raise RoomError(say("Pick a game to play.")) from exc
        if engine.max_players == 1 and not room.private:
            raise RoomError(
                say("{game} is played alone: start it from the home page.", game=engine.title)
            )
        people = list(room.present())
        size = _table_size(engine, seats, len(people))
        humans = people[:size]
        table = [
            {"name": m.name, "user_id": m.user_id, "player": m.player, "bot": False} for m in humans
        ]
        picked = [strengths] if isinstance(strengths, str) else list(strengths or [])
        try:  # every strength asked for, even one for a seat people fill: no silent ignoring
            picked = [gameplay.check_strength(engine, s) if s else "" for s in picked]
        except IllegalAction as exc:
            raise RoomError(exc.message) from exc
        table += [
            {
                "name": BOT_NAMES[i % len(BOT_NAMES)],
                "user_id": None,
                "player": None,
                "bot": True,
                "strength": picked[i] if i < len(picked) and picked[i] else MEDIUM,
            }
            for i in range(size - len(humans))
        ]
        timer = _turn_timer(turn_timer, room.turn_timer)
        try:
            game = gameplay.start_game(
                kind=engine.kind,
                seats=table,
                rules=rules,
                turn_timer=timer,
                seed=seed,
                speed_play=speed_play,
            )
        except IllegalAction as exc:
            raise RoomError(exc.message) from exc
        RoomGame.objects.create(
            room=room,
            game=game,
            players=[m.player for m in humans] + [f"cpu:{s['name']}" for s in table[len(humans) :]],
        )
        for index, member in enumerate(people):
            member.seat = index if index < size else None
        Member.objects.bulk_update(people, ["seat"])
        seats_changed(m.player for m in people)
        room.game, room.kind, room.turn_timer = game, engine.kind, timer
        room.save(update_fields=["game", "kind", "turn_timer", "updated"])
        transaction.on_commit(lambda: notify_room(room.code))
        if room.public:
            tables_changed()  # a table in play leaves the list
    return game


def room_wins(room: Room) -> dict[str, int] | None:
    """Games won in this room so far, by player key ("cpu:<name>" for a computer player);
    a shared win counts for each winner. None until the room has finished a game."""
    finished = RoomGame.objects.filter(room=room, game__status=Game.Status.OVER)
    rows = list(finished.values_list("players", "game__result"))
    if not rows:
        return None
    wins: dict[str, int] = {}
    for players, result in rows:
        for seat in (result or {}).get("winners", []):
            if 0 <= seat < len(players):
                wins[players[seat]] = wins.get(players[seat], 0) + 1
    return wins


def back_to_lobby(*, room: Room, player: str) -> None:
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        if room.ranked:
            raise RoomError(say("A ranked game plays to the end: press Leave to go."))
        if room.host != player:
            raise RoomError(say("Only the host can take the table back to the lobby."))
        # Members before the game, the order a connecting socket locks them in (connected()),
        # or the two can deadlock.
        room.members.update(seat=None)
        if room.game_id and not room.game.is_over:
            gameplay.abandon_game(game_id=room.game_id)
        room.game = None
        room.save(update_fields=["game", "updated"])
        transaction.on_commit(lambda: notify_room(room.code))
        if room.public:
            tables_changed()  # waiting for players again


def play_solo(
    *,
    kind: str,
    player: str,
    name: str,
    user=None,
    seats: Any = None,
    rules: Any = None,
    speed_play: str = SpeedPlay.NORMAL,
    seed: str | None = None,
    strengths: Any = None,
) -> Room:
    """A game alone (Klondike, Gridcannon) or against computer players: a private room."""
    try:
        engine = registry.get(str(kind))
    except KeyError as exc:
        raise RoomError(say("That game is not available yet.")) from exc
    room = create_room(player=player, name=name, user=user, private=True)
    room.game = start_game(
        room=room,
        player=player,
        kind=engine.kind,
        seats=seats or None,
        rules=rules,
        speed_play=speed_play,
        seed=seed,
        strengths=strengths,
    )
    return room


def play_challenge(*, kind: str, player: str, name: str, user) -> Room:
    """Today's Daily Challenge deal of ``kind``, alone: one attempt per player, recorded in
    the transaction that starts the game (kudos.challenges)."""
    with transaction.atomic():
        try:
            attempt = challenges.begin(user=user, kind=str(kind))
        except Refused as exc:
            raise RoomError(exc.message) from exc
        daily = attempt.challenge
        room = play_solo(
            kind=daily.kind, player=player, name=name, user=user, rules=daily.rules, seed=daily.seed
        )
        challenges.attach(attempt, room.game)
    return room


# ---- open tables: public rooms listed at /tables/ while they wait for players ----------------

OPEN_TABLES = "open_tables"  # the group of every /tables/ page's socket


def list_table(
    *, room: Room, player: str, kind: Any, seats: Any = None, rules: Any = None, turn_timer=None
) -> Room:
    """The host opens the room to everyone: it is listed with the game, seats and rule options
    the host offers (the start form's, which then starts the game as listed)."""
    rules = parse_rules(rules)
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        if not room.is_open:
            raise RoomError(say("This room is closed."))
        if room.host != player:
            raise RoomError(say("Only the host can open the table to everyone."))
        if room.private or room.ranked:
            raise RoomError(say("This table can't be listed: it is not shared."))
        try:
            engine = registry.get(str(kind))
        except KeyError as exc:
            raise RoomError(say("Pick a game to play.")) from exc
        if engine.max_players == 1:
            raise RoomError(
                say("{game} is played alone: start it from the home page.", game=engine.title)
            )
        size = _table_size(engine, seats, engine.max_players)
        try:
            engine.check_rules(rules, size)
        except IllegalAction as exc:
            raise RoomError(exc.message) from exc
        room.public, room.kind, room.seats, room.rules = True, engine.kind, size, rules or {}
        room.turn_timer = _turn_timer(turn_timer, room.turn_timer)
        room.save(update_fields=["public", "kind", "seats", "rules", "turn_timer", "updated"])
        transaction.on_commit(lambda: notify_room(room.code))
        tables_changed()
    return room


def unlist_table(*, room: Room, player: str) -> Room:
    """The host makes the room private again: only its code (or an invitation) leads in."""
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room.pk)
        if room.host != player:
            raise RoomError(say("Only the host can make the table private."))
        if room.public:
            room.public = False
            room.save(update_fields=["public", "updated"])
            transaction.on_commit(lambda: notify_room(room.code))
            tables_changed()
    return room


def listed_size(room: Room) -> int:
    """The seats a public table offers."""
    engine = registry.get(room.kind)
    return room.seats or engine.max_players


def _check_listed(room: Room, present: int) -> None:
    """Joining from the list: the table must still be waiting and have a seat free."""
    if not room.public or room.ranked:
        raise NoSuchRoom(room.code)
    if room.game_id is not None and not room.game.is_over:
        raise RoomError(say("Table {code} has started its game: watch it instead.", code=room.code))
    size = listed_size(room)
    if present >= size:
        raise RoomError(
            say("Table {code} is full: all {size} seats are taken.", code=room.code, size=size)
        )


def tables_changed() -> None:
    """Every /tables/ page shows the list again, once the caller's transaction commits.
    `version` lets each process read the list once for all its pages."""
    news.tell_after_commit(OPEN_TABLES, "tables.update", version=secrets.token_hex(8))


# ---- spectators: /rooms/<CODE>/watch/ and its socket ----------------------------------------

WATCH_SALT = "lobby.watch"
# One answer for no room and for a table that needs an invitation: codes can't be probed.
WATCH_REFUSED = say(
    "There is no table to watch here, or it is private: ask its host for a watcher link."
)
SPECTATOR = "spectator:"  # a spectator's player key: no person's, so never the host's


def watch_invitation(room: Room) -> str:
    """The token of the host's watcher link: it lets anyone holding it watch this room (and
    no other: it names the room's row, so a code used again later is not covered)."""
    return signing.dumps(room.pk, salt=WATCH_SALT)


def watchable_room(code: str, invite: Any = "") -> Room:
    """The open room with this code that may be watched: a public or ranked table by anyone,
    any other by invitation only. NoSuchRoom otherwise, the same answer as for no room."""
    room = open_room(code)
    if room.public or room.ranked or _invited(room, invite):
        return room
    raise NoSuchRoom(room.code)


def _invited(room: Room, invite: Any) -> bool:
    try:
        return signing.loads(str(invite or "")[:200], salt=WATCH_SALT) == room.pk
    except signing.BadSignature:
        return False


def spectator(room: Room) -> Member:
    """A spectator at the table: no seat, and not a member (nothing is stored for them)."""
    return Member(room=room, player=SPECTATOR, name="", seat=None)


def started_watching(*, room_id: int, channel: str, user_id: int | None = None) -> None:
    Watcher.objects.update_or_create(
        channel=channel, defaults={"room_id": room_id, "seen": timezone.now(), "user_id": user_id}
    )
    tell_watchers(room_id)


def stopped_watching(*, room_id: int, channel: str) -> None:
    if Watcher.objects.filter(channel=channel).delete()[0]:
        tell_watchers(room_id)


def watching(room_id: int) -> int:
    """How many spectator sockets the table has open now."""
    return Watcher.objects.filter(room_id=room_id, seen__gte=fresh_since()).count()


# Seconds between two count messages of one table from one process. Told at each arrival, a
# crowd of n spectators arriving sent n²/2 messages (half a million for a thousand): each
# process's sockets then missed their keepalive pings and dropped.
WATCH_COUNT_EVERY = 1.0
_counts_due: set[int] = set()  # tables whose count this process will send shortly
_counts_lock = threading.Lock()


def tell_watchers(room_id: int) -> None:
    """Every socket at the table shows the new count (a small message, not a new view): once,
    WATCH_COUNT_EVERY seconds after the first change since the last count it sent, with the
    count as it is then."""
    with _counts_lock:
        if room_id in _counts_due:
            return
        _counts_due.add(room_id)
    run_soon(_tell_watchers_later, room_id)


async def _tell_watchers_later(room_id: int) -> None:
    try:
        await asyncio.sleep(WATCH_COUNT_EVERY)
    finally:
        with _counts_lock:  # a change from now on sends another count
            _counts_due.discard(room_id)
    code, count = await on_thread(_watch_count)(room_id)
    if code:
        await news.tell(room_group(code), "room.watchers", count=count)


def _watch_count(room_id: int) -> tuple[str | None, int]:
    code = Room.objects.filter(pk=room_id, is_open=True).values_list("code", flat=True).first()
    return code, watching(room_id) if code else 0


def watch_heartbeat(sockets: dict[str, int]) -> None:
    """The sign of life of a process's spectator sockets (channel name: room id), as
    heartbeat() is for members' sockets."""
    now = timezone.now()
    if Watcher.objects.filter(channel__in=sockets).update(seen=now) == len(sockets):
        return
    kept = set(Watcher.objects.filter(channel__in=sockets).values_list("channel", flat=True))
    missing = {c: r for c, r in sockets.items() if c not in kept}
    rooms = set(
        Room.objects.filter(pk__in=missing.values(), is_open=True).values_list("pk", flat=True)
    )
    Watcher.objects.bulk_create(
        [Watcher(room_id=r, channel=c, seen=now) for c, r in missing.items() if r in rooms],
        ignore_conflicts=True,
    )
    for room_id in rooms:
        tell_watchers(room_id)


# ---- Speed Play: how fast the computer players move ------------------------------------------

SPEED_PLAY_KEY = "speed_play"  # in a guest's session


def set_speed_play(*, room: Room, player: str, speed: Any) -> Game:
    """The host (or the solo player) changes the pace of the computer players at the table."""
    if room.host != player:
        raise RoomError(say("Only the host can change Speed Play."))
    if room.game_id is None or room.game.is_over:
        raise RoomError(say("Speed Play applies to a game in play."))
    try:
        game = gameplay.set_speed_play(game_id=room.game_id, speed=speed)
    except IllegalAction as exc:
        raise RoomError(exc.message) from exc
    notify_room(room.code)  # every seat's view shows the new pace
    return game


def remembered_speed_play(user, session) -> str:
    """The pace this person chose last: on the account, or in a guest's session."""
    speed = user.speed_play if user is not None else (session or {}).get(SPEED_PLAY_KEY)
    return speed if speed in SpeedPlay.values else SpeedPlay.NORMAL


def remember_speed_play(user, session, speed: str) -> None:
    """Keep the choice for this person's next table. The caller saves a guest's session."""
    if user is not None:
        user.speed_play = speed
        user.save(update_fields=["speed_play"])  # a save: the cached row goes (accounts.backends)
    elif session is not None:
        session[SPEED_PLAY_KEY] = speed


def _table_size(engine, seats: Any, people: int) -> int:
    if seats in (None, ""):
        return min(max(people, engine.min_players), engine.max_players)
    try:
        size = int(seats)
    except (TypeError, ValueError) as exc:
        raise RoomError(say("The number of seats must be a number.")) from exc
    if not engine.min_players <= size <= engine.max_players:
        raise RoomError(
            say("{game} seats {players}.", game=engine.title, players=engine.players_text())
        )
    return size


def _turn_timer(raw: Any, current: int) -> int:
    if raw in (None, ""):
        return current
    try:
        seconds = int(raw)
    except (TypeError, ValueError) as exc:
        raise RoomError(say("The turn timer must be a number of seconds.")) from exc
    if seconds != 0 and not 10 <= seconds <= 300:
        raise RoomError(say("The turn timer is off, or 10 to 300 seconds."))
    return seconds


# ---- seats and connections --------------------------------------------------------------------


def _seat_in_play(room: Room, member: Member) -> bool:
    return member.seat is not None and room.game_id is not None and not room.game.is_over


def _hand_seat_to_bot(room: Room, member: Member) -> None:
    if _seat_in_play(room, member):
        gameplay.set_seat_control(game_id=room.game_id, seat=member.seat, bot=True)


def _return_seat(room: Room, member: Member) -> None:
    if _seat_in_play(room, member):
        gameplay.set_seat_control(game_id=room.game_id, seat=member.seat, bot=False)


def fresh_since():
    return timezone.now() - timedelta(seconds=settings.PRESENCE_TTL)


def online_ids(room_id: int) -> set[int]:
    """The members of a room with a live socket now."""
    return set(
        Presence.objects.filter(member__room_id=room_id, seen__gte=fresh_since())
        .values_list("member_id", flat=True)
        .distinct()
    )


def is_online(member_id: int) -> bool:
    return Presence.objects.filter(member_id=member_id, seen__gte=fresh_since()).exists()


def connected(*, room_id: int, player: str, channel: str) -> Member | None:
    """A socket opened. Coming back gives a person their seat back from the computer, and
    the table hears of it ("<name> is back")."""
    with transaction.atomic():
        member = (
            Member.objects.select_for_update()
            .filter(room_id=room_id, player=player, left=False)
            .first()
        )
        if member is None:
            return None
        was_here = is_online(member.pk)
        now = timezone.now()
        Presence.objects.update_or_create(channel=channel, defaults={"member": member, "seen": now})
        member.last_seen = now
        member.save(update_fields=["last_seen"])
        room = member.room
        held = _seat_in_play(room, member) and room.game.seats[member.seat]["bot"]
        _return_seat(room, member)
        if held:
            notice = say("{name} is back.", name=member.name)
            transaction.on_commit(lambda: notify_room(room.code, notice=notice))
        elif not was_here:  # everyone's list shows them here now
            transaction.on_commit(lambda: notify_room(room.code))
        if not was_here and room.public and room.host == player:
            tables_changed()  # a table is listed while its host is here
    return member


def heartbeat(sockets: dict[str, int]) -> None:
    """The sign of life of a process's open sockets (channel name: member id), every
    PRESENCE_BEAT seconds: one write for all of them, not one per socket."""
    now = timezone.now()
    if Presence.objects.filter(channel__in=sockets).update(seen=now) == len(sockets):
        return
    # Some were swept while this process was stalled: the sockets are alive, so they count
    # again, and their tables hear it.
    kept = set(Presence.objects.filter(channel__in=sockets).values_list("channel", flat=True))
    missing = {channel: member for channel, member in sockets.items() if channel not in kept}
    live = set(Member.objects.filter(pk__in=missing.values()).values_list("pk", flat=True))
    Presence.objects.bulk_create(
        [Presence(member_id=m, channel=c, seen=now) for c, m in missing.items() if m in live],
        ignore_conflicts=True,
    )
    for code in set(Room.objects.filter(members__pk__in=live).values_list("code", flat=True)):
        notify_room(code)


def disconnected(*, member_id: int, channel: str) -> None:
    """A socket closed. If no other is open after the grace period, the computer takes over."""
    Presence.objects.filter(channel=channel).delete()
    Member.objects.filter(pk=member_id).update(last_seen=timezone.now())
    if not is_online(member_id):
        room = Room.objects.filter(members__pk=member_id).only("code", "public").first()
        notify_room(room.code if room else None)  # "reconnecting…" while the grace period runs
        if room is not None and room.public:
            tables_changed()
        run_later("lobby.seat_check", member_id, delay=settings.RECONNECT_GRACE)


def check_seat(member_id: int) -> bool:
    """Hand the seat to a computer player if its person has had no live socket for the grace
    period. Returns True if it did."""
    with transaction.atomic():
        member = Member.objects.select_for_update().filter(pk=member_id).first()
        if member is None or is_online(member_id):
            return False
        # A second's slack: the check scheduled by disconnected() runs a grace period after it.
        if member.last_seen > timezone.now() - timedelta(seconds=settings.RECONNECT_GRACE - 1):
            return False
        room = member.room
        # A private table (solo, or against the computer) waits for its player: nobody else
        # is kept waiting, and a solo game must stay where it was left.
        if room.private or not _seat_in_play(room, member):
            return False
        game = room.game
        if game.seats[member.seat]["bot"]:
            return False
        _hand_seat_to_bot(room, member)
        transaction.on_commit(lambda: notify_room(room.code))
        if room.ranked:  # away much longer: gone for good
            delay = max(settings.RANKED_FORFEIT - settings.RECONNECT_GRACE, 0)
            transaction.on_commit(lambda: run_later("lobby.forfeit_check", member_id, delay=delay))
        return True


def sweep_presence() -> dict[str, int]:
    """Beat's presence round (every PRESENCE_SWEEP seconds): forget sockets that stopped
    beating (their process crashed or was killed, so disconnect() never ran), hand seats whose
    people have been gone for the grace period to the computer, and end tables everyone has
    left for ABANDON_AFTER. Safe to run twice at once."""
    now = timezone.now()
    stale = Presence.objects.filter(seen__lt=fresh_since())
    last = dict(
        stale.values("member_id").annotate(seen=Max("seen")).values_list("member_id", "seen")
    )
    expired = stale.delete()[0]
    for member_id, seen in last.items():
        Member.objects.filter(pk=member_id, last_seen__lt=seen).update(last_seen=seen)
    gone = Room.objects.filter(members__pk__in=last).values_list("code", "public").distinct()
    for code, public in set(gone):
        notify_room(code)
        if public:
            tables_changed()
    # Seated people in a game in play at a shared table, with no live socket.
    in_play = Member.objects.filter(
        left=False,
        seat__isnull=False,
        room__is_open=True,
        room__private=False,
        room__game__status=Game.Status.ACTIVE,
        last_seen__lt=now - timedelta(seconds=settings.RECONNECT_GRACE),
    ).exclude(presences__seen__gte=fresh_since())
    stale_watchers = Watcher.objects.filter(seen__lt=fresh_since())
    watched = set(stale_watchers.values_list("room_id", flat=True))
    expired += stale_watchers.delete()[0]
    for room_id in watched:
        tell_watchers(room_id)
    handed = sum(check_seat(pk) for pk in in_play.values_list("pk", flat=True))
    ended = sum(_end_if_abandoned(pk) for pk in _abandoned_rooms(now))
    return {"expired": expired, "handed": handed, "ended": ended}


def _abandoned_rooms(now) -> list[int]:
    """Shared tables with a game in play where nobody has been here for ABANDON_AFTER: the
    computer would otherwise play itself forever. A ranked game plays out and is rated
    (lobby.ranked); a private table waits for its one player."""
    someone_here = Member.objects.filter(room=OuterRef("pk"), left=False).filter(
        Q(last_seen__gte=now - timedelta(seconds=settings.ABANDON_AFTER))
        | Q(presences__seen__gte=fresh_since())
    )
    return list(
        Room.objects.filter(
            is_open=True, private=False, ranked=False, game__status=Game.Status.ACTIVE
        )
        .exclude(Exists(someone_here))
        .values_list("pk", flat=True)
    )


def _end_if_abandoned(room_id: int) -> bool:
    """End the game as abandoned and take the room back to its lobby, as the host's "Back to
    lobby" does: whoever comes back finds the room, not a game the computer finished."""
    with transaction.atomic():
        room = Room.objects.select_for_update().get(pk=room_id)
        if room_id not in _abandoned_rooms(timezone.now()):
            return False  # someone came back meanwhile
        room.members.update(seat=None)
        gameplay.abandon_game(game_id=room.game_id)
        room.game = None
        room.public = False  # nobody is here to play with whoever the list would send
        room.save(update_fields=["game", "public", "updated"])
        transaction.on_commit(lambda: notify_room(room.code))
    return True


def notify_room(code: str | None, notice: str = "") -> None:
    """Every socket in the room renders its view again; `notice` is said at the table (a
    lobby.words.Said travels as its msgid and parameters: each socket says it in its own
    reader's language)."""
    if code:
        said = (
            {"notice_id": notice.msgid, "notice_params": notice.params}
            if isinstance(notice, Said)
            else {}
        )
        news.tell_now(room_group(code), "room.update", notice=str(notice), **said)


def current_room(player: str) -> Room | None:
    """The open room where this person holds a seat in a game in play (to take them back)."""
    member = (
        Member.objects.filter(
            player=player,
            left=False,
            seat__isnull=False,
            room__is_open=True,
            room__game__status=Game.Status.ACTIVE,
        )
        .select_related("room")
        .order_by("-room__updated")
        .first()
    )
    return member.room if member else None


TABLE_KEPT = 5  # seconds every page's header keeps the table where a person is seated


def seated_key(player: str) -> str:
    return f"seated:{player}"


# A signed-in player's page reads the kept table with the account row (one round trip for both).
backends.BESIDE.append(lambda user_id: [seated_key(account_key(user_id))])


def table_code(player: str, read: dict | None = None) -> str | None:
    """The code of `current_room`, for the header's "Back to your table" on every page: kept
    TABLE_KEPT seconds per person, so a page seldom asks the database. A seat taken or left
    forgets it (`seats_changed`); a game that ends drops the link at most that much later.
    ``read``: the kept code, read already with the account row (``seated_key``)."""
    key = seated_key(player)
    try:
        code = cache.get(key) if read is None else read.get(key)
    except Exception as exc:  # Redis away: the database answers
        log.warning("the kept table of a player could not be read: %r", exc)
        code = None
    if code is None:
        room = current_room(player)
        code = room.code if room else ""
        try:
            cache.set(key, code, TABLE_KEPT)
        except Exception as exc:
            log.warning("the kept table of a player could not be kept: %r", exc)
    return code or None


def seats_changed(players) -> None:
    """These people took or left a seat: their headers read it afresh, now and again after
    the commit (a page in between may have kept what the database still said)."""
    keys = [seated_key(player) for player in players]

    def forget():
        try:
            cache.delete_many(keys)
        except Exception as exc:  # Redis away: the kept table expires within TABLE_KEPT
            log.warning("a kept table could not be forgotten: %r", exc)

    forget()
    transaction.on_commit(forget)
