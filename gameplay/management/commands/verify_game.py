from django.core.management.base import BaseCommand, CommandError

from gameplay import store
from gameplay.models import Game


class Command(BaseCommand):
    help = (
        "Re-run a game's log (or, with --all, every game's) and check it against the stored "
        "events and the published hash. Exits non-zero if any game does not verify."
    )

    def add_arguments(self, parser):
        parser.add_argument("game_id", type=int, nargs="?")
        parser.add_argument("--all", action="store_true", help="every game in the database")

    def handle(self, *args, game_id: int | None, all: bool, **options):
        if all == (game_id is not None):
            raise CommandError("Name one game, or --all.")
        if all:
            return self._every_game()
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

    def _every_game(self) -> None:
        checked = failed = actions = 0
        for game in Game.objects.order_by("pk").iterator(chunk_size=200):
            problems = store.verify(game)
            checked, actions = checked + 1, actions + game.seq
            if problems:
                failed += 1
                self.stderr.write("\n".join([f"Game {game.pk} does NOT verify:", *problems]))
        if failed:
            raise CommandError(f"{failed} of {checked} games do NOT verify.")
        self.stdout.write(f"All {checked} games verify ({actions} actions replayed).")
