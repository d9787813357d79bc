"""The Flask application: the start page, tables to play at, timelines to watch, pictures.

Routes::

    GET  /                              every game, with forms to play, watch or replay
    POST /new/play  /new/watch  /new/replay     set a table up, then go to its page
    GET  /table/<id>                    the table (?preview=N a choice's preview, ?step=K, ?seat=S)
    POST /table/<id>/play               the person's action (form field ``action``)
    GET  /table/<id>/picture.png        the table drawn (?step=K for a timeline, ?preview=N); at a play table
                                        as the person's seat sees it (``render.seen_by``), in a timeline
                                        as ?seat=S saw it
    GET  /table/<id>/choice/<N>.png     what the person's legal action N would do, drawn small
                                        (``render.choice_picture``: Fiesta Mexicana's card and table turns)

All state lives on the server in a ``TableStore``; pages are plain HTML forms and links, so the
app works without JavaScript (a few lines of it only filter long button lists).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from fiesta_envs.agents.registry import seat_agents
from fiesta_envs.core.errors import FiestaError
from fiesta_envs.core.game import Game
from fiesta_envs.registry import GAMES, game_spec
from fiesta_envs.render import hidden_scores, pictured_choices, seen_by
from fiesta_envs.tools.action_groups import group_actions
from fiesta_envs.tools.breakdown import build_breakdown, show
from fiesta_envs.tools.guides import decision_hint, guide_for, outcome_text
from fiesta_envs.tools.preview import has_preview, preview
from fiesta_envs.web.agents import agent_choices, parse_options
from fiesta_envs.web.grid import SquareGrid, actions_shown, square_grid, square_label
from fiesta_envs.web.tables import (
    PlayTable,
    TableStore,
    Timeline,
    timeline_from_record,
    told_moves,
    unseen_players,
)

#: Records shown per file on the start page.
RECORDS_LISTED = 40
#: Moves shown in a table's log (the most recent ones).
LOG_LENGTH = 40


def create_app(record_files: Sequence[str | Path] = ()) -> Flask:
    """The web app; ``record_files`` are ``.jsonl`` game records listed on the start page."""
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = 32 * 1024 * 1024
    tables = TableStore()
    app.extensions["fiesta_tables"] = tables
    files = [Path(f) for f in record_files]

    @app.get("/")
    def index() -> str:
        return _index_page(files)

    def open_table(make_table: Callable[[], PlayTable | Timeline]) -> Any:
        """Set up the table the form asks for and go to its page; the start page with the error if the form is wrong."""
        try:
            table_id = tables.add(make_table())
        except (FiestaError, KeyError, ValueError) as error:
            return _index_page(files, error), 400
        return redirect(url_for("table_page", table_id=table_id))

    @contextmanager
    def locked_table(table_id: str, kind: type | tuple[type, ...] = (PlayTable, Timeline)) -> Iterator[Any]:
        """The table ``table_id`` of that ``kind``, held by its lock (404 when there is none)."""
        table = tables.get(table_id)
        if not isinstance(table, kind):
            abort(404)
        with tables.locks[table_id]:
            yield table

    @app.post("/new/play")
    def new_play() -> Any:
        return open_table(lambda: _play_table(request.form))

    @app.post("/new/watch")
    def new_watch() -> Any:
        return open_table(lambda: _watch_table(request.form))

    @app.post("/new/replay")
    def new_replay() -> Any:
        return open_table(lambda: timeline_from_record(_chosen_record(files)))

    @app.get("/table/<table_id>")
    def table_page(table_id: str) -> Any:
        with locked_table(table_id) as table:
            try:
                if isinstance(table, PlayTable):
                    return _play_page(table_id, table)
                return _timeline_page(table_id, table)
            except (FiestaError, ValueError) as error:
                return render_template("error.html", error=str(error), table_id=table_id), 400

    @app.post("/table/<table_id>/play")
    def table_play(table_id: str) -> Any:
        with locked_table(table_id, PlayTable) as table:
            try:
                table.play(_int(request.form.get("action"), "action"))
            except (FiestaError, ValueError) as error:
                return _play_page(table_id, table, error=str(error)), 400
        return redirect(url_for("table_page", table_id=table_id))

    @app.get("/table/<table_id>/picture.png")
    def table_picture(table_id: str) -> Response:
        with locked_table(table_id) as table:
            try:
                game = _pictured_game(table)
            except (FiestaError, ValueError):
                abort(404)
            return Response(picture_png(game), mimetype="image/png")

    @app.get("/table/<table_id>/choice/<int:action>.png")
    def choice_picture(table_id: str, action: int) -> Response:
        from fiesta_envs.render import choice_picture

        with locked_table(table_id, PlayTable) as table:
            if not table.your_turn or not 0 <= action < table.game.num_actions:
                abort(404)
            picture = choice_picture(table.game, table.seat, action)
            if picture is None:
                abort(404)
            return Response(png_bytes(picture), mimetype="image/png")

    return app


# ---------------------------------------------------------------------- pages
def _index_page(files: Sequence[Path], error: BaseException | str | None = None) -> str:
    games = []
    for spec in GAMES.values():
        game_class = spec.game_class()
        options = {
            name: (option.choices, option.default)
            for name, option in game_class.options.items()
            if name not in ("reward", "action_features") and option.choices is not None
        }
        games.append(
            {
                "name": spec.name,
                "title": guide_for(spec.name).title,
                "guide": guide_for(spec.name).guide,
                "player_counts": game_class.player_counts,
                "default_players": game_class.default_players,
                "agents": agent_choices(spec),
                "options": options,
            }
        )
    record_lists = [_list_records(path) for path in files]
    return render_template("index.html", games=games, record_lists=record_lists, error=_message(error))


def _play_page(table_id: str, table: PlayTable, error: str | None = None) -> str:
    game = table.game
    preview_of = None
    if table.your_turn and request.args.get("preview"):
        action = _int(request.args.get("preview"), "preview")
        if game.legal_mask()[action] if 0 <= action < game.num_actions else False:
            preview_of = preview(game, action)
    names = game.action_names()
    legal = [(a, names[a]) for a in game.legal_actions()] if table.your_turn else []
    grid = square_grid(names, legal, request.args.get("square")) if legal else None
    groups = group_actions(actions_shown(legal, grid))
    areas = _clickable_squares(game, table.seat, grid) if grid and preview_of is None else []
    previewable = {a for a in game.legal_actions() if has_preview(game, names[a])} if table.your_turn else set()
    action_areas = _clickable_actions(game, table.seat, previewable) if preview_of is None else []
    pictured = [(a, names[a]) for a in pictured_choices(game, table.seat)] if preview_of is None else []
    return render_template(
        "play.html",
        table_id=table_id,
        table=table,
        game=game,
        guide=guide_for(game.name),
        labels=_seat_labels(table.labels),
        scores=_score_column(game, table.seat),
        private=_private_lines(game, table.seat),
        hint=decision_hint(game, table.seat),
        groups=groups,
        grid=grid,
        areas=areas,
        action_areas=action_areas,
        square_label=square_label,
        previewable=previewable,
        pictured=pictured,
        preview=preview_of,
        moves=table.told_moves()[-LOG_LENGTH:],
        unseen=table.unseen_players(),
        end=_end_of_game(game, table.labels) if game.is_over else None,
        error=error,
    )


def _timeline_page(table_id: str, timeline: Timeline) -> str:
    step = _int(request.args.get("step"), "step", timeline.position)
    game = timeline.go(step)
    seat = request.args.get("seat")
    shown_seat = _int(seat, "seat") if seat not in (None, "") else None
    if shown_seat is not None and not 0 <= shown_seat < game.num_players:
        raise FiestaError(f"seat {shown_seat} is not a seat of this {game.num_players}-player game")
    return render_template(
        "timeline.html",
        table_id=table_id,
        timeline=timeline,
        game=game,
        guide=guide_for(game.name),
        step=timeline.position,
        last_step=timeline.last_step,
        forward=timeline.can_go_forward(),
        labels=_seat_labels(timeline.labels),
        scores=_score_column(game, shown_seat),
        seat=shown_seat,
        private=_private_lines(game, shown_seat) if shown_seat is not None else [],
        moves=told_moves(timeline.moves[: timeline.position], game, shown_seat)[-LOG_LENGTH:],
        unseen=unseen_players(timeline.moves[: timeline.position], game, shown_seat),
        end=_end_of_game(game, timeline.labels) if game.is_over else None,
        recorded_scores=timeline.recorded_scores,
    )


def _score_column(game: Game, seat: int | None) -> list[str]:
    """The seats table's scores as ``seat`` (``None``: a spectator) sees them ("?": a score it may not see yet,
    ``render.hidden_scores``), as the picture beside it does."""
    hidden = hidden_scores(game, seat)
    scores = (game if seat is None else seen_by(game, seat)).scores()
    return ["?" if player in hidden else show(float(score)) for player, score in enumerate(scores)]


def _clickable_squares(game: Game, seat: int, grid: SquareGrid) -> list[tuple[tuple[int, int], str]]:
    """The squares of the picture that have choices, with their pixel box as an image map's ``coords``."""
    from fiesta_envs.render import square_boxes

    boxes = square_boxes(game, seat) or {}
    return [
        (square, ",".join(str(round(v)) for v in boxes[square])) for square in sorted(grid.counts) if square in boxes
    ]


