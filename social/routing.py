from django.urls import path

from .consumers import HeaderConsumer

# The header socket keeps its address (docs/protocol.md): the Kudos slot and, with it,
# friends' invitations.
websocket_urlpatterns = [
    path("ws/kudos/", HeaderConsumer.as_asgi()),
]
