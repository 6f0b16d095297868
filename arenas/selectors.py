"""What the arena pages and socket show: the standings, who plays whom, the viewer's row."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from gameplay.models import Game

from .models import Arena, ArenaGame, Entrant, Result

SHEET = 12  # a row shows its latest results, newest last
FINISHED_SHOWN = 10
GAMES_SHOWN = 30
# A crowded arena sends each viewer the top rows and their own, not every row.
TOP_ROWS = 100


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


@dataclass
class Board:
    """An arena's standings and games as every viewer sees them, built once per change (the
    socket shares one per arena per process); ``for_viewer`` adds a viewer's own row."""

    head: dict
    rows: list[dict]
    index: dict[int, int]  # user id -> their row
    ends: datetime
    # Each row as JSON and as the page's HTML, made once per build when a viewer first needs
    # them (arenas.consumers); a viewer's message then splices in only their own row.
    json_rows: list[str] | None = None
    html_rows: dict[str, list[str]] | None = None  # by language


def arena_board(arena: Arena) -> Board:
    """Everything the arena page shows that is the same for every viewer."""
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
                "you": False,
            }
        )
    finished_games = (
        ArenaGame.objects.filter(arena=arena, scored=True)
        .select_related("game")
        .order_by("-created", "-pk")[:GAMES_SHOWN]
    )
    head = {
        "type": "arena",
        "id": arena.pk,
        "name": arena.name,
        "game": arena.kind,
        "title": arena.title,
        "status": arena.status,
        "starts": arena.starts.isoformat(),
        "ends": arena.ends.isoformat(),
        "seconds_left": 0,
        "min_games": arena.min_games,
        "prizes": arena.prizes,
        "fill_after": settings.ARENA_FILL_AFTER,
        "players": len(table),
        "shown": min(len(table), TOP_ROWS),
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
    index = {e.user_id: i for i, e in enumerate(rows)}
    return Board(head=head, rows=table, index=index, ends=arena.ends)


def mine(board: Board, user_id: int | None) -> tuple[int | None, dict | None]:
    """The viewer's row (marked as theirs) and where it stands, or (None, None)."""
    at = board.index.get(user_id) if user_id is not None else None
    return (at, {**board.rows[at], "you": True}) if at is not None else (None, None)


def shown_rows(board: Board, user_id: int | None) -> tuple[list, dict | None]:
    """The rows a viewer is sent: all of them, or in a crowd the top TOP_ROWS and their own."""
    at, own = mine(board, user_id)
    rows = board.rows[:TOP_ROWS]
    if own is not None:
        rows = rows[:at] + [own] + rows[at + 1 :] if at < TOP_ROWS else [*rows, own]
    return rows, own


def viewer_head(board: Board, own: dict | None) -> dict:
    """The viewer's part beside the rows: their row, their table, the clock now."""
    left = max(0, round((board.ends - timezone.now()).total_seconds()))
    return {
        **board.head,
        "seconds_left": left,
        "you": own,
        "url": f"/rooms/{own['playing']['code']}/" if own and own["playing"] else None,
    }


def for_viewer(board: Board, user) -> dict:
    """The socket's "arena" message for this viewer."""
    you = user.pk if user is not None and user.is_authenticated else None
    rows, own = shown_rows(board, you)
    return {**viewer_head(board, own), "standings": rows}


def arena_state(arena: Arena, user) -> dict:
    """Everything the arena page shows, for this viewer (the socket's "arena" message)."""
    return for_viewer(arena_board(arena), user)


def game_home(game_id: int) -> tuple[str, str] | None:
    """lobby.ranked's question when a ranked game ends: an arena game leads back to its arena."""
    found = ArenaGame.objects.filter(game_id=game_id).select_related("arena").first()
    if found is None:
        return None
    return f"/arenas/{found.arena_id}/", gettext("Back to the %(arena)s arena") % {
        "arena": found.arena.shown_name
    }
