"""The picture of a Fiesta de los Muertos or La Catrina game, drawn from the public state.

Top: the round, the team's Memory and Limbo Bones and (La Catrina) the 13 flowers of the hat,
the constraint cards and cortege themes in play. Then the skulls: during the writing, how many
teeth are written and who holds each skull (the words themselves stay hidden); from the
deduction on, each skull's number card and its last word, and the 8 characters face up on the
table. After the reveal, each skull's answer, guesses, white and yellow boxes, bones spent and
whether it is closed; once the game is over, every skull's character and whole chain of words.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fiesta_envs.muertos.components import BLANK, MAX_FLOWERS, NOT_WRITTEN, STEPS, Phase
from fiesta_envs.muertos.constraints import CONSTRAINTS
from fiesta_envs.muertos.lexicon import THEMES, load_lexicon
from fiesta_envs.render.canvas import COLOURS, RGB, Canvas, line_height, seat_colour, status_line

#: The package's lexicon (data: the renderer reads it, never the engine's modules).
LEXICON = load_lexicon()
#: How each phase is named on the picture, in ``Phase`` order.
PHASE_NAMES = ("draw", "writing", "deduction", "yellow boxes", "spending bones", "round over")
SKULL_WIDTH = 112
WIDTH = 8 * SKULL_WIDTH + 40
MARGIN = 12
BONE: RGB = (250, 246, 232)
FLOWER: RGB = (226, 70, 120)


def draw(game: Any) -> np.ndarray:
    """The table of ``game`` (a ``FiestaDeLosMuertos`` or ``LaCatrina``) as an RGB array."""
    data = game.state_dict()["state"]
    table = data["round"]
    canvas = Canvas(WIDTH, 700)
    y = _header(canvas, game, data)
    y = _skulls(canvas, game, table, y + 6)
    if table["phase"] >= Phase.DEDUCE:
        y = _characters(canvas, table, y + 6)
    if game.catrina and data["history"]:
        y = _history(canvas, data["history"], y + 6)
    canvas.text((MARGIN, canvas.height - 26), status_line(game), 16)
    return canvas.to_array()


def _header(canvas: Canvas, game: Any, data: dict[str, Any]) -> float:
    table, team = data["round"], data["team"]
    title = "La Catrina" if game.catrina else "Fiesta de los Muertos"
    rounds = f" - round {data['round_index'] + 1}/{game.max_rounds}" if game.catrina else ""
    canvas.text((MARGIN, 8), f"{title} - {game.num_players} players{rounds}", 20)
    phase = PHASE_NAMES[table["phase"]]
    if table["phase"] == Phase.WRITE:
        phase += f" (step {table['step'] + 1} of {STEPS})"
    elif table["phase"] == Phase.DEDUCE:
        phase += f" (player_{table['seat']} matches skull {table['number'] + 1})"
    elif table["phase"] in (Phase.YELLOW, Phase.SPEND):
        phase += f" (decider: player_{table['decider']})"
    canvas.text((MARGIN, 36), f"phase: {phase}", 15)
    x: float = MARGIN
    x += canvas.text((x, 60), f"Memory Bones: {team['memory']}", 15) + 24
    if game.catrina:
        x += canvas.text((x, 60), f"Limbo Bones: {team['limbo']}", 15) + 24
        x += canvas.text((x, 60), f"flowers {team['flowers']}/{MAX_FLOWERS}:", 15) + 12
        for k in range(MAX_FLOWERS):
            canvas.circle(
                (x + 9 + k * 20, 69),
                8,
                FLOWER if k < team["flowers"] else COLOURS["empty"],
                outline=COLOURS["panel_edge"],
            )
    y = 86.0
    if table["themes"]:
        canvas.text((MARGIN, y), "cortege themes: " + ", ".join(THEMES[t] for t in table["themes"]), 13)
        y += line_height(13)
    for c in table["constraints"]:
        card = CONSTRAINTS[c]
        canvas.text((MARGIN, y), f"constraint {card.name}: {card.text}", 13, max_width=WIDTH - 2 * MARGIN)
        y += line_height(13)
    return y


def _skulls(canvas: Canvas, game: Any, table: dict[str, Any], top: float) -> float:
    n = game.num_players
    skulls = len(table["characters"])
    phase = table["phase"]
    revealed = phase >= Phase.YELLOW
    over = game.is_over
    height = 150 + (66 if revealed else 0) + (4 * line_height(11) + 18 if over else 0)
    for position in range(skulls):
        left = MARGIN + position * SKULL_WIDTH
        box = (left, top, left + SKULL_WIDTH - 8, top + height)
        if phase >= Phase.DEDUCE:  # skulls are laid out by their number cards
            skull = table["numbers"][position]
            title = f"skull {position + 1}"
        else:
            skull = position
            owner, hand = skull % n, skull // n
            title = f"player_{owner}" + (f" #{hand + 1}" if skulls > n else "")
        owner = skull % n
        # whose skull carries which number card stays secret until the reveal
        colour = seat_colour(owner) if phase < Phase.DEDUCE or revealed else COLOURS["panel_edge"]
        y = canvas.panel(box, title, colour, size=13)
        _skull_face(canvas, ((box[0] + box[2]) / 2, y + 30), table["words"][skull])
        y += 66
        inner = SKULL_WIDTH - 22
        x = box[0] + 6
        if phase == Phase.WRITE:
            holder = (owner + table["step"]) % n
            canvas.text((x, y), f"held by player_{holder}", 11, max_width=inner)
        elif phase >= Phase.DEDUCE:
            canvas.text((x, y), _word(table["words"][skull][STEPS - 1]), 13, COLOURS["highlight"], max_width=inner)
        y += line_height(13)
        if revealed:
            y = _reveal(canvas, game, table, skull=skull, origin=(x, y), room=inner)
        if over:
            y += 4
            canvas.text((x, y), LEXICON.characters[table["characters"][skull]].name, 11, max_width=inner)
            y += line_height(11)
            for word in table["words"][skull]:
                canvas.text((x + 4, y), _word(word), 10, COLOURS["faint"], max_width=inner - 4)
                y += line_height(10)
    return top + height


def _skull_face(canvas: Canvas, centre: tuple[float, float], words: list[int]) -> None:
    """A sugar skull whose four teeth are filled once written (black) or left blank (crossed)."""
    x, y = centre
    canvas.circle((x, y), 26, BONE, outline=COLOURS["ink"], width=2)
    canvas.circle((x - 10, y - 6), 6, COLOURS["ink"])
    canvas.circle((x + 10, y - 6), 6, COLOURS["ink"])
    for k, word in enumerate(words):
        tooth = (x - 18 + k * 9, y + 8, x - 11 + k * 9, y + 18)
        fill = COLOURS["empty"] if word == NOT_WRITTEN else COLOURS["ink"]
        canvas.box(tooth, fill=fill, outline=COLOURS["ink"])
        if word == BLANK:
            canvas.line([(tooth[0], tooth[1]), (tooth[2], tooth[3])], COLOURS["white"], 2)


def _reveal(
    canvas: Canvas, game: Any, table: dict[str, Any], *, skull: int, origin: tuple[float, float], room: float
) -> float:
    x, y = origin
    answer = _table_slots(table).index(table["characters"][skull]) + 1
    guesses = " ".join(str(g + 1) if g >= 0 else "-" for g in table["guesses"][skull])
    canvas.text((x, y), f"player_{skull % game.num_players}'s, answer {answer}", 10, max_width=room)
    y += line_height(10)
    canvas.text((x, y), f"guesses {guesses}", 10, max_width=room)
    y += line_height(10)
    whites = game.num_players - 1
    for k in range(whites):  # white boxes, then the yellow box
        canvas.box(
            (x + k * 11, y, x + k * 11 + 9, y + 9),
            fill=COLOURS["ink"] if k < table["whites"][skull] else COLOURS["white"],
            outline=COLOURS["ink"],
        )
    canvas.box(
        (x + whites * 11 + 4, y, x + whites * 11 + 13, y + 9),
        fill=(240, 200, 40) if table["yellow"][skull] else (255, 245, 200),
        outline=COLOURS["ink"],
    )
    y += 13
    closed = table["limbo"][skull] or table["whites"][skull] >= whites
    notes = ["closed" if closed else "open"]
    if table["bones"][skull]:
        notes.append(f"{table['bones'][skull]} bone")
    if table["limbo"][skull]:
        notes.append("limbo")
    if table["rewards"][skull]:
        notes.append(table["rewards"][skull])
    canvas.text((x, y), ", ".join(notes), 11, COLOURS["good"] if closed else COLOURS["bad"], max_width=room)
    return y + line_height(11)


def _table_slots(table: dict[str, Any]) -> list[int]:
    pool = table["characters"] + table["extras"]
    return [pool[i] for i in table["table_order"]]


def _characters(canvas: Canvas, table: dict[str, Any], top: float) -> float:
    canvas.text((MARGIN, top), "characters on the table", 13, COLOURS["faint"])
    top += line_height(13)
    for slot, character in enumerate(_table_slots(table)):
        left = MARGIN + slot * SKULL_WIDTH
        name = LEXICON.characters[character].name
        canvas.card((left, top, left + SKULL_WIDTH - 8, top + 44), (250, 236, 200), f"{slot + 1}", [name], size=14)
    return top + 50


def _history(canvas: Canvas, history: list[dict[str, Any]], top: float) -> float:
    canvas.text((MARGIN, top), "rounds played", 13, COLOURS["faint"])
    top += line_height(13)
    for record in history:
        result = "success" if record.get("success") else "failed"
        flowers = record.get("yellow_flowers", 0) + record.get("bonus_flowers", 0)
        text = f"round {record['round']}: {record['appeased']}/{record['skulls']} closed, {result}, +{flowers} flowers"
        canvas.text((MARGIN + 8, top), text, 12)
        top += line_height(12)
    return top


def _word(word: int) -> str:
    if word == NOT_WRITTEN:
        return "..."
    if word == BLANK:
        return "(blank)"
    return LEXICON.words[word].text


def private_lines(game: Any, seat: int) -> list[str]:
    """What ``seat`` alone knows: its character(s) or the two it chooses from, the word handed to
    it now, the words it received earlier in the round, the words it wrote, and its guesses before
    the reveal."""
    table = game.state_dict()["state"]["round"]
    n = game.num_players
    hands = len(table["characters"]) // n
    names = LEXICON.characters
    lines = []
    if table["offers"] and table["phase"] == Phase.DRAW:
        offer = ", ".join(f"{k}: {names[c].name}" for k, c in enumerate(table["offers"][seat]))
        lines.append(f"characters dealt to you (keep one): {offer}")
    mine = [table["characters"][hand * n + seat] for hand in range(hands)]
    if any(c >= 0 for c in mine):
        lines.append("your character(s): " + ", ".join(names[c].name for c in mine if c >= 0))
    if table["phase"] == Phase.WRITE:
        step = table["step"]
        for hand in range(hands):
            skull = hand * n + (seat - step) % n
            if step == 0:
                task = f"write a word for the character {names[table['characters'][skull]].name!r}"
            else:
                task = f"write a word after {_word(table['words'][skull][step - 1])!r}"
            label = f"skull of player_{skull % n}" + (f" #{hand + 1}" if hands > 1 else "")
            lines.append(f"{label}: {task}")
    received = _received(table, seat, n, hands)
    if received:
        lines.append("words you received: " + "; ".join(received))
    written = [
        f"step {k + 1}: {_word(table['words'][hand * n + (seat - k) % n][k])}"
        for hand in range(hands)
        for k in range(STEPS)
        if table["words"][hand * n + (seat - k) % n][k] != NOT_WRITTEN
    ]
    if written:
        lines.append("words you wrote: " + "; ".join(written))
    if table["phase"] == Phase.DEDUCE:
        guesses = [
            f"skull {d + 1} -> {table['guesses'][j][seat] + 1}"
            for d, j in enumerate(table["numbers"])
            if table["guesses"][j][seat] >= 0
        ]
        if guesses:
            lines.append("your guesses: " + ", ".join(guesses))
    return lines


def _received(table: dict[str, Any], seat: int, n: int, hands: int) -> list[str]:
    """The words ``seat`` read earlier in the round: at writing step k (k >= 1) it held the skull of
    player (seat - k) mod N and read the word written on it at step k - 1. The word read at the step
    being written now is told by the task line instead."""
    steps_read = table["step"] if table["phase"] == Phase.WRITE else STEPS if table["phase"] > Phase.WRITE else 0
    received = []
    for hand in range(hands):
        for k in range(1, steps_read):
            skull = hand * n + (seat - k) % n
            word = table["words"][skull][k - 1]
            if word != NOT_WRITTEN:
                label = f"player_{skull % n}'s skull" + (f" #{hand + 1}" if hands > 1 else "")
                received.append(f"step {k + 1}: {_word(word)!r} ({label})")
    return received


#: Actions whose content only their player knows: what the other players are told instead.
HIDDEN_ACTIONS = {
    "keep": "keeps a character",
    "write": "writes a word",
    "blank": "writes a word",
    "match": "matches a skull",
}


def public_action(name: str) -> str:
    """How an action looks to the other players (words, kept characters and guesses stay secret)."""
    return HIDDEN_ACTIONS.get(name.split(" ", 1)[0], name)


__all__ = ["draw", "private_lines", "public_action"]
