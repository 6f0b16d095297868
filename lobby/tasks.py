from celery import shared_task

from . import ranked, services


@shared_task(name="lobby.seat_check", ignore_result=True)
def seat_check(member_id: int) -> bool:
    return services.check_seat(member_id)


@shared_task(name="lobby.sweep_presence", ignore_result=True)
def sweep_presence() -> dict[str, int]:
    return services.sweep_presence()


@shared_task(name="lobby.forfeit_check", ignore_result=True)
def forfeit_check(member_id: int) -> bool:
    return ranked.check_forfeit(member_id)


@shared_task(name="lobby.queue_presence", ignore_result=True)
def queue_presence(entry_id: int) -> bool:
    return ranked.check_presence(entry_id)


@shared_task(name="lobby.match_queue", ignore_result=True)
def match_queue() -> int:
    """Beat runs this every two seconds (and an enqueue once more at once): matching must
    happen as time passes, not only when someone joins, since windows widen and short tables
    fill with computer players after a wait. Two runs at once are safe (see lobby.ranked)."""
    return ranked.match_all()
