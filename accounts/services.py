"""Stats: written once per finished game, for each signed-in player who played it."""

from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Least

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
    made = 0
    # GameStat rows are locked in user order, the one order every hook of every game uses:
    # hooks of games sharing players run at once and would otherwise deadlock.
    seated = sorted(enumerate(game.seats), key=lambda s: s[1].get("user_id") or 0)
    for seat, info in seated:
        user_id = info.get("user_id")
        played = plays[seat]
        if not played.counted or not User.objects.filter(pk=user_id).exists():
            continue
        won = seat in winners
        try:
            with transaction.atomic():
                GameRecord.objects.create(
                    user_id=user_id,
                    game=game,
                    kind=game.kind,
                    seat=seat,
                    won=won,
                    score=scores[seat]
                    if seat < len(scores) and isinstance(scores[seat], int)
                    else None,
                    moves=game.seq,
                    seconds=seconds,
                    ended=game.ended,
                    facts=_seat_facts(game, seat),
                    decisions=played.decisions,
                    play_seconds=played.seconds,
                )
                stat, _ = GameStat.objects.select_for_update().get_or_create(
                    user_id=user_id, kind=game.kind
                )
                stat.played = F("played") + 1
                if won:
                    stat.wins = F("wins") + 1
                    stat.best_seconds = (
                        seconds if stat.best_seconds is None else Least("best_seconds", seconds)
                    )
                    stat.fewest_moves = (
                        game.seq if stat.fewest_moves is None else Least("fewest_moves", game.seq)
                    )
                stat.save()
                made += 1
        except IntegrityError:  # already recorded
            continue
    return made


def _seat_facts(game, seat: int) -> dict:
    facts = game.facts or []
    return facts[seat] if seat < len(facts) and isinstance(facts[seat], dict) else {}
