from django.apps import AppConfig


class KudosConfig(AppConfig):
    name = "kudos"

    def ready(self):
        from . import (
            receivers,  # noqa: F401  (ended games, time zones, deleted players)
            tasks,  # noqa: F401  (registers its Celery tasks, scheduled by name)
        )