def _clickable_actions(game: Game, seat: int, previewable: set[int]) -> list[tuple[int, str, str]]:
    """The single actions drawn on the picture (``render.action_boxes``: Tequila's fences and market spaces)
    that are legal and previewable now: ``(action, name, coords)``; a click previews the action."""
    from fiesta_envs.render import action_boxes

    boxes = action_boxes(game, seat)
    names = game.action_names()
    return [
        (action, names[action], ",".join(str(round(v)) for v in boxes[names[action]]))
        for action in sorted(previewable)
        if names[action] in boxes
    ]


def _end_of_game(game: Game, labels: Sequence[str]) -> dict[str, Any]:
    winners = game.winners()
    return {
        "breakdown": build_breakdown(game.final_info(), _seat_labels(labels)),
        "winners": [_seat_labels(labels)[w] for w in winners],
        "cooperative": game.cooperative,
        "result": show(float(game.scores()[0])),
        "outcome": outcome_text(game) if game.cooperative else "",
    }


# ---------------------------------------------------------------------- pictures
def _pictured_game(table: PlayTable | Timeline) -> Game:
    if isinstance(table, Timeline):
        game = table.go(_int(request.args.get("step"), "step", table.position))
        seat = request.args.get("seat")
        if seat not in (None, ""):
            shown_seat = _int(seat, "seat")
            if not 0 <= shown_seat < game.num_players:
                raise FiestaError(f"seat {shown_seat} is not a seat of this {game.num_players}-player game")
            return seen_by(game, shown_seat)
        return game
    wanted = request.args.get("preview")
    if wanted:
        if not table.your_turn:
            raise FiestaError("no preview: it is not your turn")
        action = _int(wanted, "preview")
        result = preview(table.game, action)
        if result.after is None:
            raise FiestaError(result.note)
        return result.after  # as the person sees it
    return seen_by(table.game, table.seat)


