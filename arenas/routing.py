from django.urls import path

from .consumers import ArenaConsumer

websocket_urlpatterns = [
    path("ws/arenas/<int:arena_id>/", ArenaConsumer.as_asgi()),
]
