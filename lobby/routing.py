from django.conf import settings
from django.urls import path

from .consumers import EchoConsumer, RoomConsumer, WatchConsumer
from .queue_consumer import QueueConsumer, QuickConsumer
from .tables_consumer import OpenTablesConsumer

websocket_urlpatterns = [
    path("ws/rooms/<str:code>/", RoomConsumer.as_asgi()),
    path("ws/rooms/<str:code>/watch/", WatchConsumer.as_asgi()),
    path("ws/queue/<str:kind>/", QueueConsumer.as_asgi()),
    path("ws/quick/<str:kind>/", QuickConsumer.as_asgi()),
    path("ws/tables/", OpenTablesConsumer.as_asgi()),
]

if settings.ECHO_SOCKET:  # the benchmark's baseline, off unless asked for
    websocket_urlpatterns.append(path("ws/echo/", EchoConsumer.as_asgi()))
