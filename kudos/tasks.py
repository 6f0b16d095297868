"""Kudos on Celery beat: each task is idempotent and gives the same result run late or twice."""

from celery import shared_task

from . import challenges, services


@shared_task(name="kudos.keep_up_streaks", ignore_result=True)
def keep_up_streaks() -> int:
    return services.keep_up_streaks()


@shared_task(name="kudos.close_weeks", ignore_result=True)
def close_weeks() -> list[str]:
    return services.close_weeks()


@shared_task(name="kudos.announce_bonus_events", ignore_result=True)
def announce_bonus_events() -> int:
    return services.announce_bonus_events()


@shared_task(name="kudos.choose_challenges", ignore_result=True)
def choose_challenges() -> int:
    return len(challenges.choose())


@shared_task(name="kudos.close_challenge_days", ignore_result=True)
def close_challenge_days() -> int:
    return len(challenges.close_days())
