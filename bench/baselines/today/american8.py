"""Today's 8 Américain computer player: the same shedding strategy as Crazy 8's (one engine)."""

from .crazy8 import choose

__all__ = ["choose"]
