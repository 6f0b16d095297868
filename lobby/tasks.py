from asgiref.sync import SyncToAsync
from celery import shared_task
from django.conf import settings

from gameplay.tasks import run_later

from . import ranked, services

MATCH_EVERY = 2.0  # seconds; beat's schedule for match_queue in settings


@shared_task(name="lobby.seat_check", ignore_result=True)
def seat_check(member_id: int) -> bool:
    return services.check_seat(member_id)


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
    seated = ranked.match_all()
    _embedded_clock()
    return seated


_clock = {"running": False}


@shared_task(name="lobby.match_clock", ignore_result=True)
def match_clock() -> int:
    _clock["running"] = False
    return match_queue()


def _embedded_clock() -> None:
    """Embedded (``make run``: tasks in-process, no beat), keep the matcher ticking while
    anyone waits, on the server's event loop, one clock per process."""
    if not settings.CELERY_TASK_ALWAYS_EAGER or _clock["running"]:
        return
    if getattr(SyncToAsync.threadlocal, "main_event_loop", None) is None:
        return  # no server loop to tick on (a command, a test): beat's job elsewhere
    if not ranked.anyone_waiting():
        return
    _clock["running"] = True
    run_later(match_clock, delay=MATCH_EVERY)
