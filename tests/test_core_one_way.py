"""One way per thing: the configuration enumerator, the ``--option`` parser and the seed derivation
that every command and test shares (``fiesta_envs.core``)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from toy_game import Nim

from fiesta_envs.core.configurations import configurations, variants
from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.core.options import parse_option, parse_options
from fiesta_envs.core.rng import derive_seed
from fiesta_envs.registry import GAMES


class FourPlayerTwist(Nim):
    """The ``max_take=2`` variant exists for 3 players only."""

    player_counts = (2, 3)

    def check_options(self):
        if self.config["max_take"] == 2 and self.num_players != 3:
            raise InvalidOptionError("max_take=2 needs 3 players")


def test_variants_are_the_non_default_choices_fewest_first_in_declared_order():
    assert variants(Nim) == [{}, {"reward": "margin"}, {"max_take": 2}]
    assert variants(Nim, depth=None)[-1] == {"reward": "margin", "max_take": 2}
    assert variants(Nim, depth=0) == [{}]
    assert variants(Nim, skip=("reward",)) == [{}, {"max_take": 2}]


def test_once_per_variant_places_it_at_the_default_count_or_the_first_that_accepts_it():
    assert configurations(Nim, every_count=False) == [(2, {}), (3, {}), (2, {"reward": "margin"}), (2, {"max_take": 2})]
    assert configurations(FourPlayerTwist, every_count=False, skip=("reward",)) == [
        (2, {}),
        (3, {}),
        (3, {"max_take": 2}),
    ]
    assert configurations(FourPlayerTwist) == [(2, {}), (3, {}), (2, {"reward": "margin"}), (3, {"reward": "margin"}),
                                               (3, {"max_take": 2})]  # fmt: skip
    assert configurations(Nim, max_configs=3) == [(2, {}), (3, {}), (2, {"reward": "margin"})]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_registry_and_the_fuzzer_enumerate_the_same_way(name):
    game_class = GAMES[name].game_class()
    once = GAMES[name].configurations()
    every = configurations(game_class)
    assert once == configurations(game_class, every_count=False, skip=("reward",))
    assert once[: len(game_class.player_counts)] == [(n, {}) for n in game_class.player_counts]
    assert all(config in every for config in once)


def test_option_text_is_json_when_it_can_be():
    assert parse_option("max_take=2") == ("max_take", 2)
    assert parse_option(" variant=basic") == ("variant", "basic")
    assert parse_option("flag=true") == ("flag", True)
    assert parse_options(["a=1", "b=x", "a=3"]) == {"a": 3, "b": "x"}
    for bad in ("nothing", "=3"):
        with pytest.raises(InvalidOptionError, match="--option needs NAME=VALUE"):
            parse_option(bad)


def test_derived_seeds_are_stable_independent_streams():
    assert derive_seed(0, 0, 1) == derive_seed(0, 0, 1)
    assert len({derive_seed(7, k) for k in range(100)}) == 100
    assert all(0 <= derive_seed(s, 1, 2) < 2**63 for s in range(50))
    assert all(0 <= derive_seed(s, 1, 2, bits=31) < 2**31 for s in range(50))
    words = np.random.SeedSequence([3, 4]).generate_state(2, dtype=np.uint32)  # the documented recipe
    assert derive_seed(3, 4) == (int(words[0]) << 31) ^ int(words[1])
    assert derive_seed(3, 4, bits=31) == int(words[0]) & 0x7FFFFFFF
    with pytest.raises(ValueError, match="bits"):
        derive_seed(1, bits=32)


def test_pictures_are_dispatched_through_the_registry(monkeypatch):
    from fuzz_support import TOY_NAME, use_toy_registry

    from fiesta_envs import render

    assert render.module_for("tequila") is importlib.import_module(GAMES["tequila"].renderer)
    assert render.module_for(GAMES["la_catrina"].game_class()(num_players=4, seed=0)).__name__.endswith("muertos")
    use_toy_registry(monkeypatch, keep_real=True)
    with pytest.raises(NotImplementedError, match=f"{TOY_NAME} has no picture rendering; games with one: .*tequila"):
        render.module_for(TOY_NAME)
