"""One ASGI application: HTTP through Django, WebSockets through Channels."""

import asyncio
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cubiccards.settings")
django.setup(set_prefix=False)

from cubiccards.handler import OneHopASGIHandler  # noqa: E402

django_asgi_app = OneHopASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import re_path  # noqa: E402

from api.routing import websocket_urlpatterns as bot_sockets  # noqa: E402
from api.sockets import BearerTokenSockets, OriginCheckedUnlessToken  # noqa: E402
from arenas.routing import websocket_urlpatterns as arena_sockets  # noqa: E402
from cubiccards.embedded_beat import beat_forever  # noqa: E402
from gameplay.engine import registry  # noqa: E402
from infra.sockets import NoSuchSocket, TurnsAwayWhenTheDatabaseIsBusy  # noqa: E402
from lobby.routing import websocket_urlpatterns  # noqa: E402
from social.routing import websocket_urlpatterns as header_sockets  # noqa: E402


class EmbeddedBeat:
    """Embedded mode (no broker, so no Celery beat): start beat's schedule on the server's
    event loop with the first connection, once. daphne has no startup hook."""

    def __init__(self, app):
        self.app = app
        self.beat: asyncio.Task | None = None

    async def __call__(self, scope, receive, send):
        if self.beat is None:
            self.beat = asyncio.get_running_loop().create_task(beat_forever())
        return await self.app(scope, receive, send)


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": OriginCheckedUnlessToken(
            TurnsAwayWhenTheDatabaseIsBusy(
                AuthMiddlewareStack(
                    BearerTokenSockets(  # a program's token, when it sends one, decides the user
                        URLRouter(
                            websocket_urlpatterns
                            + arena_sockets
                            + header_sockets  # /ws/kudos/: the Kudos slot and friends' invitations
                            + bot_sockets
                            + [re_path(r"", NoSuchSocket.as_asgi())]
                        )
                    )
                )
            )
        ),
    }
)
if settings.CELERY_TASK_ALWAYS_EAGER:
    # Embedded: with no worker, computer turns are played in this process, so their tables are
    # built now, as a worker builds them as it starts, rather than by the first Poker move.
    registry.warm_up()
    application = EmbeddedBeat(application)
