"""The registry is filled whole before any thread reads it."""

import importlib
import threading
import time

from gameplay.engine import registry


def test_threads_arriving_while_the_registry_loads_all_find_every_game(monkeypatch):
    monkeypatch.setattr(registry, "_engines", {})
    real_import = importlib.import_module

    def slow_import(name, *args):
        time.sleep(0.01)  # the first import of each game module takes a while
        return real_import(name, *args)

    monkeypatch.setattr(registry.importlib, "import_module", slow_import)
    errors = []

    def look_up():
        try:
            registry.get("war")
        except KeyError as exc:
            errors.append(exc)

    threads = [threading.Thread(target=look_up) for _ in range(8)]
    for thread in threads:
        thread.start()
        time.sleep(0.005)
    for thread in threads:
        thread.join()
    assert not errors
