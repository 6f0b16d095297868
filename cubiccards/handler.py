"""Django's ASGI handler with the request's synchronous part on one thread hop, leaving
nothing for the garbage collector.

Every view of the site is synchronous, and several of its middleware are too. Django's async
handler builds the chain for the event loop: it hops to the request's thread for the sync
middleware, back to the loop to resolve the URL, and to the thread again for each view
middleware, the view and the template's render, each hop a round trip between the loop and
the thread. Here the whole chain is built synchronously, as under WSGI, and called in one hop.

What a request leaves in reference cycles is freed only by a garbage collection, which runs
on the event loop and holds every table of the process while it looks (docs/performance.md).
Django's handler made each page such a cycle twice over: the task it cancels at the end (a
listener for the client's disconnect, there to cancel async views) kept the handler's frame,
and with it the whole request, in its exception's traceback; and the middleware tie the
request to itself (`request.user`'s lazy closure, the messages' storage, htmx's details).
"""

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.urls import set_script_prefix


class OneHopASGIHandler(ASGIHandler):
    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)
        # Thread-sensitive: on the request's own thread (Django's handler gives each request
        # one), where the response's close runs too, as before.
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)

    async def handle(self, scope, receive, send):
        """Django's, without the disconnect listener: a sync view runs to its end on its
        thread whether or not the client is still there (daphne drops what is sent to a
        closed connection)."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        await signals.request_started.asend(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        try:
            if request is not None:
                response = await self.run_get_response(request)
            await self.send_response(response, send)
        finally:
            # request_finished (the database connection back to its pool) on the request's
            # thread, so after the view even when daphne gave up on a client long gone and
            # cancelled this coroutine: that thread runs one thing at a time.
            if response is None:
                await signals.request_finished.asend(sender=self.__class__)
            else:
                await sync_to_async(response.close)()
            body_file.close()
            if request is not None:
                request.__dict__.clear()  # its cycles, broken now rather than by a collection
