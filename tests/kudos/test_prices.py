"""The shop's prices follow the economy bench/economy.py simulates with today's rules: a casual
player (20 minutes a day) can buy a first item on day 1, and the dearest item takes a regular
player (an hour a day) about a month."""

import importlib.util
from pathlib import Path

from kudos import shop

BENCH = Path(__file__).resolve().parents[2] / "bench" / "economy.py"


def _economy():
    spec = importlib.util.spec_from_file_location("economy_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _days_to(minutes: int, price: int, days: int = 45) -> int | None:
    economy = _economy()
    player = economy.Player(minutes, economy.tried_in_turn())
    for day in range(1, days + 1):
        player.day()
        if player.earned >= price:
            return day
    return None


def test_a_casual_player_buys_a_first_item_on_day_one():
    cheapest = min(item.price for item in shop.CATALOGUE)
    assert _days_to(20, cheapest) == 1


def test_the_dearest_item_takes_a_regular_player_about_a_month():
    dearest = max(item.price for item in shop.CATALOGUE)
    assert 25 <= (_days_to(60, dearest) or 99) <= 35
