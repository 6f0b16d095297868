"""The header socket, /ws/kudos/, on every page of a signed-in person: the Kudos slot
(kudos.consumers), and besides it the person's friends' invitations to a table, pushed as a
toast the moment they are sent, wherever on the site the person is. Its open sockets are also
what makes a person "online" to their friends (social.models.Online)."""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings
from django.db import DatabaseError
from django.template.loader import render_to_string
from django.utils import translation

from infra.scheduling import on_thread
from infra.sockets import language_of
from kudos.consumers import KudosConsumer

from . import selectors, services

log = logging.getLogger(__name__)

# This process's open header sockets (channel name: user id), kept online by one heartbeat.
_sockets: dict[str, int] = {}
_beater: asyncio.Task | None = None


def _beating(channel: str, user_id: int) -> None:
    global _beater
    _sockets[channel] = user_id
    if _beater is None or _beater.done() or _beater.get_loop() is not asyncio.get_running_loop():
        _beater = asyncio.ensure_future(_beat())


async def _beat() -> None:
    """Every PRESENCE_BEAT seconds one write keeps all this process's header sockets online;
    it stops with the last socket (the next one starts it again)."""
    while _sockets:
        await asyncio.sleep(settings.PRESENCE_BEAT)
        if not _sockets:
            break
        try:
            await on_thread(services.heartbeat)(dict(_sockets))
        except DatabaseError:  # the database is away: the next beat tries again
            log.warning("an online heartbeat for %d header sockets failed", len(_sockets))


class HeaderConsumer(KudosConsumer):
    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            # However it ends (closed, crashed), it stops beating and its row expires.
            _sockets.pop(getattr(self, "channel_name", None), None)

    async def connect(self):
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:  # (guests are turned away below)
            # Online before the slot is sent: a page that shows its slot is reachable.
            await on_thread(services.came_online)(user_id=user.pk, channel=self.channel_name)
            _beating(self.channel_name, user.pk)
        await super().connect()

    async def disconnect(self, code):
        await super().disconnect(code)
        if _sockets.pop(self.channel_name, None) is not None:
            await on_thread(services.went_offline)(channel=self.channel_name)

    async def invitation_sent(self, event):
        html = await on_thread(render_invitation)(
            self.user, event.get("invitation"), language_of(self.scope)
        )
        if html:
            await self.send(text_data=html)


def render_invitation(user, invitation_id, language: str = "en") -> str:
    """The toast of one invitation, if it is still open to this person ("" otherwise)."""
    found = [i for i in selectors.open_invitations(user) if i.pk == invitation_id and i.waiting]
    if not found:
        return ""
    with translation.override(language):
        return render_to_string("social/_invitation_toast.html", {"invitation": found[0]})
