from celery import shared_task

from . import services


@shared_task(name="arenas.advance", ignore_result=True)
def advance() -> dict[str, int]:
    """Beat runs this every few seconds: arenas are created, started, closed and finished as
    time passes. Run twice or late, it gives the same arenas (see arenas.services)."""
    return services.advance()


@shared_task(name="arenas.pair", ignore_result=True)
def pair(arena_id: int | None = None) -> int:
    """Beat runs this every two seconds for every live arena (a free player's wait grows until
    computer players fill the table), and a player who becomes free nudges it for their arena."""
    if arena_id is None:
        return services.pair_all()
    return len(services.pair(arena_id))
