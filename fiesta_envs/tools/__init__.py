"""Tools for people: play a game in the terminal (``play``), replay a saved record (``replay``),
and what they share with the web app (``fiesta_envs.web``): legal actions grouped by first word
(``action_groups``), previews of a choice (``preview``), final infos as tables (``breakdown``),
per-game guides, legends and hints (``guides``), other players' moves in words (``narration``); and the
command line's tables of results (``result_tables``: ``fiesta evaluate``, ``fuzz``, ``bench``)."""
