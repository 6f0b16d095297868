"""makemessages that also finds the engines' sentences: ``say("…")`` and ``say_n("…", "…", n)``
(gameplay/engine/text.py), which the engines write instead of gettext (they know no Django)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=say",
        "--keyword=say_n:1,2",
    ]
