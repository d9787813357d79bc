"""Fiesta de los Muertos and its La Catrina campaign: lexicon, constraint cards, rules engines."""
