"""Kudos on Celery beat: each task is idempotent and gives the same result run late or twice."""

from celery import shared_task

from . import services


@shared_task(name="kudos.keep_up_streaks", ignore_result=True)
def keep_up_streaks() -> int:
    return services.keep_up_streaks()


@shared_task(name="kudos.close_weeks", ignore_result=True)
def close_weeks() -> list[str]:
    return services.close_weeks()


@shared_task(name="kudos.announce_bonus_events", ignore_result=True)
def announce_bonus_events() -> int:
    return services.announce_bonus_events()