def picture_png(game: Game) -> bytes:
    """The game's picture (``fiesta_envs.render.draw``) as PNG bytes."""
    from fiesta_envs.render import draw

    return png_bytes(draw(game))


def png_bytes(picture: Any) -> bytes:
    """An RGB array as PNG bytes."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(picture).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


# ---------------------------------------------------------------------- reading forms
# ---------------------------------------------------------------------- setting tables up
def _play_table(form: Any) -> PlayTable:
    """A person at ``seat``, agents at the other seats."""
    spec = game_spec(form["game"])
    game = _new_game(spec.name, form)
    seat = _int(form.get("seat"), "seat", 0)
    if not 0 <= seat < game.num_players:
        raise FiestaError(f"seat {seat} is not a seat of a {game.num_players}-player game")
    others = [s for s in range(game.num_players) if s != seat]
    seed = _seed(form)
    agents = seat_agents(spec, game.num_players, others, _agent_names(form), options=game.config, seed=seed)
    return PlayTable(game, seat, agents, seed)


def _watch_table(form: Any) -> Timeline:
    """Agents at every seat, watched step by step."""
    spec = game_spec(form["game"])
    game = _new_game(spec.name, form)
    seats = list(range(game.num_players))
    agents = seat_agents(spec, game.num_players, seats, _agent_names(form), options=game.config, seed=_seed(form))
    return Timeline(spec, game, [agents[s][0] for s in seats], agents=agents)


def _new_game(name: str, form: Any) -> Game:
    game_class = game_spec(name).game_class()
    players = form.get("players") or None
    num_players = _int(players, "players") if players is not None else None
    options = parse_options(form.get("options", ""))
    for option in game_class.options:
        if form.get(f"option_{option}"):
            options[option] = _option_value(form[f"option_{option}"])
    return game_class(num_players=num_players, seed=_seed(form), **options)


def _option_value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _agent_names(form: Any) -> list[str]:
    """The typed agents (comma-separated, a checkpoint path allowed) or else the chosen one."""
    typed = form.get("agents_typed", "").strip()
    if typed:
        return [name.strip() for name in typed.split(",")]
    return [form.get("agent", "random")]


def _seed(form: Any) -> int | None:
    text = (form.get("seed") or "").strip()
    return _int(text, "seed") if text else None


def _int(text: str | None, field: str, default: int | None = None) -> int:
    if text is None or text == "":
        if default is None:
            raise FiestaError(f"{field}: a whole number is needed")
        return default
    try:
        return int(text)
    except ValueError:
        raise FiestaError(f"{field}: {text!r} is not a whole number") from None


def _chosen_record(files: Sequence[Path]) -> dict[str, Any]:
    """The record the replay form names: an uploaded ``.jsonl`` file or a listed one, and its index."""
    index = _int(request.form.get("index"), "index", 0)
    upload = request.files.get("records")
    if upload is not None and upload.filename:
        text = upload.read().decode("utf-8")
        source = upload.filename
    else:
        number = _int(request.form.get("file"), "file")
        if not 0 <= number < len(files):
            raise FiestaError(f"file: no listed records file number {number}")
        source = str(files[number])
        text = files[number].read_text(encoding="utf-8")
    records = _parse_records(text, source)
    if not 0 <= index < len(records):
        raise FiestaError(f"{source}: no record {index}; it holds {len(records)} (0..{len(records) - 1})")
    return records[index]


def _parse_records(text: str, source: str) -> list[dict[str, Any]]:
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise FiestaError(f"{source}, line {number}: not JSON ({error.msg})") from None
        if not isinstance(record, dict):
            raise FiestaError(f"{source}, line {number}: a record must be a JSON object")
        records.append(record)
    if not records:
        raise FiestaError(f"{source}: no records in this file")
    return records


def _list_records(path: Path) -> dict[str, Any]:
    try:
        records = _parse_records(path.read_text(encoding="utf-8"), str(path))
    except (OSError, FiestaError) as error:
        return {"path": str(path), "error": str(error), "records": []}
    listed = [
        {
            "index": i,
            "game": r.get("game", "?"),
            "agents": ", ".join(map(str, r.get("agents") or [])),
            "scores": show(r.get("scores") or []),
        }
        for i, r in enumerate(records[:RECORDS_LISTED])
    ]
    return {"path": str(path), "error": None, "records": listed, "total": len(records)}


# ---------------------------------------------------------------------- small helpers
def _seat_labels(labels: Sequence[str]) -> list[str]:
    return [f"player_{seat} ({label})" for seat, label in enumerate(labels)]


def _private_lines(game: Game, seat: int) -> list[str]:
    from fiesta_envs.render import private_lines

    return private_lines(game, seat)


def _message(error: BaseException | str | None) -> str | None:
    if error is None:
        return None
    if isinstance(error, KeyError):
        return f"missing form field {error}"
    return str(error)
