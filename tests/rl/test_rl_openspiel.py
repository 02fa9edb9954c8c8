"""The OpenSpiel adapter (issue 13 section 2): OpenSpiel's own tests and algorithms, unchanged.

``pyspiel.random_sim_test`` runs on every registered game and player count
(clones, serialisation, observers, returns); ``MCTSBot``, ``ISMCTSBot`` and
``evaluate_bots`` play through the adapter.
"""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.bots import uniform_random
from open_spiel.python.observation import make_observation
from rl_cases import CASES, IDS, game

import kingmaker
from kingmaker.rl import openspiel
from kingmaker.rl.openspiel import short_name, to_kingmaker


def _load(gid: str, n: int) -> pyspiel.Game:
    game(gid, n)  # the game declares the research surface
    assert short_name(gid) in openspiel.register()
    return pyspiel.load_game(short_name(gid), {"players": n})


def _past_chance(state: pyspiel.State, rng: np.random.RandomState) -> pyspiel.State:
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


@pytest.mark.parametrize(("gid", "n"), CASES, ids=IDS)
def test_pyspiel_random_sim_test(gid: str, n: int) -> None:
    """OpenSpiel's random simulation test passes on every game and player count (serialisation at the minimum count)."""
    serialize = n == kingmaker.game_class(gid).min_players
    pyspiel.random_sim_test(_load(gid, n), num_sims=1, serialize=serialize, verbose=False)


def test_register_every_game_with_its_type() -> None:
    """Every registered game is a pyspiel game whose type matches its info (chance, information, dynamics)."""
    names = openspiel.register()
    assert names == [short_name(g) for g in kingmaker.available_games()]
    assert openspiel.register() == names  # twice is harmless
    for gid in kingmaker.available_games():
        km = kingmaker.make(gid)
        g = pyspiel.load_game(short_name(gid))
        t = g.get_type()
        T = pyspiel.GameType
        assert (t.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC) == km.info.has_chance
        assert (t.information == T.Information.PERFECT_INFORMATION) == km.info.perfect_information
        assert (t.dynamics == T.Dynamics.SIMULTANEOUS) == km.info.has_simultaneous
        extra = 1 if km.info.has_simultaneous else 0
        assert g.num_distinct_actions() == km.info.num_distinct_actions + extra
        assert g.max_chance_outcomes() == km.info.max_chance_outcomes
        assert g.num_players() == km.num_players
        assert tuple(g.observation_tensor_shape()) == (int(np.prod(km.info.observation_shape)),)


def test_options_are_parameters() -> None:
    """The game's options are pyspiel parameters (King's Kilt family_deal)."""
    openspiel.register()  # (not left to another test: under xdist this one may run first)
    g = pyspiel.load_game("kingmaker_kings_kilt(players=3,family_deal=one-per-clan)")
    km = to_kingmaker(g.new_initial_state())
    assert km is not None
    assert g.km.option_values["family_deal"] == "one-per-clan" and g.num_players() == 3
    with pytest.raises(kingmaker.GameError):
        pyspiel.load_game("kingmaker_kings_kilt", {"players": 9})


def test_observer_gives_the_games_tensor_and_string() -> None:
    """The observer's tensor is observation_tensor; its string is information_state_string (both kinds)."""
    g = _load("kings-kilt", 3)
    km = g.km
    rng = np.random.RandomState(0)
    state = _past_chance(g.new_initial_state(), rng)
    obs = make_observation(g)
    info = make_observation(g, pyspiel.IIGObservationType(perfect_recall=True))
    for p in range(3):
        obs.set_from(state, p)
        np.testing.assert_array_equal(obs.tensor, np.float32(km.observation_tensor(to_kingmaker(state), p)))
        expected = km.information_state_string(to_kingmaker(state), p)
        assert obs.string_from(state, p) == expected == info.string_from(state, p)
        assert state.information_state_string(p) == expected
        np.testing.assert_array_equal(state.observation_tensor(p), obs.tensor)


def test_resample_from_infostate_keeps_the_information_state() -> None:
    """resample_from_infostate draws with sample_hidden: same information state, other hidden cards."""
    g = _load("kings-kilt", 2)
    rng = np.random.RandomState(1)
    state = _past_chance(g.new_initial_state(), rng)
    p = state.current_player()
    key = state.information_state_string(p)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(p, sampler) for _ in range(12)]
    assert all(s.information_state_string(p) == key for s in samples)
    other = 1 - p
    assert len({s.information_state_string(other) for s in samples}) > 1


def test_ismcts_bot_plays_through_the_adapter() -> None:
    """OpenSpiel's ISMCTSBot, unchanged, searches an imperfect-information game and plays legal moves."""
    g = _load("kings-kilt", 2)
    rng = np.random.RandomState(2)
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=30, random_state=rng)
    state = _past_chance(g.new_initial_state(), rng)
    for _ in range(6):
        if state.is_terminal():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        _past_chance(state, rng)


def test_mcts_bot_and_evaluate_bots() -> None:
    """OpenSpiel's MCTSBot against its uniform random bot through evaluate_bots: a whole game, valid returns."""
    g = _load("kingpin", 2)
    rng = np.random.RandomState(3)
    bots = [
        mcts.MCTSBot(g, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
        uniform_random.UniformRandomBot(1, rng),
    ]
    returns = evaluate_bots.evaluate_bots(g.new_initial_state(), bots, rng)
    km = g.km
    assert len(returns) == 2 and all(km.info.min_return <= r <= km.info.max_return for r in returns)


def test_simultaneous_nodes_wait_and_turn_based_mcts() -> None:
    """San Quentin Kings' fists: seats with nothing to commit have only `wait`; convert_to_turn_based runs MCTSBot."""
    g = _load("san-quentin-kings", 3)
    rng = np.random.RandomState(4)
    state = _past_chance(g.new_initial_state(), rng)
    seen = False
    while not state.is_terminal():
        if state.is_chance_node():
            _past_chance(state, rng)
            continue
        if state.is_simultaneous_node():
            seen = True
            joint = []
            for p in range(3):
                legal = state.legal_actions(p)
                if p not in g.km.acting_players(to_kingmaker(state)):
                    assert legal == [g.wait] and state.action_to_string(p, g.wait) == "wait"
                joint.append(int(rng.choice(legal)))
            state.apply_actions(joint)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert seen
    turn_based = pyspiel.convert_to_turn_based(g)
    bot = mcts.MCTSBot(turn_based, 2.0, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    s = _past_chance(turn_based.new_initial_state(), rng)
    assert bot.step(s) in s.legal_actions()
