from celery import shared_task

from . import services


@shared_task(name="lobby.seat_check", ignore_result=True)
def seat_check(member_id: int) -> bool:
    return services.check_seat(member_id)
