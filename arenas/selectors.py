"""What the arena pages and socket show: the standings, who plays whom, the viewer's row."""

from __future__ import annotations

from collections import defaultdict

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from gameplay.models import Game

from .models import Arena, ArenaGame, Entrant, Result

SHEET = 12  # a row shows its latest results, newest last
FINISHED_SHOWN = 10
GAMES_SHOWN = 30


def standing(arena: Arena):
    """The arena's players in order: points, then wins, then who reached their points first."""
    return (
        Entrant.objects.filter(arena=arena)
        .select_related("user")
        .order_by("-points", "-wins", F("last_scored").asc(nulls_last=True), "joined", "pk")
    )


def arenas() -> dict[str, list[Arena]]:
    """The arenas page: upcoming (soonest first), live, and the latest finished."""
    return {
        "live": list(
            Arena.objects.filter(status__in=[Arena.Status.LIVE, Arena.Status.CLOSING]).order_by(
                "ends", "pk"
            )
        ),
        "upcoming": list(
            Arena.objects.filter(status=Arena.Status.UPCOMING).order_by("starts", "pk")
        ),
        "finished": list(
            Arena.objects.filter(status=Arena.Status.FINISHED).order_by("-ends", "-pk")[
                :FINISHED_SHOWN
            ]
        ),
    }


def arena_state(arena: Arena, user) -> dict:
    """Everything the arena page shows, for this viewer (the socket's "arena" message)."""
    rows = list(standing(arena))
    in_play = list(
        ArenaGame.objects.filter(arena=arena, scored=False).select_related("room", "game")
    )
    seated = {}
    for arena_game in in_play:
        seats = arena_game.game.seats
        for user_id in arena_game.people:
            seated[user_id] = {
                "code": arena_game.room.code if arena_game.room else None,
                "game_id": arena_game.game_id,
                "against": [s["name"] for s in seats if s.get("user_id") != user_id],
            }
    sheets = defaultdict(list)
    for entrant_id, got, doubled, abandoned in (
        Result.objects.filter(entrant__arena=arena)
        .order_by("created", "pk")
        .values_list("entrant_id", "points", "doubled", "abandoned")
    ):
        sheets[entrant_id].append({"points": got, "doubled": doubled, "abandoned": abandoned})
    you = user.pk if user is not None and user.is_authenticated else None
    table = []
    for rank, e in enumerate(rows, start=1):
        table.append(
            {
                "rank": e.place or rank,
                "name": e.user.username,
                "points": e.points,
                "games": e.games,
                "wins": e.wins,
                "streak": e.streak,
                "on_fire": e.on_fire,
                "paused": e.paused,
                "playing": seated.get(e.user_id),
                "qualifies": e.games >= arena.min_games,
                "prize": e.prize,
                "sheet": sheets[e.pk][-SHEET:],
                "you": e.user_id == you,
            }
        )
    mine = next((r for r in table if r["you"]), None)
    now = timezone.now()
    finished_games = (
        ArenaGame.objects.filter(arena=arena, scored=True)
        .select_related("game")
        .order_by("-created", "-pk")[:GAMES_SHOWN]
    )
    return {
        "type": "arena",
        "id": arena.pk,
        "name": arena.name,
        "game": arena.kind,
        "title": arena.title,
        "status": arena.status,
        "starts": arena.starts.isoformat(),
        "ends": arena.ends.isoformat(),
        "seconds_left": max(0, round((arena.ends - now).total_seconds())),
        "min_games": arena.min_games,
        "prizes": arena.prizes,
        "fill_after": settings.ARENA_FILL_AFTER,
        "players": len(table),
        "standings": table,
        "you": mine,
        "url": f"/rooms/{mine['playing']['code']}/" if mine and mine["playing"] else None,
        "podium": [r for r in table if r["prize"]][:3]
        if arena.status == Arena.Status.FINISHED
        else [],
        "games": [
            {
                "game_id": g.game_id,
                "players": [s["name"] for s in g.game.seats],
                "over": g.game.status == Game.Status.OVER,
            }
            for g in finished_games
        ],
    }


def game_home(game_id: int) -> tuple[str, str] | None:
    """lobby.ranked's question when a ranked game ends: an arena game leads back to its arena."""
    found = ArenaGame.objects.filter(game_id=game_id).select_related("arena").first()
    if found is None:
        return None
    return f"/arenas/{found.arena_id}/", f"Back to the {found.arena.name} arena"
