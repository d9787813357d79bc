"""``fiesta serve``: play and watch the games in a web browser on this machine.

A small Flask application (``pip install fiesta_envs[web]``) served on 127.0.0.1 only::

    fiesta serve --port 8000        # then open http://127.0.0.1:8000/ (or: python -m fiesta_envs.web)

The start page names every game. A person can play any seat against agents (baselines, the
shipped ``ppo``, a checkpoint directory), watch agents play each other step by step, or replay
a game record written by ``fiesta evaluate --records`` forward and back. The table is drawn as
the game's picture (``fiesta_envs.render.draw``); the legal actions are buttons grouped by the first
word of their names; where the engine can say what a choice does without revealing hidden
cards or dice, a preview shows the points it brings and the table after it; what one seat alone
knows is shown only to that seat; the end of a game shows the breakdown of ``final_info``.

Modules, one job each: ``tables`` (the games being played or watched, kept on the server),
``agents`` (naming an agent), ``app`` (the Flask routes and pages), ``serve`` (the command line).
What the terminal game shares with it lives in ``fiesta_envs.tools``: ``action_groups`` (legal
actions grouped by first word), ``preview`` (what a choice would do), ``breakdown`` (final infos
as tables), ``guides`` (what each game adds: legend, hints, which choices get a preview).
``import fiesta_envs`` never imports this package, and this package imports Flask only in ``app``.
"""
