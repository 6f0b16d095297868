from django.apps import AppConfig


class ArenasConfig(AppConfig):
    name = "arenas"

    def ready(self):
        from lobby import ranked

        from . import (
            receivers,  # noqa: F401  (ended arena games are scored)
            selectors,
            services,
            tasks,  # noqa: F401  (registers its Celery tasks, scheduled by name)
        )

        # A person playing in an arena is not also in the ranked queue (nor the other way).
        if services.queue_hold not in ranked.QUEUE_HOLDS:
            ranked.QUEUE_HOLDS.append(services.queue_hold)
        # An arena game's result leads back to the arena.
        if selectors.game_home not in ranked.GAME_HOMES:
            ranked.GAME_HOMES.append(selectors.game_home)
