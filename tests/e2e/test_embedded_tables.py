"""The embedded setup of `make run` (a SQLite file, the in-memory channel layer, tasks run
in-process, no beat) under load: ten live tables with computer players at once all play to
the end, a game whose computer turn was lost is picked up by the server's own sweep, and the
server prints no error the whole time. daphne runs as a real process, as `make run` starts
it, without DATABASE_URL or REDIS_URL."""

import json
import os
import subprocess
import sys
import threading
import time
import urllib.error

import pytest

from gameplay.engine import registry
from tests.conftest import ROOT, daphne_command, free_port, start_server, wait_for_port

from .client import SiteClient, receive

# Three-seat War deals that end within 45 rounds, so ten tables finish in seconds.
SHORT_WARS = [
    "short3/1761",
    "short3/1652",
    "short3/1279",
    "short3/702",
    "short3/781",
    "short3/1981",
    "short3/844",
    "short3/1028",
    "short3/2717",
    "short3/1277",
]
LOST_TURN_WAR = "short/235"  # two computer players, 47 rounds

# Run in a second process on the same SQLite file: deal the seeded games into the rooms the
# players made (a seed can't be chosen over HTTP), then start one all-computer game whose
# process "dies" before its first computer turn runs, so only a sweep can get it going.
SETUP = """
import json, sys
from datetime import timedelta
import django
django.setup()
from django.utils import timezone
from gameplay import services as gameplay
from gameplay.models import Game
from lobby import services
from lobby.models import Room

tables = {}
for code, seed in json.loads(sys.argv[1]).items():
    room = Room.objects.get(code=code, is_open=True)
    game = services.start_game(room=room, player=room.host, kind="war", seats=3, seed=seed)
    tables[code] = game.pk
gameplay.run_later = lambda *args, **kwargs: None  # the computer turn is lost
lost = gameplay.start_game(
    kind="war", seats=[{"name": "Cubot", "bot": True}, {"name": "Pixel", "bot": True}],
    seed=sys.argv[2],
)
Game.objects.filter(pk=lost.pk).update(updated=timezone.now() - timedelta(minutes=5))
print(json.dumps({"tables": tables, "lost": lost.pk}))
"""


@pytest.fixture
def embedded(tmp_path):
    """daphne as `make run` starts it, on a fresh SQLite file; fails the test on a traceback."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(SQLITE_PATH=str(tmp_path / "db.sqlite3"), BOT_DELAY="0", RANKED_FILL_AFTER="3")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    port = free_port()
    server = start_server(
        daphne_command(port),
        env,
        "The embedded server",
    )
    wait_for_port(server, port)
    yield f"http://127.0.0.1:{port}", env
    server.stop()
    server.check()
    assert "database is locked" not in server.text()


def play_to_the_end(client: SiteClient, code: str, finals: dict, errors: list) -> None:
    """A person at seat 0 flips whenever asked, one flip at a time (the next only once the
    server acknowledged the last), paced under the flood limit (8 messages a second)."""
    pending = None
    try:
        with client.socket(code) as ws:
            while True:
                message = receive(ws, timeout=60)
                if message["type"] == "error":
                    errors.append((code, message))
                    pending = None
                    continue
                if message["type"] == "ack":  # our flip is in the log
                    assert message["id"] == pending, message
                    pending = None
                    continue
                if message["over"]:
                    finals[code] = message
                    return
                if pending is None and {"type": "flip"} in message["legal"]:
                    time.sleep(0.2)  # 5 moves a second: under the flood limit
                    pending = f"flip-{message['seq']}"
                    ws.send(
                        json.dumps(
                            {
                                "type": "act",
                                "action": {"type": "flip"},
                                "seq": message["seq"],
                                "id": pending,
                            }
                        )
                    )
    except Exception as exc:  # reported by the test below
        errors.append((code, repr(exc)))


def finished_log(client: SiteClient, game_id: int, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            return json.load(client.get(f"/games/{game_id}/log.json"))
        except urllib.error.HTTPError as exc:
            assert exc.code == 403  # not over yet
            time.sleep(0.5)
    raise AssertionError(f"game {game_id} did not finish")


def replayed_result(log: dict) -> dict:
    engine = registry.get(log["kind"])
    state = engine.new_game(players=log["players"], seed=log["seed"], rules=log["rules"])
    for entry in log["actions"]:
        engine.apply(state, entry["seat"], entry["action"])
    assert engine.is_over(state)
    return engine.result(state)


def test_ten_tables_with_computer_players_all_finish(embedded):
    url, env = embedded
    players = [SiteClient(url) for _ in SHORT_WARS]
    codes = [player.create_room() for player in players]
    setup = subprocess.run(
        [
            sys.executable,
            "-c",
            SETUP,
            json.dumps(dict(zip(codes, SHORT_WARS, strict=True))),
            LOST_TURN_WAR,
        ],
        cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "cubiccards.settings"},
        capture_output=True,
        text=True,
        check=True,
    )
    games = json.loads(setup.stdout.strip().splitlines()[-1])
    finals: dict[str, dict] = {}
    errors: list = []
    threads = [
        threading.Thread(target=play_to_the_end, args=(player, code, finals, errors))
        for player, code in zip(players, codes, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    assert not errors, errors
    assert sorted(finals) == sorted(codes)
    for player, code in zip(players, codes, strict=True):
        log = finished_log(player, games["tables"][code])
        assert log["seed"] == SHORT_WARS[codes.index(code)]
        assert replayed_result(log) == log["result"] == finals[code]["result"]
        assert len(log["actions"]) == finals[code]["seq"]
    # Nobody was playing the lost game: the server's sweep found it stalled and restarted it.
    lost = finished_log(players[0], games["lost"])
    assert replayed_result(lost) == lost["result"]


def test_the_server_runs_beats_schedule_a_ranked_player_alone_gets_a_table(embedded):
    """No beat under `make run`: the server keeps beat's clock itself, so the ranked matcher
    (a beat task) fills a lone player's table with computer players after the wait."""
    url, env = embedded
    carol = SiteClient(url)
    carol.sign_up("carol")
    assert carol.post_json("/ranked/poker/?format=json")["ok"]
    with carol.socket_at("/ws/queue/poker/?format=json") as ws:
        while True:
            message = receive(ws, timeout=60)
            assert message["type"] == "queue" and message["status"] in ("waiting", "matched")
            if message["status"] == "matched" and message["url"]:
                break
    with carol.socket(message["room"]) as ws:
        state = receive(ws)
    assert state["type"] == "state" and state["game"] == "poker"
    assert [s["name"] for s in state["seats"] if not s["bot"]] == ["carol"]
