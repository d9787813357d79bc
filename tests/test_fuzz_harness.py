"""The fuzz harness itself, on the toy Nim: it passes a correct engine and catches broken ones.

Each broken engine below has one deliberate bug; the fuzzer must report it under the right
check, with a reproducer that replays to the failing moment.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from fuzz_support import TOY_NAME, use_toy_registry
from toy_game import Nim

from fiesta_envs import cli
from fiesta_envs.core.configurations import configurations
from fiesta_envs.core.errors import IllegalActionError, InvalidOptionError
from fiesta_envs.testing.fuzz import CHECK_KINDS, FuzzReport, fuzz_all, fuzz_game
from fiesta_envs.testing.invariants import json_problem, mask_problems, observation_problems, returns_problems


def test_configurations_enumerate_player_counts_and_choices_plainest_first():
    configs = configurations(Nim)
    assert configs[:2] == [(2, {}), (3, {})]
    assert configs == [
        (2, {}),
        (3, {}),
        (2, {"reward": "margin"}),
        (3, {"reward": "margin"}),
        (2, {"max_take": 2}),
        (3, {"max_take": 2}),
    ]  # fmt: skip  (options in declared order)
    full = configurations(Nim, depth=None)
    assert len(full) == 2 * 2 * 2  # player counts x reward x max_take
    assert (3, {"reward": "margin", "max_take": 2}) in full
    assert configurations(Nim, max_configs=3) == configs[:3]
    assert configurations(Nim, players=[3])[0] == (3, {})
    assert configurations(Nim, depth=0) == [(2, {}), (3, {})]


class TwoPlayerTwist(Nim):
    """The ``max_take=2`` variant exists for two players only."""

    def check_options(self):
        if self.config["max_take"] == 2 and self.num_players != 2:
            raise InvalidOptionError("max_take=2 needs 2 players")


def test_configurations_leave_out_what_the_game_refuses():
    configs = configurations(TwoPlayerTwist)
    assert (2, {"max_take": 2}) in configs
    assert (3, {"max_take": 2}) not in configs
    report = fuzz_all(TwoPlayerTwist, games=2, options={"max_take": 2})
    assert report.configurations == [(2, {"max_take": 2})]


def test_a_correct_engine_passes_every_check_and_counts_them():
    report = fuzz_game(Nim, 3, {"max_take": 2}, games=60, seed=1, sample_rate=0.5, determinism_rate=1.0)
    assert report.ok, [f.describe() for f in report.examples]
    assert report.games == 60
    assert report.steps > 60 * 3
    assert set(report.checks) == set(CHECK_KINDS) - {"invariants"}  # the toy has no per-game module
    assert report.checks["mask"] == report.steps
    assert report.checks["end"] == report.checks["continuation"] == report.checks["determinism"] == 60


def test_reports_are_reproducible_from_the_seed():
    a = fuzz_game(Nim, 2, {}, games=20, seed=5)
    b = fuzz_game(Nim, 2, {}, games=20, seed=5)
    c = fuzz_game(Nim, 2, {}, games=20, seed=6)
    assert (a.steps, a.checks) == (b.steps, b.checks)
    assert a.steps != c.steps or a.checks != c.checks


def test_fuzz_all_covers_every_configuration_and_merges_counts():
    report = fuzz_all(Nim, games=5, seed=0, depth=None)
    assert report.ok
    assert len(report.configurations) == 8
    assert report.games == 40


def test_unknown_check_kinds_are_refused():
    with pytest.raises(ValueError, match="unknown checks"):
        fuzz_game(Nim, 2, {}, games=1, checks=["mask", "telepathy"])


# ---------------------------------------------------------------------------- broken engines
class LyingMask(Nim):
    """Marks every action legal, even taking more stones than are left."""

    def legal_mask(self):
        return np.ones(self.num_actions, dtype=np.int8) if not self.is_over else np.zeros(self.num_actions, np.int8)

    def _apply(self, action):
        if action + 1 > self.pile:
            raise RuntimeError(f"cannot take {action + 1} of {self.pile}")
        super()._apply(action)


class GlobalRandom(Nim):
    """Draws the pile from numpy's global generator instead of ``self.rng``."""

    def _new_game(self):
        super()._new_game()
        self.pile = int(np.random.randint(7, 13))


class ForgetfulState(Nim):
    """Does not save whose turn it is."""

    def _state_to_dict(self):
        return {"pile": self.pile, "turn": 0, "winner": self.winner}


class NumpyState(Nim):
    """Writes a numpy integer into its state dict."""

    def _state_to_dict(self):
        return {**super()._state_to_dict(), "pile": np.int64(self.pile)}


class LoudObservation(Nim):
    """Observes the pile size itself, far outside the [0, 1] bounds."""

    def observe(self, player):
        obs = super().observe(player)
        obs[0] = self.pile
        return obs


class EarlyReward(Nim):
    """Pays a reward before the game is over."""

    def returns(self):
        return np.full(self.num_players, 0.5) if not self.is_over else super().returns()


class LeakyReset(Nim):
    """Keeps counting turns across games (state leaking from one reset to the next)."""

    games_started = 0

    def _new_game(self):
        super()._new_game()
        type(self).games_started += 1
        self.turn = type(self).games_started % self.num_players


