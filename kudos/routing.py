from django.urls import path

from .consumers import KudosConsumer

websocket_urlpatterns = [
    path("ws/kudos/", KudosConsumer.as_asgi()),
]
