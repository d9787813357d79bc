"""Tequila's flat action space: index ranges and names (as in the rulings).

=========================  =====  ===========================================================
range                      count  names
=========================  =====  ===========================================================
``REROLL``                     4  ``reroll none|first|second|both`` (starting player, once)
``VIRTUAL``                    2  ``virtual fence|build``
``FENCE``                     40  ``fence S``
``BUILD``                    188  ``build KIND at R C as O`` (every placement on the sheet)
``FREE_ROAD``                 64  ``free road at R C`` (cask tile B)
``PRODUCE``                    4  ``produce white|cream|pink|red``
``SELL``                      24  ``sell R C`` (market row, column)
``EXTRA``                      1  ``extra`` (pay 4 resources for a free action)
``PAY``                        5  ``pay RES`` (a payment of your choice, one resource at a time)
``GAIN``                       5  ``gain RES`` (a gain of your choice, one resource at a time)
``CASK``                       2  ``cask yes|no`` (end of round)
``SHOP``                       2  ``shop yes|no`` (end of round)
``END``                        1  ``end`` (end your round's main phase)
=========================  =====  ===========================================================
"""

from __future__ import annotations

from fiesta_envs.tequila import components, farm
from fiesta_envs.tequila.sheet import MARKET_SPACES

REROLL_CHOICES: tuple[str, ...] = ("none", "first", "second", "both")
VIRTUAL_CHOICES: tuple[str, ...] = ("fence", "build")

_sizes = (
    ("reroll", len(REROLL_CHOICES)),
    ("virtual", len(VIRTUAL_CHOICES)),
    ("fence", farm.NUM_SEGMENTS),
    ("build", farm.NUM_PLACEMENTS),
    ("free_road", farm.SPACES),
    ("produce", len(components.TEQUILAS)),
    ("sell", MARKET_SPACES),
    ("extra", 1),
    ("pay", len(components.RESOURCES)),
    ("gain", len(components.RESOURCES)),
    ("cask", 2),
    ("shop", 2),
    ("end", 1),
)
_starts: dict[str, int] = {}
_total = 0
for _name, _size in _sizes:
    _starts[_name] = _total
    _total += _size
REROLL = _starts["reroll"]
VIRTUAL = _starts["virtual"]
FENCE = _starts["fence"]
BUILD = _starts["build"]
FREE_ROAD = _starts["free_road"]
PRODUCE = _starts["produce"]
SELL = _starts["sell"]
EXTRA = _starts["extra"]
PAY = _starts["pay"]
GAIN = _starts["gain"]
CASK = _starts["cask"]
SHOP = _starts["shop"]
END = _starts["end"]
NUM_ACTIONS = _total
YES, NO = 0, 1  # offsets within CASK and SHOP


def _names() -> list[str]:
    names = [f"reroll {c}" for c in REROLL_CHOICES]
    names += [f"virtual {c}" for c in VIRTUAL_CHOICES]
    names += [f"fence {s}" for s in range(farm.NUM_SEGMENTS)]
    names += [f"build {p.name}" for p in farm.PLACEMENTS]
    names += [f"free road at {x // farm.SIZE} {x % farm.SIZE}" for x in range(farm.SPACES)]
    names += [f"produce {t}" for t in components.TEQUILAS]
    names += [f"sell {m // components.MARKET_COLUMNS} {m % components.MARKET_COLUMNS}" for m in range(MARKET_SPACES)]
    names += ["extra"]
    names += [f"pay {r}" for r in components.RESOURCES]
    names += [f"gain {r}" for r in components.RESOURCES]
    names += ["cask yes", "cask no", "shop yes", "shop no", "end"]
    return names


ACTION_NAMES: tuple[str, ...] = tuple(_names())
assert len(ACTION_NAMES) == NUM_ACTIONS


#: The name of the range each action belongs to.
KINDS: tuple[str, ...] = tuple(name for name, size in _sizes for _ in range(size))


def kind_of(action: int) -> str:
    """The name of the range an action belongs to (``"fence"``, ``"build"``...)."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(action)
    return KINDS[action]
