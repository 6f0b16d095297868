"""Stats: written once per finished game, for each signed-in player who played it."""

from django.db.models import F
from django.db.models.functions import Coalesce, Least

from gameplay import play

from .models import GameRecord, GameStat, User


def record_game(game) -> int:
    """Count a finished game for each signed-in player for whom it counts as play
    (``gameplay.play``): a GameRecord is a counted game, which stats, badges and referral
    progress read. Idempotent. Returns records made."""
    if not game.result or game.status != "over":
        return 0
    plays = play.of_game(game)
    winners = set(game.result.get("winners", []))
    scores = game.result.get("scores") or []
    seconds = max(int((game.ended - game.created).total_seconds()), 0)
    # Who gets a record: a signed-in player still here whose play counts, not recorded yet
    # (the hook runs once, under the game's lock; a second call makes nothing).
    counted: dict[int, int] = {}  # user -> seat (one record a game: the first seat)
    for seat, info in enumerate(game.seats):
        if info.get("user_id") and plays[seat].counted:
            counted.setdefault(info["user_id"], seat)
    here = set(User.objects.filter(pk__in=counted).values_list("pk", flat=True))
    done = set(GameRecord.objects.filter(game=game).values_list("user_id", flat=True))
    # In user order, the one order every hook of every game locks GameStat rows in: hooks of
    # games sharing players run at once and would otherwise deadlock.
    due = sorted(
        (user, seat) for user, seat in counted.items() if user in here and user not in done
    )
    GameRecord.objects.bulk_create(
        GameRecord(
            user_id=user_id,
            game=game,
            kind=game.kind,
            seat=seat,
            won=seat in winners,
            score=scores[seat] if seat < len(scores) and isinstance(scores[seat], int) else None,
            moves=game.seq,
            seconds=seconds,
            ended=game.ended,
            facts=_seat_facts(game, seat),
            decisions=plays[seat].decisions,
            play_seconds=plays[seat].seconds,
        )
        for user_id, seat in due
    )
    for user_id, seat in due:
        counts = {"played": F("played") + 1}
        if seat in winners:
            counts.update(
                wins=F("wins") + 1,
                best_seconds=Least(Coalesce("best_seconds", seconds), seconds),
                fewest_moves=Least(Coalesce("fewest_moves", game.seq), game.seq),
            )
        stats = GameStat.objects.filter(user_id=user_id, kind=game.kind)
        if not stats.update(**counts):  # the player's first game of this kind, unless
            won = seat in winners  # another game's hook makes the row at this moment
            first = {
                "played": 1,
                "wins": int(won),
                "best_seconds": seconds if won else None,
                "fewest_moves": game.seq if won else None,
            }
            _, made = GameStat.objects.get_or_create(
                user_id=user_id, kind=game.kind, defaults=first
            )
            if not made:
                stats.update(**counts)
    return len(due)


def _seat_facts(game, seat: int) -> dict:
    facts = game.facts or []
    return facts[seat] if seat < len(facts) and isinstance(facts[seat], dict) else {}
