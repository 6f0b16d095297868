"""accounts on Celery beat."""

from celery import shared_task

from . import sightings


@shared_task(name="accounts.prune_sightings", ignore_result=True)
def prune_sightings() -> int:
    return sightings.prune()
