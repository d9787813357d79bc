"""The scripted teams of Fiesta de los Muertos and La Catrina."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from information_of_muertos import hidden_cases
from muertos_scenarios import edit_state, give_characters, play_round, write_all

from fiesta_envs.core.errors import InvalidOptionError
from fiesta_envs.evaluation.agents import resolve_agent
from fiesta_envs.muertos.baselines import BASELINES, AssociativeTeam, best_matching, shared_with_prompt
from fiesta_envs.muertos.catrina import LaCatrina
from fiesta_envs.muertos.components import Phase
from fiesta_envs.muertos.deduction import deduction_scores
from fiesta_envs.muertos.engine import LAYOUT, LEXICON
from fiesta_envs.muertos.game import FiestaDeLosMuertos
from fiesta_envs.muertos.memory import seen_chains, seen_words
from fiesta_envs.muertos.writing import word_values
from fiesta_envs.policies.policy import Policy, RandomPolicy
from fiesta_envs.registry import GAMES


def play(game, policy: Policy, seed: int):
    policy.start_episode(seed)
    while not game.is_over:
        player = game.current_player
        action = policy.act(game.observe(player), game.legal_mask(), game, player)
        game.step(action)  # raises if the policy ever picks an illegal action
    return game


def test_baselines_table():
    assert list(BASELINES) == ["associative"] and BASELINES["associative"] is AssociativeTeam
    assert issubclass(AssociativeTeam, Policy)


def test_the_version_is_an_agent_option_version_2_by_default():
    spec = GAMES["fiesta_de_los_muertos"]
    assert resolve_agent(spec, 4, "associative").make(spec, 4).version == 2
    assert resolve_agent(spec, 4, "associative:version=1").make(spec, 4).version == 1
    with pytest.raises(InvalidOptionError, match="version=3.*allowed values: 1, 2"):
        resolve_agent(spec, 4, "associative:version=3")
    with pytest.raises(InvalidOptionError, match="version=0 is not allowed; allowed: 1, 2"):
        AssociativeTeam(version=0)


@pytest.mark.parametrize("rows", [4, 6, 8])
def test_best_matching_is_the_best_assignment(rows):
    rng = np.random.default_rng(rows)
    for _ in range(5):
        scores = rng.integers(0, 4, size=(rows, 8)).astype(float)
        plan = best_matching(scores)
        assert len(set(plan)) == rows
        best = max(sum(scores[r, c] for r, c in enumerate(p)) for p in itertools.permutations(range(8), rows))
        assert sum(scores[r, c] for r, c in enumerate(plan)) == best


@pytest.mark.parametrize(
    ("cls", "n", "options"),
    [
        (FiestaDeLosMuertos, 4, {}),
        (FiestaDeLosMuertos, 8, {"constraints": 3, "draw_choice": True}),
        (FiestaDeLosMuertos, 4, {"double_challenge": True}),
        (LaCatrina, 5, {}),
        (LaCatrina, 7, {"cortege": True}),
    ],
)
def test_associative_team_plays_whole_games_legally(cls, n, options):
    for seed in range(3):
        game = play(cls(num_players=n, seed=seed, **options), AssociativeTeam(), seed)
        assert game.is_over


def test_associative_team_is_deterministic_given_its_seed():
    runs = [play(LaCatrina(num_players=6, seed=1), AssociativeTeam(), 7).state_dict() for _ in range(2)]
    assert runs[0] == runs[1]


def test_associative_writer_takes_the_word_sharing_most_tags():
    game = FiestaDeLosMuertos(num_players=4, seed=2)
    policy = AssociativeTeam(seed=0, version=1)
    character = game.state.round.characters[0]
    action = policy.act(game.observe(0), game.legal_mask(), game, 0)
    chosen = action - game.string_to_action(f"write {LEXICON.words[0].text}")
    shared = LEXICON.shared_character_tags[character] * LEXICON.character_links[character]
    assert shared[chosen] == shared.max()


def test_associative_writer_breaks_ties_toward_words_with_more_meanings():
    """Version 1: among the legal words sharing the most tags with what it reads (the character, then the
    word handed over), the writer takes one with the most tags: the everyday word with several
    senses, never a narrow synonym that would keep the chain from drifting."""
    meanings = LEXICON.word_tags.sum(axis=1)
    checked = 0
    for seed in range(4):
        game = FiestaDeLosMuertos(num_players=4, seed=seed)
        policy = AssociativeTeam(seed=seed, version=1)
        while game.state.round.phase == Phase.WRITE:
            kind, ident = game.state.round.prompt()
            legal = game.legal_mask()[LAYOUT.write : LAYOUT.blank].astype(bool)
            shared = (LEXICON.shared_character_tags if kind == "character" else LEXICON.shared_word_tags)[ident]
            tied = np.flatnonzero(legal & (shared == shared[legal].max()))
            action = policy.act(game.observe(game.current_player), game.legal_mask(), game, game.current_player)
            chosen = action - LAYOUT.write
            assert chosen in tied
            assert meanings[chosen] == meanings[tied].max()
            checked += len(tied) > 1
            game.step(action)
    assert checked >= 8  # real ties were broken


def chains_written(seed: int, characters: list[str], words: list[str]) -> FiestaDeLosMuertos:
    """A 4-player game (``seed``) where seat i holds ``characters[i]`` and ``words`` are written in play order
    (step 0 seats 0..3, then step 1...)."""
    game = FiestaDeLosMuertos(num_players=4, seed=seed)
    give_characters(game, characters)
    for text in words:
        game.play(f"write {text}")
    return game


def written_by(game, version: int, seeds=range(6)) -> set[str]:
    """The words ``associative`` (``version``, several policy seeds: the last tie-break is random) writes now."""
    player = game.current_player
    return {
        game.action_to_string(AssociativeTeam(seed=s, version=version).act(None, game.legal_mask(), game, player))
        for s in seeds
    }


def test_version_2_does_not_bounce_a_chain_back_onto_its_hub_word():
    """The issue's ping-pong. Edith Piaf's skull reads serenade, romantic; version 1 writes serenade again (the
    word with the most meanings among the best associated), so the chain bounces between two everyday words.
    Version 2 writes a precise word of the best value (shared tags less 0.3 per other meaning) instead."""
    game = chains_written(
        0,
        ["Lemuel Gulliver", "Henry VIII", "Edith Piaf", "Orion"],
        ["lighthouse", "lord", "serenade", "elephant", "captive", "ray", "temple", "romantic"],
    )
    assert game.current_player == 0 and game.state.round.prompt() == ("word", LEXICON.word_id("romantic"))
    assert written_by(game, 1) == {"write serenade"}
    chosen = written_by(game, 2)
    assert "write serenade" not in chosen
    legal = game.legal_mask()[LAYOUT.write : LAYOUT.blank].astype(bool)
    values = word_values(shared_with_prompt(game.state.round))
    for action in chosen:
        assert values[game.string_to_action(action) - LAYOUT.write] == pytest.approx(values[legal].max())


def test_version_2_does_not_write_back_a_word_it_used_itself():
    """Seat 2 (Frankenstein's Monster) wrote "brain" on its own skull; reading "head" on King Midas's skull,
    version 1 writes "brain" again and turns Midas's chain towards its own character. Version 2 writes a word of
    the best value it has not written or read this round."""
    game = chains_written(
        42,
        ["King Midas", "Jim Morrison", "Frankenstein's Monster", "Zeus"],
        ["crown", "amplifier", "brain", "thunder", "lightning", "head", "electric", "mole", "trunk", "ray"],
    )
    assert game.current_player == 2 and game.state.round.prompt() == ("word", LEXICON.word_id("head"))
    assert LEXICON.word_id("brain") in seen_words(game.state.round, 2)
    assert written_by(game, 1) == {"write brain"}
    chosen = written_by(game, 2)
    used = {LEXICON.words[w].text for w in seen_words(game.state.round, 2)}
    assert all(action.removeprefix("write ") not in used for action in chosen)


def test_a_seat_remembers_only_the_words_it_wrote_and_read():
    game = chains_written(
        42,
        ["King Midas", "Jim Morrison", "Frankenstein's Monster", "Zeus"],
        ["crown", "amplifier", "brain", "thunder", "lightning", "head", "electric", "mole", "trunk", "ray"],
    )
    word = LEXICON.word_id
    # seat 2, step 2: it wrote brain (own skull, step 0), read amplifier and wrote electric (seat 1's skull),
    # and reads head on seat 0's skull; what seats 0 and 1 wrote at step 2 is not handed over yet.
    assert seen_chains(game.state.round, 2) == {
        2: {0: word("brain")},
        1: {0: word("amplifier"), 1: word("electric")},
        0: {1: word("head")},
    }
    with pytest.raises(ValueError, match="only the writer"):
        seen_chains(game.state.round, 0)


def test_version_2_deduces_from_every_word_the_seat_read_and_wrote():
    """Seat 1 (Apollo) read "pen" on Cervantes's skull at step 1 (written from the character itself) and wrote
    "file"; that chain ends in "compose", another in "staff". Version 1 reads only the final words (and its own
    skull's): it gives "compose" to Bach and "staff" to Artemis, an extra. Version 2 weighs "pen" and "file"
    against the characters and finds every skull."""
    game = chains_written(
        5,
        ["Miguel de Cervantes", "Apollo", "Jesse James", "Johann Sebastian Bach"],
        [
            *("pen", "ray", "gun", "bell"),  # step 0, seats 0..3 on their own skulls
            *("record", "file", "lightning", "dangerous"),  # step 1: seat 1 reads "pen" on Cervantes's skull
            *("dagger", "march", "pen", "eye"),
            *("lightning", "joker", "staff", "compose"),
        ],
    )
    for number in range(4):  # seat 0 matches first
        game.play(f"match {number + 1} to 1")
    game_round = game.state.round
    answers = [f"match {d + 1} to {game_round.answer(game_round.numbers[d]) + 1}" for d in range(4)]
    matched = {}
    for version in (1, 2):
        position, team = game.clone(), AssociativeTeam(seed=0, version=version)
        matched[version] = []
        for _ in range(4):
            action = team.act(None, position.legal_mask(), position, 1)
            matched[version].append(position.action_to_string(action))
            position.step(action)
    assert matched[2] == answers
    assert sum(mine != answer for mine, answer in zip(matched[1], answers, strict=True)) == 2


@pytest.mark.parametrize("scores", [AssociativeTeam.deduction_scores, deduction_scores], ids=["version1", "version2"])
def test_associative_deduction_uses_only_what_the_seat_knows(scores):
    game = FiestaDeLosMuertos(num_players=6, seed=3)
    write_all(game)
    assert game.state.round.phase == Phase.DEDUCE
    plans = [scores(game.state.round, 0)]
    # change every word seat 0 never received nor wrote (final words stay: everyone sees them)

    def scramble(state):
        for skull, teeth in enumerate(state["round"]["words"]):
            for step in range(3):
                seen = skull == (0 - step) % 6 or (step + 1 < 4 and skull == (0 - step - 1) % 6)
                if not seen and teeth[step] >= 0:
                    teeth[step] = (teeth[step] + 7) % len(LEXICON.words)

    other = game.clone()
    edit_state(other, scramble)
    assert other.state.round.words != game.state.round.words
    plans.append(scores(other.state.round, 0))
    assert np.array_equal(plans[0], plans[1])
    # two fresh policies: one policy would reuse the plan it made for the first game
    assert AssociativeTeam(seed=0).act(game.observe(0), game.legal_mask(), game, 0) == AssociativeTeam(seed=0).act(
        other.observe(0), other.legal_mask(), other, 0
    )


@pytest.mark.parametrize("scores", [AssociativeTeam.deduction_scores, deduction_scores], ids=["version1", "version2"])
def test_associative_deduction_never_reads_the_answers(scores):
    """Which character hides under another player's skull is what the deduction is about: swapping
    the characters of two other seats (the table unchanged) changes nothing for seat 0."""
    game = FiestaDeLosMuertos(num_players=6, seed=4)
    write_all(game)
    other = game.clone()

    def swap(state):
        characters, order = state["round"]["characters"], state["round"]["table_order"]
        characters[2], characters[5] = characters[5], characters[2]
        a, b = order.index(2), order.index(5)
        order[a], order[b] = 5, 2

    edit_state(other, swap)
    assert other.state.round.table == game.state.round.table and other.state.round.answer(2) == game.state.round.answer(
        5
    )
    assert np.array_equal(scores(game.state.round, 0), scores(other.state.round, 0))
    # two fresh policies: one policy would reuse the plan it made for the first game
    assert AssociativeTeam(seed=0).act(game.observe(0), game.legal_mask(), game, 0) == AssociativeTeam(seed=0).act(
        other.observe(0), other.legal_mask(), other, 0
    )


def yellow_choices(game, version: int) -> tuple[list[str], LaCatrina]:
    """The team's rewards for the waiting yellow boxes (and then its bones) until the round or campaign ends."""
    game, team, round_index, rewards = (
        game.clone(),
        AssociativeTeam(seed=0, version=version),
        game.state.round_index,
        [],
    )
    while not game.is_over and game.state.round_index == round_index:
        action = team.act(None, game.legal_mask(), game, game.current_player)
        if game.state.round.phase == Phase.YELLOW:
            rewards.append(game.action_to_string(action))
        game.step(action)
    return rewards, game


def test_version_2_takes_the_thirteenth_flower_rather_than_a_bone_that_saves_round_1():
    """12 flowers; skull 1's yellow box is checked, skull 4 misses one white box and the team has no bone.
    Version 1 takes a Memory Bone to close skull 4 (round 1 succeeds, no bonus, 12 flowers, play on); version 2
    colours the 13th flower: the hat is full and the campaign ends at its best."""
    game = LaCatrina(num_players=4, seed=17)
    edit_state(game, lambda state: state["team"].__setitem__("flowers", 12))
    play_round(game, [4, 3, 3, 2])
    assert game.state.round.phase == Phase.YELLOW and game.state.team.memory == 0
    old, after_old = yellow_choices(game, 1)
    new, after_new = yellow_choices(game, 2)
    assert old == ["memory"] and (after_old.state.team.flowers, after_old.state.round_index) == (12, 1)
    assert new == ["flower"] and after_new.is_over and after_new.state.team.flowers == 13


def test_version_2_does_not_save_the_last_round_for_fewer_flowers_than_its_yellow_boxes_give():
    """Round 4 of a double-challenge campaign, no bones: six yellow boxes checked, skulls 7 and 8 miss 3 and 1
    white boxes. Saving the round costs 4 of the 6 flowers and brings a bonus of 3 (8 flowers in all); the six
    flowers give 9. Version 1 saves the round, version 2 takes the flowers."""
    game = LaCatrina(num_players=4, seed=6, double_challenge=True)
    for _ in range(3):  # three rounds where everyone is right, every yellow box taken as a bone
        play_round(game, [4] * 8)
        while game.state.round.phase in (Phase.YELLOW, Phase.SPEND):
            game.play("memory" if game.state.round.phase == Phase.YELLOW else "done")
    edit_state(game, lambda state: state["team"].__setitem__("memory", 0))
    assert game.state.round_index == 3 and game.state.team.flowers == 3
    play_round(game, [4, 4, 4, 4, 4, 4, 0, 2])
    old, after_old = yellow_choices(game, 1)
    new, after_new = yellow_choices(game, 2)
    assert old == ["memory"] * 4 + ["flower"] * 2 and after_old.state.team.flowers == 8
    assert new == ["flower"] * 6 and after_new.state.team.flowers == 9


@pytest.mark.parametrize("case", hidden_cases(), ids=lambda c: c.name)
def test_what_the_seat_cannot_know_does_not_change_the_teams_decision(case):
    """Both versions, every hidden fact of ``information_of_muertos`` (words written on skulls the seat did not
    hold, other seats' characters, the extras and number cards before the deduction, twins of a word...)."""
    game_class = GAMES[case.game].game_class()
    first, second = game_class.from_state_dict(case.first), game_class.from_state_dict(case.second)
    if first.current_player != case.seat or first.is_over:
        pytest.skip("the team decides for the seat to act only")
    for version in (1, 2):
        one, two = AssociativeTeam(seed=0, version=version), AssociativeTeam(seed=0, version=version)
        assert one.act(None, first.legal_mask(), first, case.seat) == two.act(
            None, second.legal_mask(), second, case.seat
        ), version


def test_associative_team_appeases_most_skulls_on_average():
    appeased = [play(FiestaDeLosMuertos(num_players=4, seed=s), AssociativeTeam(), s).team_value() for s in range(20)]
    assert np.mean(appeased) >= 2.0


def _appeased_share(policy_class, n: int, games: int, first_seed: int = 1000) -> np.ndarray:
    shares = []
    for seed in range(first_seed, first_seed + games):
        game = play(FiestaDeLosMuertos(num_players=n, seed=seed), policy_class(), seed)
        shares.append(game.team_reward())
    return np.array(shares)


@pytest.mark.slow
def test_associative_team_appeases_more_skulls_than_random():
    """200 games (40 per player count 4..8): the associative team's mean share of appeased skulls
    beats random play's by more than 4 standard errors of the difference."""
    associative = np.concatenate([_appeased_share(AssociativeTeam, n, 40) for n in range(4, 9)])
    random = np.concatenate([_appeased_share(RandomPolicy, n, 40) for n in range(4, 9)])
    difference = associative.mean() - random.mean()
    standard_error = np.sqrt(associative.var(ddof=1) / len(associative) + random.var(ddof=1) / len(random))
    assert difference > 4 * standard_error and difference > 0.3, (associative.mean(), random.mean())


@pytest.mark.slow
def test_associative_team_colours_more_flowers_than_random():
    flowers = {}
    for name, policy_class in (("associative", AssociativeTeam), ("random", RandomPolicy)):
        flowers[name] = np.array(
            [play(LaCatrina(num_players=6, seed=s), policy_class(), s).team_value() for s in range(100)]
        )
    difference = flowers["associative"].mean() - flowers["random"].mean()
    standard_error = np.sqrt(flowers["associative"].var(ddof=1) / 100 + flowers["random"].var(ddof=1) / 100)
    assert difference > 4 * standard_error
