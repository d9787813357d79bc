"""core.state_fields: checked state-dict readers name the field and what was expected."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from fiesta_envs.core.errors import InvalidStateError
from fiesta_envs.core.state_fields import FieldReader, to_json_safe


def reader(**data):
    return FieldReader(data, game="toy")


def test_ints_are_checked_for_type_and_range():
    assert reader(turn=2).int("turn", -1, 3) == 2
    with pytest.raises(InvalidStateError, match=r"toy: state field 'turn': expected an int in \[-1, 3\], got 4"):
        reader(turn=4).int("turn", -1, 3)
    with pytest.raises(InvalidStateError, match="'turn': expected an int, got True"):
        reader(turn=True).int("turn")
    with pytest.raises(InvalidStateError, match="'turn': expected an int, got '2'"):
        reader(turn="2").int("turn")


def test_numbers_are_finite_ints_or_floats():
    assert reader(reward=-1).number("reward") == -1.0
    assert reader(reward=0.25).number("reward") == 0.25
    for bad in (True, "1", float("nan"), float("inf"), None):
        with pytest.raises(InvalidStateError, match="'reward': expected a finite number"):
            reader(reward=bad).number("reward")


def test_a_missing_field_is_named():
    with pytest.raises(InvalidStateError, match="toy: state field 'deck' is missing"):
        reader().int_list("deck")


def test_list_entries_and_matrix_cells_are_named_by_index():
    assert reader(deck=[1, 2]).int_list("deck", 2, 0, 5) == [1, 2]
    with pytest.raises(InvalidStateError, match=r"'deck\[1\]': expected an int in \[0, 5\], got 9"):
        reader(deck=[1, 9]).int_list("deck", low=0, high=5)
    with pytest.raises(InvalidStateError, match="'deck': expected a list of 3 entries"):
        reader(deck=[1, 2]).int_list("deck", 3)
    with pytest.raises(InvalidStateError, match=r"'cards\[1\]\[0\]': expected an int in \[-1, 51\], got 99"):
        reader(cards=[[0, 1], [99, 2]]).int_matrix("cards", rows=2, cols=2, low=-1, high=51)


def test_choices_bools_and_permutations():
    assert reader(phase="bid").choice_index("phase", ("orient", "bid")) == 1
    with pytest.raises(InvalidStateError, match="'phase': expected one of 'orient', 'bid', got 'dance'"):
        reader(phase="dance").choice("phase", ("orient", "bid"))
    assert reader(passed=[True, False]).bool_list("passed", 2) == [True, False]
    with pytest.raises(InvalidStateError, match=r"'passed\[1\]': expected true or false, got 0"):
        reader(passed=[True, 0]).bool_list("passed", 2)
    with pytest.raises(InvalidStateError, match="expected a permutation of 0..2"):
        reader(order=[0, 0, 2]).permutation("order", 3)


def test_optional_values_and_lists_of_choices():
    assert reader(pan=None).optional_int("pan", 0, 2) is None
    assert reader(pan=1).optional_int("pan", 0, 2) == 1
    with pytest.raises(InvalidStateError, match=r"'pan': expected an int in \[0, 2\], got 5"):
        reader(pan=5).optional_int("pan", 0, 2)
    assert reader(door=None).optional_choice_index("door", ("egg", "onion")) == -1
    assert reader(door="onion").optional_choice_index("door", ("egg", "onion")) == 1
    assert reader(hand=["onion", "egg", "onion"]).choice_indices("hand", ("egg", "onion")) == [1, 0, 1]
    with pytest.raises(InvalidStateError, match=r"'hand\[1\]': expected one of 'egg', 'onion', got 'ham'"):
        reader(hand=["egg", "ham"]).choice_indices("hand", ("egg", "onion"))
    assert reader(hands=[["egg"], []]).choice_matrix("hands", ("egg", "onion"), rows=2) == [[0], []]
    with pytest.raises(InvalidStateError, match=r"'hands\[1\]\[0\]': expected one of 'egg', 'onion', got 'ham'"):
        reader(hands=[["egg"], ["ham"]]).choice_matrix("hands", ("egg", "onion"))


def test_nested_parts_carry_their_path():
    data = {"sheets": [{"coins": 3}, {"coins": -1}]}
    sheets = FieldReader(data, game="toy").parts("sheets", 2)
    assert sheets[0].int("coins", 0) == 3
    with pytest.raises(InvalidStateError, match=r"'sheets\[1\].coins': expected an int in \[0, inf\], got -1"):
        sheets[1].int("coins", 0)
    with pytest.raises(InvalidStateError, match="toy: state 'sheets' must be a mapping"):
        FieldReader({"sheets": 3}, game="toy").part("sheets")


def test_cross_field_problems_use_the_same_style():
    with pytest.raises(InvalidStateError, match="toy: malformed state: a bid needs a bidder"):
        reader().problem_if(True, "a bid needs a bidder")
    reader().problem_if(False, "never raised")


def test_dataclasses_become_json_safe_data():
    import numpy as np

    @dataclass
    class Toy:
        turn: int
        hands: tuple[tuple[int, ...], ...]
        points: dict[int, int]

    assert to_json_safe(Toy(np.int64(1), ((1, 2), ()), {0: 3})) == {
        "turn": 1,
        "hands": [[1, 2], []],
        "points": {"0": 3},
    }


def test_json_safe_lists_keep_bools_and_save_enums_and_numpy_values_as_numbers():
    import enum

    import numpy as np

    class Phase(enum.IntEnum):
        BID = 1

    saved = to_json_safe([True, 2, 0.5, None, "a", Phase.BID, np.int64(3), (np.float32(0.25),)])
    assert saved == [True, 2, 0.5, None, "a", 1, 3, [0.25]]
    assert [type(value) for value in saved[:7]] == [bool, int, float, type(None), str, int, int]


def test_checked_int_lists_are_copies_and_refuse_bools_and_floats_by_index():
    deck = [1, 2]
    read = reader(deck=deck, cards=[[0, 1]])
    assert read.int_list("deck") is not deck
    assert read.int_matrix("cards")[0] is not read.data["cards"][0]
    with pytest.raises(InvalidStateError, match=r"'deck\[1\]': expected an int, got True"):
        reader(deck=[1, True]).int_list("deck")
    with pytest.raises(InvalidStateError, match=r"'cards\[0\]\[1\]': expected an int, got 1.0"):
        reader(cards=[[0, 1.0]]).int_matrix("cards")
    assert reader(deck=[-5, 7]).int_list("deck") == [-5, 7]  # no bounds: any int
