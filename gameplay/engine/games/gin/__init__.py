from .engine import ENGINE

__all__ = ["ENGINE"]
