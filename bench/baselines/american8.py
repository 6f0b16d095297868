"""8 Américain is measured exactly like Crazy 8 (see crazy8.py): a random legal card."""

from baselines.crazy8 import METRIC, baseline, success

__all__ = ["METRIC", "baseline", "success"]
