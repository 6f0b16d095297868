from django.core.management.base import BaseCommand, CommandError

from gameplay import store
from gameplay.models import Game


class Command(BaseCommand):
    help = "Re-run a game's log and check it against the stored events and the published hash."

    def add_arguments(self, parser):
        parser.add_argument("game_id", type=int)

    def handle(self, *args, game_id: int, **options):
        try:
            game = Game.objects.get(pk=game_id)
        except Game.DoesNotExist as exc:
            raise CommandError(f"There is no game {game_id}.") from exc
        problems = store.verify(game)
        if problems:
            raise CommandError("\n".join([f"Game {game_id} does NOT verify:", *problems]))
        self.stdout.write(
            f"Game {game_id} ({game.kind}) verifies: {game.seq} actions replay to the stored "
            f"events, and SHA-256(seed) = {game.seed_hash}."
        )
