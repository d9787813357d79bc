"""Result tables of Fiesta de los Muertos and La Catrina (data, no rules).

``RESULT_BANDS`` (our ruling: the base game's result is the share of appeased skulls) and
``MOOD_BANDS`` (La Catrina's hat, from the rulebook) map a final result to a band name and text.
"""

from __future__ import annotations

#: (lowest share of skulls appeased, band name, text), best band first.
RESULT_BANDS: tuple[tuple[float, str, str], ...] = (
    (1.0, "perfect", "Every skull is appeased: the dead rest in peace."),
    (0.75, "great", "Nearly every soul is appeased: a fine fiesta."),
    (0.5, "fair", "Half the dead are appeased; the others still wander."),
    (0.0, "restless", "The dead are restless: few of them found their name."),
)

#: (fewest flowers, most flowers, band name, text) from the La Catrina rulebook.
MOOD_BANDS: tuple[tuple[int, int, str, str], ...] = (
    (0, 3, "put out", "La Catrina is somewhat put out. Ouch! You will have to do better next time."),
    (4, 6, "slight smile", "A slight smile appears on La Catrina's face. That is encouraging."),
    (7, 9, "proud", "La Catrina looks at her hat with a certain pride. Well played!"),
    (10, 12, "radiant", "La Catrina has rarely looked so radiant. Tonight she is the most elegant of all!"),
    (13, 13, "won over", "La Catrina is won over and promises you a sumptuous welcome. Hats off!"),
)


def result_band(appeased: int, skulls: int) -> tuple[str, str]:
    """The base game's band for ``appeased`` skulls out of ``skulls``."""
    share = appeased / skulls
    for lowest, name, text in RESULT_BANDS:
        if share >= lowest:
            return name, text
    raise AssertionError("RESULT_BANDS must end with a band starting at 0")


def mood_band(flowers: int) -> tuple[str, str]:
    """La Catrina's mood for a number of flowers (0..13)."""
    for lowest, highest, name, text in MOOD_BANDS:
        if lowest <= flowers <= highest:
            return name, text
    raise ValueError(f"flowers must be within 0..13, got {flowers}")