class SilentRefusal(Nim):
    """Refuses illegal actions with a message that does not name the action."""

    def check_action(self, action):
        if int(action) < self.num_actions and not self.legal_mask()[int(action)]:
            from fiesta_envs.core.errors import IllegalActionError

            raise IllegalActionError("no")
        return super().check_action(action)


class NeverEnds(Nim):
    """Puts stones back: the game can go on for ever."""

    def _apply(self, action):
        super()._apply(action)
        if self.pile <= 3:
            self.pile = 12
            self.winner = -1


class CrashingStep(Nim):
    """Crashes with a plain Python error on a pile of 4."""

    def _apply(self, action):
        if self.pile == 4:
            raise ZeroDivisionError("division by zero")
        super()._apply(action)


class SharedTally(Nim):
    """Keeps the stones taken in a list every copy shares: stepping a copy changes the original."""

    tally = [0]

    def _new_game(self):
        super()._new_game()
        self.tally[0] = 0

    def _apply(self, action):
        super()._apply(action)
        self.tally[0] += action + 1

    def _state_to_dict(self):
        return {**super()._state_to_dict(), "taken": self.tally[0]}

    def _state_from_dict(self, data):
        super()._state_from_dict(data)
        self.tally[0] = int(data["taken"])


class CountedRefusals(Nim):
    """Saves how many actions it refused: refusing an action changes the game."""

    def _new_game(self):
        super()._new_game()
        self.refusals = 0

    def check_action(self, action):
        try:
            return super().check_action(action)
        except IllegalActionError:
            self.refusals += 1
            raise

    def _state_to_dict(self):
        return {**super()._state_to_dict(), "refusals": self.refusals}

    def _state_from_dict(self, data):
        super()._state_from_dict(data)
        self.refusals = int(data["refusals"])


class UpsideDownReturns(Nim):
    """Rewards the loser."""

    def returns(self):
        return -super().returns()


@pytest.mark.parametrize(
    ("engine", "check"),
    [
        (LyingMask, "legal"),
        (GlobalRandom, "determinism"),
        (ForgetfulState, "roundtrip"),
        (NumpyState, "json"),
        (LoudObservation, "observation"),
        (EarlyReward, "scores"),
        (LeakyReset, "determinism"),
        (SilentRefusal, "illegal"),
        (SharedTally, "legal"),
        (CountedRefusals, "illegal"),
        (NeverEnds, "end"),
        (CrashingStep, "crash"),
        (UpsideDownReturns, "end"),
    ],
)
def test_a_broken_engine_is_caught_by_the_right_check(engine, check):
    report = fuzz_game(engine, 2, {}, games=40, seed=0, sample_rate=0.5, determinism_rate=1.0, max_steps=300)
    assert not report.ok
    assert check in report.failures, report.failures
    example = next(f for f in report.examples if f.check == check)
    assert example.game == "toy_nim"
    assert engine.__name__ in example.reproducer(engine)


def test_a_reproducer_replays_to_the_failing_moment():
    report = fuzz_game(CrashingStep, 2, {}, games=40, seed=0)
    failure = next(f for f in report.examples if f.check == "crash")
    namespace = {"CrashingStep": CrashingStep}
    lines = failure.reproducer(CrashingStep).splitlines()
    exec("\n".join(lines[:1]), namespace)  # make the game, then replay the recorded actions
    game = namespace["game"]
    for action in failure.actions:
        game.step(action)
    assert game.pile == 4
    with pytest.raises(ZeroDivisionError):
        game.step(int(np.flatnonzero(game.legal_mask())[0]))


# ---------------------------------------------------------------------------- generic checks
def test_generic_checks_name_the_problem():
    assert json_problem({"a": [1, 2.5, None, "x", True]}) is None
    assert "state.a[1]" in json_problem({"a": [1, np.int64(2)]})
    assert "non-string key" in json_problem({1: 2})
    assert "not finite" in json_problem({"x": float("nan")})
    assert "tuple" in json_problem({"x": (1, 2)})
    assert mask_problems(np.array([0, 1], np.int8), 2, False) == []
    assert "no legal action" in mask_problems(np.zeros(2, np.int8), 2, False)[0]
    assert "dtype" in mask_problems(np.array([0, 1], np.int64), 2, False)[0]
    assert "game is over" in mask_problems(np.array([0, 1], np.int8), 2, True)[0]
    assert "shape" in mask_problems(np.array([0, 1], np.int8), 3, False)[0]
    assert observation_problems(np.zeros(3, np.float32), size=3, low=0.0, high=1.0, who=0) == []
    assert "bounds" in observation_problems(np.full(3, 2, np.float32), size=3, low=0.0, high=1.0, who=0)[0]
    assert "non-finite" in observation_problems(np.array([np.nan], np.float32), size=1, low=0.0, high=1.0, who=0)[0]
    assert returns_problems(np.array([1.0, -1.0]), np.array([3.0, 1.0]), cooperative=False, reward="rank") == []
    assert "tie" in returns_problems(np.array([1.0, -1.0]), np.array([3.0, 3.0]), cooperative=False, reward="rank")[0]
    assert (
        "sum to zero"
        in returns_problems(np.array([1.0, 0.0]), np.array([3.0, 1.0]), cooperative=False, reward="rank")[0]
    )
    tie_broken = returns_problems(
        np.array([1.0, -1.0]),
        np.array([3.0, 3.0]),
        cooperative=False,
        reward="rank",
        winners=[0],
        keys=np.array([3.5, 3.0]),
    )
    assert tie_broken == []
    teams = returns_problems(
        np.array([1.0, -1.0, 0.0, -1.0]), np.zeros(4), cooperative=False, reward="rank", teams=[0, 1, 0, 1]
    )
    assert any("team-mates" in p for p in teams)
    assert (
        "winners()"
        in returns_problems(np.array([1.0, -1.0]), np.array([3.0, 1.0]), cooperative=False, reward="rank", winners=[1])[
            0
        ]
    )
    assert (
        "cooperative"
        in returns_problems(np.array([1.0, 0.0]), np.array([3.0, 1.0]), cooperative=True, reward="rank")[0]
    )


