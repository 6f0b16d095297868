from django.core.management.base import BaseCommand

from kudos import awards, badges


class Command(BaseCommand):
    help = (
        "Award every badge that players' stored history has reached (after a badge is added "
        "to the catalogue). Each badge pays once: running it again awards nothing new."
    )

    def handle(self, *args, **options):
        players = badges.players_with_history()
        awarded = paid = 0
        for user_id in players:
            for badge in awards.award_due(user_id):
                awarded += 1
                paid += badge.reward
        self.stdout.write(
            f"Checked {len(players)} players: {awarded} badges awarded, {paid} Kudos paid."
        )
