from django.core.management.base import BaseCommand, CommandError

from accounts import ratings
from gameplay.engine import registry


class Command(BaseCommand):
    help = "Rate every ended ranked game of a game again from scratch, in the order they ended."

    def add_arguments(self, parser):
        parser.add_argument("kind", nargs="*", help="games to recompute (default: every rated one)")

    def handle(self, *args, **options):
        kinds = options["kind"] or [k for k in registry.kinds() if registry.get(k).rated]
        for kind in kinds:
            if kind not in registry.kinds() or not registry.get(kind).rated:
                raise CommandError(f"{kind} is not a rated game.")
            games = ratings.recompute(kind)
            self.stdout.write(f"{kind}: {games} ranked games rated again")
