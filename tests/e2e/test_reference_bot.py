"""The reference bot (examples/bot.py) against the real server: two bot accounts, one
challenging the other to a game of every multi-player kind at once; the challenged one
accepts them all from its event socket, and both play every game to its end, through
sockets that the challenged one drops every few actions (it reconnects and goes on)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from accounts.models import User
from api import services, tokens
from gameplay.engine import registry
from gameplay.models import Game

from ..conftest import ROOT

pytestmark = pytest.mark.django_db(transaction=True)

KINDS = [k for k in registry.kinds() if registry.get(k).max_players > 1]
WITHIN = 420  # seconds for all the games together (they take about a minute here)


@pytest.fixture
def daphne_env():
    return {"TOKEN_RATE": "100000"}


def bot_account(name: str) -> str:
    user = User.objects.create_user(name, password=None)
    services.become_bot(user=user)
    _, secret = tokens.create_token(user=user, name="reference", scopes=["play", "read"])
    return secret


def start(server: str, secret: str, *args: str) -> subprocess.Popen:
    command = [sys.executable, "examples/bot.py", "--server", server, "--token", secret, *args]
    return subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def test_the_reference_bot_plays_every_multi_player_kind(daphne_server):
    alpha, beta = bot_account("alpha"), bot_account("beta")
    games = str(len(KINDS))
    accepting = start(daphne_server, alpha, "--games", games, "--drop-after", "9")
    challenging = start(
        daphne_server, beta, "--games", games, "--challenge", "alpha", "--game", ",".join(KINDS)
    )
    outcomes = {}
    try:
        for name, proc in (("beta", challenging), ("alpha", accepting)):
            out, err = proc.communicate(timeout=WITHIN)
            assert proc.returncode == 0, f"{name} failed:\n{err[-4000:]}"
            outcomes[name] = json.loads(out.strip().splitlines()[-1])
    finally:
        for proc in (accepting, challenging):
            if proc.poll() is None:
                proc.kill()
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
