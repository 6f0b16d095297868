"""The creatures, painted from their ``Look`` in the roster: the painter lays down the parts
(body and pattern, face, limbs, tail, top, a royal's headwear), each module drawing one kind
of part from a table with one entry per style. Lengths "in units of s" grow with the body
(``Painter.s``: the body's larger side over 110)."""

from .painter import Painter

__all__ = ["Painter"]
