from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"

    def ready(self):
        from . import (
            receivers,  # noqa: F401  (accounts being erased)
            tasks,  # noqa: F401  (registers its Celery tasks, scheduled by name)
        )
