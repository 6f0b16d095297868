"""One module per game; the registry lists them."""
