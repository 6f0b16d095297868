"""Django's ASGI handler with the request's synchronous part on one thread hop.

Every view of the site is synchronous, and several of its middleware are too. Django's async
handler builds the chain for the event loop: it hops to the request's thread for the sync
middleware, back to the loop to resolve the URL, and to the thread again for each view
middleware, the view and the template's render, each hop a round trip between the loop and
the thread. Here the whole chain is built synchronously, as under WSGI, and called in one hop.
"""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class OneHopASGIHandler(ASGIHandler):
    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)
        # Thread-sensitive: on the request's own thread (Django's handler gives each request
        # one), where the response's close runs too, as before.
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)
