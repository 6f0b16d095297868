from django.core.management.base import BaseCommand, CommandError

from kudos import selectors


class Command(BaseCommand):
    help = (
        "Check the Kudos ledger: each player's entries add up to their balance, entry by "
        "entry, and no balance is negative. Exits non-zero on any mismatch."
    )

    def handle(self, *args, **options):
        report = selectors.audit()
        for problem in report["problems"]:
            self.stderr.write(problem)
        if report["problems"]:
            raise CommandError(f"The Kudos ledger has {len(report['problems'])} problem(s).")
        self.stdout.write(
            f"Kudos ledger OK: {report['players']} players, {report['entries']} entries, "
            f"{report['total']} Kudos held."
        )
