from datetime import timedelta

from django.apps import AppConfig

LIVE_AFTER = timedelta(minutes=5)  # a game with no move for this long isn't a live table


class GameplayConfig(AppConfig):
    name = "gameplay"

    def ready(self):
        from django.utils import timezone

        from infra import metrics

        from . import tasks  # noqa: F401  (registers its Celery tasks, scheduled by name)
        from .models import Game

        def live_tables() -> int:
            since = timezone.now() - LIVE_AFTER
            return Game.objects.filter(status=Game.Status.ACTIVE, updated__gte=since).count()

        metrics.at_scrape(
            "cubiccards_live_tables", "Games in play with a move in the last 5 minutes", live_tables
        )
