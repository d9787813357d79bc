"""The statistics of evaluation against cases worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fiesta_envs.evaluation.stats import (
    ELO_PER_LOGIT,
    Comparison,
    elo_difference,
    elo_win_probability,
    fit_bradley_terry,
    fit_bradley_terry_with_errors,
    mean_interval,
    rate_agents,
    score_interval,
    wilson_interval,
)

# ---------------------------------------------------------------------- Wilson


def test_wilson_8_of_10():
    # centre (0.8 + 1.96²/20) / (1 + 1.96²/10) = 0.7167
    # half-width 1.96 / 1.3841 * sqrt(0.016 + 0.0096) = 0.2266
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=5e-4)
    assert high == pytest.approx(0.9433, abs=5e-4)


def test_wilson_all_or_nothing():
    # 0/10: [0, z²/(n + z²)] = [0, 3.8415/13.8415]
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson_interval(10, 10) == pytest.approx((0.72247, 1.0), abs=1e-5)


def test_wilson_half_is_symmetric_and_ties_may_be_fractional():
    low, high = wilson_interval(50, 100)
    assert low + high == pytest.approx(1.0)
    assert (low, high) == pytest.approx((0.4038, 0.5962), abs=5e-4)
    low, high = wilson_interval(5.5, 10)  # 5 wins and one tie counted as half a win
    assert low < 0.55 < high


def test_wilson_no_games_and_bad_input():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(11, 10)
    with pytest.raises(ValueError):
        wilson_interval(-1, 10)


# ---------------------------------------------------------------------- score interval (ties)


def test_score_interval_without_ties_is_wilson():
    for credit, games in ((8, 10), (0, 10), (10, 10), (50, 100), (561, 1000)):
        assert score_interval(credit, games) == pytest.approx(wilson_interval(credit, games), abs=1e-12)


def test_score_interval_with_many_ties_by_hand():
    # 56 wins, 926 ties, 18 losses: rate 0.519, tie variance 231.5 / 1002 = 0.23104;
    # roots of 1003.84 p^2 - 1042.84 p + (269.36 + 3.8415 * 0.23104) = 0
    low, high = score_interval(56 + 926 / 2, 1000, shared=926 / 4)
    assert (low, high) == pytest.approx((0.5105, 0.5274), abs=5e-4)
    wide_low, wide_high = wilson_interval(56 + 926 / 2, 1000)
    assert wide_low < 0.5 < low and (wide_high - wide_low) > 3 * (high - low)


def test_score_interval_of_nothing_but_ties_keeps_some_width():
    low, high = score_interval(50, 100, shared=25)
    assert low + high == pytest.approx(1.0)
    assert 0.48 < low < 0.495


@pytest.mark.parametrize(
    ("win", "tie", "games"),
    [(0.07, 0.91, 1000), (0.3, 0.4, 1000), (0.01, 0.98, 1000), (0.2, 0.05, 300), (0.1, 0.8, 60)],
)
def test_score_interval_covers_the_true_rate_95_percent_of_the_time(win, tie, games):
    rng = np.random.default_rng(7)
    counts = rng.multinomial(games, [win, tie, 1 - win - tie], size=4000)
    true_rate = win + tie / 2
    covered = [
        low <= true_rate <= high for low, high in (score_interval(w + t / 2, games, shared=t / 4) for w, t, _ in counts)
    ]
    assert 0.935 <= np.mean(covered) <= 0.975  # 4,000 runs: the standard error of a 95% coverage is 0.0034


def test_score_interval_bad_input_names_the_limit():
    with pytest.raises(ValueError, match="credit <= games"):
        score_interval(11, 10)
    with pytest.raises(ValueError, match="at most 1/4"):
        score_interval(5, 10, shared=3)
    assert score_interval(0, 0) == (0.0, 1.0)


def test_mean_interval_by_hand():
    # mean 2.5, sd 1.2910, se 0.6455, half-width 1.2652
    mean, low, high = mean_interval([1, 2, 3, 4])
    assert mean == 2.5
    assert (low, high) == pytest.approx((2.5 - 1.2652, 2.5 + 1.2652), abs=1e-4)
    assert mean_interval([7.0]) == (7.0, 7.0, 7.0)


# ---------------------------------------------------------------------- Elo / Bradley–Terry


def test_elo_scale_round_trip():
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_win_probability(400.0) == pytest.approx(10 / 11)
    assert elo_win_probability(elo_difference(0.3)) == pytest.approx(0.3)


def test_two_agents_known_win_rate_gives_known_difference_and_anchor():
    wins = np.array([[0, 150], [50, 0]])  # agent 0 wins 75% of 200 games
    ratings = fit_bradley_terry(wins, anchor=1, prior_draws=0)
    assert ratings[1] == 0.0
    assert ratings[0] == pytest.approx(400 * math.log10(3), abs=1e-6)
    ratings = fit_bradley_terry(wins, anchor=0, prior_draws=0)
    assert ratings[0] == 0.0
    assert ratings[1] == pytest.approx(-400 * math.log10(3), abs=1e-6)


def test_draws_count_half():
    wins = np.array([[0, 60 + 20 * 0.5], [20 + 20 * 0.5, 0]])  # 60 wins, 20 draws, 20 losses: 70 of 100
    assert fit_bradley_terry(wins, anchor=1, prior_draws=0)[0] == pytest.approx(400 * math.log10(70 / 30))


def test_three_agents_recover_true_ratings_from_expected_results():
    # When every pair's results equal their expectation under ratings 0/100/300, the maximum
    # of the likelihood is exactly those ratings.
    true = np.array([0.0, 100.0, 300.0])
    games = 1000
    wins = np.array([[games * elo_win_probability(a - b) if a != b else 0 for b in true] for a in true])
    assert fit_bradley_terry(wins, anchor=0, prior_draws=0) == pytest.approx(true, abs=1e-6)
    assert fit_bradley_terry(wins, anchor=2, prior_draws=0) == pytest.approx(true - 300, abs=1e-6)


def test_a_perfect_record_stays_finite_with_the_virtual_draw():
    wins = np.array([[0, 10], [0, 0]])
    # one virtual draw: 10.5 of 11 -> 400 * log10(10.5 / 0.5)
    assert fit_bradley_terry(wins, anchor=1)[0] == pytest.approx(400 * math.log10(21))


def test_fisher_standard_error_by_hand():
    # 400 games at 75%: var(logit) = 1 / (n p (1 - p)) = 1 / 75
    _, errors = fit_bradley_terry_with_errors(np.array([[0, 300], [100, 0]]), anchor=1, prior_draws=0)
    assert errors[1] == 0.0
    assert errors[0] == pytest.approx(ELO_PER_LOGIT / math.sqrt(75), rel=1e-6)  # 20.06 points


def test_agents_that_never_met_cannot_be_rated():
    wins = np.array([[0, 5, 0], [5, 0, 0], [0, 0, 0]])
    with pytest.raises(ValueError, match="never met"):
        fit_bradley_terry(wins, names=["a", "b", "loner"])


def _two_player_comparisons(wins: int, games: int) -> list[Comparison]:
    return [Comparison(cluster=g, first=0, second=1, credit=1.0 if g < wins else 0.0) for g in range(games)]


def test_rate_agents_anchor_point_and_interval_width():
    comparisons = _two_player_comparisons(300, 400)
    ratings = rate_agents(comparisons, ["strong", "random"], [400, 400], bootstrap=400, seed=1, prior_draws=0)
    strong, random_ = ratings
    assert (random_.rating, random_.ci_low, random_.ci_high) == (0.0, 0.0, 0.0)
    assert strong.rating == pytest.approx(190.85, abs=0.01)
    # independent games: the 95% half-width is close to 1.96 * 20.06 = 39.3 points
    assert 36 < (strong.ci_high - strong.ci_low) / 2 < 46
    assert strong.ci_low < 190.85 < strong.ci_high


def test_rate_agents_is_deterministic_and_anchors_on_random_wherever_it_is():
    comparisons = [Comparison(g, 1, 0, 1.0 if g % 3 else 0.0) for g in range(60)]
    first = rate_agents(comparisons, ["random", "greedy"], [60, 60], seed=5, bootstrap=200)
    again = rate_agents(comparisons, ["random", "greedy"], [60, 60], seed=5, bootstrap=200)
    assert first == again
    assert first[0].rating == 0.0 and first[1].rating > 0


def test_clustered_results_widen_the_bootstrap_interval():
    # The same 100 outcomes, but each cluster (deal) repeats its outcome 4 times: the
    # bootstrap sees 100 independent deals, not 400 games, and the interval is wider.
    independent = [Comparison(g, 0, 1, 1.0 if g < 300 else 0.0) for g in range(400)]
    clustered = [Comparison(g // 4, 0, 1, 1.0 if g < 300 else 0.0) for g in range(400)]
    width = {}
    for name, data in (("independent", independent), ("clustered", clustered)):
        strong = rate_agents(data, ["a", "b"], [400, 400], anchor="b", bootstrap=400, seed=0, prior_draws=0)[0]
        width[name] = strong.ci_high - strong.ci_low
    assert width["clustered"] > 1.6 * width["independent"]  # about twice (sqrt(4))


def test_a_one_sided_record_keeps_an_honest_interval():
    # 40 of 40: the Wilson interval of the pairwise win rate is [0.912, 1]: at least +406 points.
    comparisons = _two_player_comparisons(40, 40)
    strong = rate_agents(comparisons, ["strong", "random"], [40, 40], bootstrap=200)[0]
    assert strong.ci_low < elo_difference(wilson_interval(40, 40)[0]) < strong.rating < strong.ci_high
