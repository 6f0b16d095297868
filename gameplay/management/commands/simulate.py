from django.core.management.base import BaseCommand, CommandError

from gameplay.engine import registry
from gameplay.engine.simulate import simulate


class Command(BaseCommand):
    help = "Play computer-vs-computer games through the engine contract and print figures."

    def add_arguments(self, parser):
        parser.add_argument("kind")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", default="simulate")
        parser.add_argument("--players", type=int, default=None)

    def handle(self, *args, kind: str, games: int, seed: str, players: int | None, **options):
        if kind not in registry.kinds():
            raise CommandError(f"Unknown kind '{kind}'. Kinds: {', '.join(registry.kinds())}.")
        stats = simulate(kind, games, seed, players=players)
        seconds = stats["seconds"] or 1e-9
        self.stdout.write(
            f"{kind}: {stats['games']} games, {stats['actions']} actions in {seconds:.2f} s"
        )
        self.stdout.write(f"  games/s            {stats['games'] / seconds:,.1f}")
        self.stdout.write(f"  actions/s          {stats['actions'] / seconds:,.0f}")
        self.stdout.write(f"  actions per game   {stats['actions'] / max(stats['games'], 1):,.1f}")
        for key, value in stats.items():
            if key not in {"games", "actions", "seconds"}:
                self.stdout.write(f"  {key:18} {value}")
