"""makemessages that also finds the engine's sentences: say(msgid, ...) and
say_n(singular, plural, n, ...) (gameplay.engine.text)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=say",
        "--keyword=say_n:1,2",
    ]
