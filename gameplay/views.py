from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext

from . import archive, store
from .engine import registry
from .models import Game


def log_json(request, game_id: int):
    """The full log of a finished game: seed, rules, players, actions. Hidden while in play."""
    game = get_object_or_404(Game, pk=game_id)
    if not game.is_over:
        return JsonResponse(
            {
                "error": gettext("The log is published when the game is over."),
                "seed_sha256": game.seed_hash,
            },
            status=403,
        )
    if game.sealed(timezone.now()):
        return JsonResponse(
            {
                "error": gettext(
                    "This deal is still being played by others: its log is published at {when}."
                ).format(when=game.sealed_until.isoformat()),
                "seed_sha256": game.seed_hash,
            },
            status=403,
        )
    return JsonResponse(store.public_log(game))


def replay(request, game_id: int):
    """Step through a finished game as a spectator would have seen it."""
    game = get_object_or_404(Game, pk=game_id)
    if not game.is_over:
        raise Http404(gettext("The replay opens when the game is over."))
    if game.sealed(timezone.now()):
        raise Http404(gettext("This deal is still being played by others: its replay opens later."))
    engine = registry.get(game.kind)
    total = game.seq
    try:
        step = min(max(int(request.GET.get("step", total)), 0), total)
    except ValueError:
        step = total
    state = store.replay(game, upto=step)
    return render(
        request,
        "gameplay/replay.html",
        {
            "game": game,
            "engine": engine,
            "step": step,
            "total": total,
            "view": engine.view(state, None),
            "entry": next(iter(archive.entries(game, step)[step - 1 : step]), None),
            "prev_step": max(step - 1, 0),
            "next_step": min(step + 1, total),
        },
    )
