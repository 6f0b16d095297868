from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from kudos import keys, services


class Command(BaseCommand):
    help = (
        "Correct a player's Kudos with a new ledger entry (entries are never edited). The key "
        "(e.g. a support ticket) makes running it twice correct once."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("amount", type=int, help="Kudos to add (negative to take back)")
        parser.add_argument("reason", help="What the player reads in their history")
        parser.add_argument("--key", required=True, help="What this corrects, e.g. ticket-123")

    def handle(self, *args, username, amount, reason, key, **options):
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No player is called {username}.")
        if amount == 0:
            raise CommandError("A correction of 0 changes nothing.")
        try:
            entry, created = services.correct(
                user_id=user.pk, amount=amount, reason=reason, key=keys.correction(key)
            )
        except services.Refused as refused:
            raise CommandError(refused.message) from refused
        if created:
            self.stdout.write(f"{username}: {amount:+} Kudos, balance {entry.balance_after}.")
        else:
            self.stdout.write(f"Correction {key} was made before: nothing changed.")
