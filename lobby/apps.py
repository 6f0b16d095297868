from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "lobby"

    def ready(self):
        from . import tasks  # noqa: F401  (registers its Celery tasks, scheduled by name)
