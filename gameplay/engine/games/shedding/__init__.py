from .engine import AMERICAN8, CRAZY8, ENGINES

__all__ = ["AMERICAN8", "CRAZY8", "ENGINES"]
