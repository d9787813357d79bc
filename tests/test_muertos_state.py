"""The saved position (``fiesta_envs/muertos/state.py``): the state dict holds exactly the dataclasses' fields,
is read back through ``core.state_fields.FieldReader`` (errors name the field), and a refused dict changes nothing."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from play_support import played

from fiesta_envs.core.errors import InvalidStateError
from fiesta_envs.core.state_fields import to_json_safe
from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.muertos.round import Round
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


GAMES = [
    pytest.param(FiestaDeLosMuertos, MuertosState, {"constraints": 2, "draw_choice": True}, id="fiesta_de_los_muertos"),
    pytest.param(LaCatrina, CatrinaState, {"cortege": True}, id="la_catrina"),
]


@pytest.mark.parametrize(("game_class", "state_class", "options"), GAMES)
def test_the_engine_state_is_the_dataclass_and_no_field_is_copied_onto_the_engine(game_class, state_class, options):
    for steps in (0, 30, 400):
        game = played(game_class, 4, 5, steps, **options)
        assert type(game.state) is state_class
        assert isinstance(game.state.round, Round) and isinstance(game.state.round, RoundState)
        assert game.state.round.team is game.state.team  # the round plays for the game's team
        assert not set(vars(game)) & _names(state_class)
        assert not set(vars(game)) & _names(RoundState)
        assert to_json_safe(game.state) == game.state_dict()["state"]
    reloaded = game_class.from_state_dict(game.state_dict())
    assert type(reloaded.state) is state_class and reloaded.state.round.team is reloaded.state.team


def _mutate(state: MuertosState) -> None:
    """Change every kind of value a state holds, in place."""
    state.team.memory += 1
    state.round.words[0][0] = 7
    state.round.guesses[0][0] = 3
    state.round.whites[0] += 1
    state.round.constraints.append(1)
    state.round.seat = (state.round.seat + 1) % 4
    state.history.append({"round": 9})
    if isinstance(state, CatrinaState):
        state.used_constraints.append(5)
        state.end_reason = "bored"


@pytest.mark.parametrize(("game_class", "state_class", "options"), GAMES)
def test_a_clone_is_equal_and_independent(game_class, state_class, options):
    for steps in (0, 25, 90):
        game = played(game_class, 4, 11, steps, **options)
        before = game.state_dict()
        twin = game.clone()
        assert type(twin) is type(game) and twin.state_dict() == before
        assert type(twin.state) is state_class and twin.state.round.team is twin.state.team
        _mutate(twin.state)
        assert game.state_dict() == before
        # The clone goes on as the original would: same moves, same chance, same positions.
        again = game.clone()
        rng = np.random.default_rng(steps)
        while not game.is_over:
            action = int(rng.choice(game.legal_actions()))
            game.step(action)
            again.step(action)
            assert again.state_dict() == game.state_dict()
            assert np.array_equal(again.legal_mask(), game.legal_mask())
