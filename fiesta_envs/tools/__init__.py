"""Tools for people: play a game in the terminal (``play``), replay a saved record (``replay``)."""
