"""A time zone may change once a week: twenty settings posts at once, each with another zone,
save one change, never several (the check and the save happen under one lock); the others
are told why."""

import threading

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db(transaction=True)

ZONES = [
    "Europe/Paris", "Asia/Tokyo", "America/New_York", "Australia/Sydney", "Africa/Cairo",
    "Europe/Berlin", "Asia/Kolkata", "America/Chicago", "Pacific/Auckland", "Europe/Madrid",
    "Asia/Seoul", "America/Denver", "Europe/Rome", "Asia/Dubai", "America/Sao_Paulo",
    "Europe/Oslo", "Asia/Singapore", "America/Los_Angeles", "Europe/Dublin", "Asia/Manila",
]  # fmt: skip


def test_simultaneous_time_zone_changes_save_one(real_services):
    user = User.objects.create_user("tz", password="x-Long-pass-77", time_zone="UTC")
    clients = []
    for _ in ZONES:
        client = Client()
        client.force_login(user)
        clients.append(client)
    barrier = threading.Barrier(len(ZONES))
    saved: list[str] = []
    refused: list[bool] = []

    def post(client, zone):
        barrier.wait()
        try:
            response = client.post("/accounts/settings/", {"email": "", "time_zone": zone})
            said = response.content.decode()
            if response.status_code == 302:
                saved.append(zone)
            else:
                refused.append(
                    (response.status_code == 200 and "one change a week" in said)
                    or (response.status_code == 409 and "another page" in said)
                )
        finally:
            connection.close()

    # Twenty requests at once in one process (the site spreads them over its processes): a
    # connection each, however slowly a loaded machine renders their pages.
    pool = connection.pool
    pool.resize(pool.min_size, len(ZONES) + 2)
    threads = [
        threading.Thread(target=post, args=pair) for pair in zip(clients, ZONES, strict=True)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    pool.resize(pool.min_size, settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"])
    assert len(saved) == 1, saved
    assert refused == [True] * (len(ZONES) - 1)  # the others are told why
    assert User.objects.get(pk=user.pk).time_zone == saved[0]
