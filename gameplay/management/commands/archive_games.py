from django.core.management.base import BaseCommand

from gameplay.archive import archive_ended


class Command(BaseCommand):
    help = (
        "Move the logs of games that ended over --days days ago out of the live event table "
        "into one compressed row per game; replays, log.json and verify_game still read them."
    )

    def add_arguments(self, parser):
        parser.add_argument("--days", type=float, default=30.0)
        parser.add_argument("--limit", type=int, default=10_000, help="games per run")

    def handle(self, *args, days: float, limit: int, **options):
        games, actions = archive_ended(days, limit)
        self.stdout.write(
            f"Archived {games} games ({actions} actions) that ended over {days:g} days ago."
        )
