"""The saved position (``fiesta_envs/muertos/state.py``): the state dict holds exactly the dataclasses' fields,
is read back through ``core.fields.FieldReader`` (errors name the field), and a refused dict changes nothing."""

from __future__ import annotations

import dataclasses
import json

import pytest

from fiesta_envs.core.errors import InvalidStateError
from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.muertos.state import CatrinaState, MuertosState, RoundState, Team


def _names(cls) -> set[str]:
    return {field.name for field in dataclasses.fields(cls)}


def test_the_state_dict_holds_exactly_the_fields_of_the_dataclasses():
    game = FiestaDeLosMuertos(num_players=5, seed=1, constraints=1)
    game.step(game.legal_actions()[0])
    state = game.state_dict()["state"]
    assert set(state) == _names(MuertosState)
    assert set(state["round"]) == _names(RoundState) and set(state["team"]) == _names(Team)
    assert type(state["round"]["phase"]) is int  # the Phase enum is saved as its number
    assert json.loads(json.dumps(state)) == state
    catrina = LaCatrina(num_players=4, seed=1).state_dict()["state"]
    assert set(catrina) == _names(CatrinaState) == _names(MuertosState) | {"used_constraints", "end_reason"}


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s["round"]["words"][0].__setitem__(1, 5000), r"'round.words\[0\]\[1\]': expected an int in \[-2, "),
        (lambda s: s["round"].__setitem__("rewards", ["gold"] * 4), r"'round.rewards\[0\]': expected one of"),
        (lambda s: s["team"].__setitem__("memory", -1), r"'team.memory': expected an int in \[0, inf\]"),
        (lambda s: s.__setitem__("history", [3]), r"state 'history\[0\]' must be a mapping"),
        (lambda s: s["round"].__setitem__("numbers", [0, 0, 1, 2]), r"'round.numbers': expected a permutation"),
        (lambda s: s["round"].__setitem__("step", 4), "the writing step must be 0..3 until it is over"),
        (lambda s: s.__setitem__("lexicon_version", 1), "lexicon version 1; this package has 2"),
    ],
)
def test_a_malformed_state_dict_is_refused_naming_the_field(edit, message):
    game = FiestaDeLosMuertos(num_players=4, seed=2)
    data = json.loads(json.dumps(game.state_dict()))
    edit(data["state"])
    with pytest.raises(InvalidStateError, match=f"fiesta_de_los_muertos: .*{message}"):
        game.load_state_dict(data)


def test_a_refused_campaign_state_leaves_the_game_as_it_was():
    game = LaCatrina(num_players=4, seed=3)
    for _ in range(6):
        game.step(game.legal_actions()[-1])
    before = game.state_dict()
    data = json.loads(json.dumps(before))
    data["state"]["used_constraints"] = [1, 2]  # read fine...
    data["state"]["end_reason"] = "bored"  # ...but the last field is refused
    with pytest.raises(InvalidStateError, match=r"'end_reason': expected one of"):
        game.load_state_dict(data)
    assert game.state_dict() == before
