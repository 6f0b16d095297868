"""Signing in without holding a database connection across the password hash.

A password hash costs hundreds of milliseconds of CPU on purpose. Django's ModelBackend reads
the account and then hashes while the request keeps its pooled connection; a burst of sign-ins
(each page request runs on a thread of its own under ASGI) then held every connection of the
pool for the length of a hash, and pages and table sockets alike waited the pool's timeout and
failed. Here the connection goes back to the pool between the read and the hash.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.db import connections


def give_back_connection(alias: str) -> None:
    """Return this thread's connection to the pool (a later query takes one again). Only with
    a pool and outside a transaction: there is nothing to give back otherwise."""
    connection = connections[alias]
    if getattr(connection, "pool", None) is not None and not connection.in_atomic_block:
        connection.close()


class SignInBackend(ModelBackend):
    """Listed before ModelBackend (which stays for the sessions it signed in). Wrong
    credentials raise PermissionDenied, which ends Django's tour of the backends: ModelBackend
    would hash the password a second time, holding a connection."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        users = get_user_model()
        if username is None:
            username = kwargs.get(users.USERNAME_FIELD)
        if username is None or password is None:
            return None
        try:
            user = users._default_manager.get_by_natural_key(username)
        except users.DoesNotExist:
            give_back_connection(users._default_manager.db)
            # Hash anyway, so an unknown name takes as long as a wrong password.
            users().set_password(password)
            raise PermissionDenied from None
        give_back_connection(user._state.db)
        if user.check_password(password) and self.user_can_authenticate(user):
            return user
        raise PermissionDenied
