from django.urls import path

from .consumers import BotEventsConsumer

websocket_urlpatterns = [path("ws/bot/", BotEventsConsumer.as_asgi())]