# ---------------------------------------------------------------------------- command line
def test_fuzz_command_prints_counts_and_saves_json(monkeypatch, tmp_path, capsys):
    use_toy_registry(monkeypatch)
    out = tmp_path / "fuzz.json"
    status = cli.main(["fuzz", "--games", "10", "--max-configs", "2", "--json", str(out)])
    printed = capsys.readouterr().out
    assert status == 0
    assert f"{TOY_NAME}: 2 configurations, 20 games" in printed
    assert "checks" in printed
    data = json.loads(out.read_text())["fuzz"][0]
    assert data["game"] == TOY_NAME and data["games"] == 20 and data["total_checks"] > data["steps"]


def test_fuzz_command_with_options_players_and_jobs(monkeypatch, capsys):
    use_toy_registry(monkeypatch)
    status = cli.main(
        ["fuzz", "--game", TOY_NAME, "--games", "100", "--players", "3", "--option", "max_take=2", "--jobs", "2"]
    )
    printed = capsys.readouterr().out
    assert status == 0
    assert "1 configurations, 100 games" in printed


@pytest.mark.parametrize(("depth", "configs"), [("0", 2), ("1", 6), ("2", 8)])
def test_fuzz_command_depth_chooses_how_many_variants_combine(monkeypatch, capsys, depth, configs):
    use_toy_registry(monkeypatch)
    assert cli.main(["fuzz", "--games", "2", "--depth", depth]) == 0
    assert f"{TOY_NAME}: {configs} configurations, {2 * configs} games" in capsys.readouterr().out


def test_fuzz_command_fails_with_a_reproducer_on_a_broken_game(monkeypatch, capsys):
    use_toy_registry(monkeypatch)
    monkeypatch.setattr("fiesta_envs.testing.fuzz.resolve_game", lambda game: CrashingStep)
    status = cli.main(["fuzz", "--games", "20", "--max-configs", "1"])
    printed = capsys.readouterr().out
    assert status == 1
    assert "FAIL" in printed and "[crash]" in printed and "game = CrashingStep(num_players=2" in printed


def test_report_merge_adds_counts():
    a, b = FuzzReport("g", [(2, {})], games=1, steps=5), FuzzReport("g", [(3, {})], games=2, steps=7)
    a.checks["mask"], b.checks["mask"] = 5, 7
    merged = a.merge(b)
    assert (merged.games, merged.steps, merged.checks["mask"], len(merged.configurations)) == (3, 12, 12, 2)


# ---------------------------------------------------------------------------- baselines as players
def test_baselines_can_play_the_seats(monkeypatch):
    use_toy_registry(monkeypatch)
    report = fuzz_game(TOY_NAME, 2, {}, games=20, seed=3, policies=["take_one"])
    assert report.ok
    assert report.steps >= 20 * 7  # taking one stone at a time from piles of 7..12
    mixed = fuzz_game(TOY_NAME, 2, {}, games=20, seed=3, policies=["take_one", "random"])
    assert mixed.ok and mixed.steps < report.steps


def test_a_baseline_choosing_an_illegal_action_is_reported(monkeypatch):
    use_toy_registry(monkeypatch)
    from fuzz_support import BASELINES
    from toy_game import TakeOne

    class TakeThree(TakeOne):
        def act(self, observation, action_mask, game, player):
            return 2

    monkeypatch.setitem(BASELINES, "take_three", TakeThree)
    report = fuzz_game(TOY_NAME, 2, {}, games=10, seed=0, policies=["take_three"])
    assert report.failures["policy"] > 0
    assert "TakeThree chose 2" in report.examples[0].message


@pytest.mark.parametrize(("argv", "message"), [(["--option", "nothing"], "--option needs NAME=VALUE"),
                                               (["--game", "chess"], "unknown game 'chess'")])  # fmt: skip
def test_fuzz_command_refuses_bad_input_with_a_message(capsys, argv, message):
    assert cli.main(["fuzz", "--games", "1", *argv]) == 2
    assert message in capsys.readouterr().err
