from django.conf import settings
from django.db import models

ROOM_SIZE = 6  # people in a room; a game seats up to its max_players, the rest watch


class Room(models.Model):
    """A table people share by its code. A solo game is a private room of one."""

    code = models.CharField(max_length=5, db_index=True)
    host = models.CharField(max_length=64)  # the host's player key (see lobby.identity)
    is_open = models.BooleanField(default=True)
    private = models.BooleanField(default=False)  # solo / vs-computer rooms: nobody else joins
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
    connections = models.PositiveIntegerField(default=0)  # open sockets, across processes
    last_seen = models.DateTimeField(auto_now_add=True)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["room", "player"], name="one_member_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.name} in {self.room.code}"


class RoomGame(models.Model):
    """A game a room started and who sat where, so the room can count its wins."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="games")
    game = models.OneToOneField("gameplay.Game", on_delete=models.CASCADE, related_name="+")
    # Per seat: the person's player key, or "cpu:<name>" for a computer player.
    players = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.room.code}: game {self.game_id}"
