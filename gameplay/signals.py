from django.dispatch import Signal

# Sent once, after the commit that ends a game, with `game`. accounts and kudos listen.
game_finished = Signal()
