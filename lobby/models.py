from django.conf import settings
from django.db import models

ROOM_SIZE = 6  # people in a room; a game seats up to its max_players, the rest watch


class Room(models.Model):
    """A table people share by its code. A solo game is a private room of one."""

    code = models.CharField(max_length=5, db_index=True)
    host = models.CharField(max_length=64)  # the host's player key (see lobby.identity)
    is_open = models.BooleanField(default=True)
    private = models.BooleanField(default=False)  # solo / vs-computer rooms: nobody else joins
    # Listed on /tables/ while it waits for players, with the game the host offers there.
    public = models.BooleanField(default=False)
    seats = models.PositiveSmallIntegerField(default=0)  # offered at a public table; 0: the most
    rules = models.JSONField(default=dict, blank=True)  # offered at a public table
    ranked = models.BooleanField(default=False)  # seated by the ranked queue: one rated game
    game = models.ForeignKey(
        "gameplay.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # What the host picked last, offered again after "Back to lobby".
    kind = models.CharField(max_length=20, blank=True)
    turn_timer = models.PositiveIntegerField(default=0)  # seconds; 0 = off
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["code"], condition=models.Q(is_open=True), name="unique_open_room_code"
            )
        ]

    def __str__(self) -> str:
        return self.code

    def present(self):
        return self.members.filter(left=False).order_by("joined")


class Member(models.Model):
    """A person in a room: a user or a guest (by the player key kept in their session)."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="members")
    player = models.CharField(max_length=64)  # "user:<id>" or "guest:<token>"
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    name = models.CharField(max_length=40)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # in the room's current game
    left = models.BooleanField(default=False)
    # When the person was last known to be here: their last socket's last sign of life.
    # Whether they are here now is in Presence (rows that expire), never a count.
    last_seen = models.DateTimeField(auto_now_add=True)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "player"], name="one_member_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.room.code}"


class Presence(models.Model):
    """One open socket of a member, kept alive by its heartbeats. A socket whose process died
    (a crash, a kill) stops beating and its row is swept once it is older than
    PRESENCE_TTL: a member is here while they have a fresh row."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="presences")
    channel = models.CharField(max_length=200, unique=True)
    seen = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.member} on {self.channel}"


class QueueEntry(models.Model):
    """A signed-in person waiting for a ranked table of one game, or a casual one (quick
    play: the same queue and matcher, no rating at stake) (lobby.ranked)."""

    class Status(models.TextChoices):
        WAITING = "waiting", "waiting"
        MATCHED = "matched", "matched"
        LEFT = "left", "left"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    kind = models.CharField(max_length=20)
    skill = models.IntegerField()  # the rating estimate on the shown scale: what is matched
    rating = models.IntegerField()  # the shown (conservative) rating, for the waiting page
    provisional = models.BooleanField(default=True)
    casual = models.BooleanField(default=False)  # quick play: an unrated table
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    room = models.ForeignKey(Room, null=True, blank=True, on_delete=models.SET_NULL)
    enqueued = models.DateTimeField()
    # The waiting page's last sign of life: an entry nobody watches expires (a socket's
    # disconnect does not run when its process dies).
    seen = models.DateTimeField()
    connections = models.PositiveIntegerField(default=0)
    closed = models.DateTimeField(null=True, blank=True)  # matched or left

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(status="waiting"),
                name="one_queue_at_a_time",
            )
        ]
        indexes = [models.Index(fields=["kind", "status", "enqueued"], name="queue_waiting")]

    def __str__(self) -> str:
        return f"{self.user} for {self.kind} ({self.status})"


class RoomGame(models.Model):
    """A game a room started and who sat where, so the room can count its wins."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField("gameplay.Game", on_delete=models.CASCADE, related_name="+")
    # Per seat: the person's player key, or "cpu:<name>" for a computer player.
    players = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.room.code}: game {self.game_id}"


class Watcher(models.Model):
    """One open spectator socket of a table (/ws/rooms/<CODE>/watch/), kept alive by its
    process's heartbeat like Presence: the table's "watching" count is its fresh rows."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="watchers")
    channel = models.CharField(max_length=200, unique=True)
    seen = models.DateTimeField(db_index=True)
    # Who watches, when signed in: their friends see which table (social.selectors).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    def __str__(self) -> str:
        return f"watching {self.room.code} on {self.channel}"
