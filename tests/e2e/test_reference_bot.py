"""The reference bot (examples/bot.py) against the real server: two bot accounts, one
challenging the other to a game of every multi-player kind at once; the challenged one
accepts them all from its event socket, and both play every game to its end, through
sockets that the challenged one drops every few actions (it reconnects and goes on)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from accounts.models import User
from api import services, tokens
from gameplay.engine import registry
from gameplay.models import Game

from ..conftest import ROOT

pytestmark = pytest.mark.django_db(transaction=True)

KINDS = [k for k in registry.kinds() if registry.get(k).max_players > 1]
WITHIN = 300  # seconds for all the games together (they take about a minute here)


@pytest.fixture
def daphne_env():
    return {"TOKEN_RATE": "100000"}


def _tail(log) -> str:
    log.flush()
    log.seek(0)
    return "".join(log.readlines()[-60:])


def bot_account(name: str) -> str:
    user = User.objects.create_user(name, password=None)
    services.become_bot(user=user)
    _, secret = tokens.create_token(user=user, name="reference", scopes=["play", "read"])
    return secret


def start(server: str, secret: str, log, *args: str) -> subprocess.Popen:
    command = [sys.executable, "examples/bot.py", "--server", server, "-v", *args]
    env = {**os.environ, "CUBICCARDS_TOKEN": secret}
    return subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=log, text=True
    )


def test_the_reference_bot_plays_every_multi_player_kind(daphne_server, tmp_path):
    alpha, beta = bot_account("alpha"), bot_account("beta")
    games = str(len(KINDS))
    logs = {name: (tmp_path / f"{name}.log").open("w+") for name in ("alpha", "beta")}
    accepting = start(daphne_server, alpha, logs["alpha"], "--games", games, "--drop-after", "9")
    challenging = start(
        daphne_server,
        beta,
        logs["beta"],
        *("--games", games, "--challenge", "alpha", "--game", ",".join(KINDS)),
    )
    outcomes = {}
    deadline = time.monotonic() + WITHIN
    try:
        for name, proc in (("beta", challenging), ("alpha", accepting)):
            try:
                out, _ = proc.communicate(timeout=max(1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pytest.fail(f"{name} did not finish its games in time:\n{_tail(logs[name])}")
            assert proc.returncode == 0, f"{name} failed:\n{_tail(logs[name])}"
            outcomes[name] = json.loads(out.strip().splitlines()[-1])
    finally:
        for proc in (accepting, challenging):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    for name, outcome in outcomes.items():
        played = sorted(game["game"] for game in outcome["finished"])
        assert played == sorted(KINDS), f"{name} played {played}"
        assert all(game["result"] for game in outcome["finished"])
    assert outcomes["alpha"]["reconnects"] > 0  # it dropped its sockets, and came back
    ended = Game.objects.filter(status=Game.Status.OVER).values_list("kind", flat=True)
    assert sorted(ended) == sorted(KINDS)
    print(
        f"\nreference bot: {len(KINDS)} games, alpha reconnected {outcomes['alpha']['reconnects']}×"
    )
