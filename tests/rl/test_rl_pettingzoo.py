"""The PettingZoo adapter (issue 13 section 2), checked by PettingZoo's own test suite.

Every registered game and player count goes through ``api_test``, ``seed_test``,
``parallel_api_test`` and ``parallel_seed_test``; the other tests check what the
contract (docs/contract.md, "The research surface") promises an RL user: the
observation is the game's tensor and mask, chance never reaches an agent, the
final rewards are the game's returns, and illegal moves are handled as documented.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from rl_cases import CASES, GAME_IDS, GAMES, IDS, game

import kingmaker
from kingmaker.rl.pettingzoo import env, parallel_env

CYCLES = 60


def _play(e, rng: random.Random, check=None) -> None:
    """Plays the AEC env to the end with random legal actions."""
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        if check is not None:
            check(e, agent, obs)
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[rng.randrange(len(legal))]))


@pytest.mark.parametrize(("gid", "n"), CASES, ids=IDS)
def test_pettingzoo_api_test(gid: str, n: int) -> None:
    """PettingZoo's api_test passes on the AEC env of every game and player count."""
    api_test(env(game(gid, n)), num_cycles=CYCLES)


@pytest.mark.parametrize(("gid", "n"), CASES, ids=IDS)
def test_pettingzoo_seed_test(gid: str, n: int) -> None:
    """PettingZoo's seed_test: the same seed gives the same game (chance drawn inside)."""
    seed_test(lambda: env(game(gid, n)), num_cycles=CYCLES)


@pytest.mark.parametrize(("gid", "n"), CASES, ids=IDS)
def test_pettingzoo_parallel_api_test(gid: str, n: int) -> None:
    """PettingZoo's parallel_api_test passes on the Parallel env of every game."""
    parallel_api_test(parallel_env(game(gid, n)), num_cycles=CYCLES)


@pytest.mark.parametrize(("gid", "n"), CASES, ids=IDS)
def test_pettingzoo_parallel_seed_test(gid: str, n: int) -> None:
    """parallel_seed_test (unmasked random actions, so illegal moves end games with the penalty)."""
    parallel_seed_test(lambda: parallel_env(game(gid, n), illegal="penalty"), num_cycles=CYCLES)


@pytest.mark.parametrize(("gid", "n"), GAMES, ids=GAME_IDS)
def test_observation_is_the_games_tensor_and_mask(gid: str, n: int) -> None:
    """Contract: the observation is observation_tensor and legal_actions_mask of the seat; no chance node reaches an agent."""
    g = game(gid, n)
    e = env(g)
    e.reset(seed=3)
    seen = []

    def check(e, agent, obs) -> None:
        p = int(agent.split("_")[1])
        s = e.state
        assert g.current_player(s) != kingmaker.CHANCE
        assert p in g.acting_players(s)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(obs["observation"].reshape(-1), np.float32(g.observation_tensor(s, p)))
        np.testing.assert_array_equal(obs["action_mask"], g.legal_actions_mask(s, p))
        for q in range(n):  # a seat that may not act now has an all-zero mask
            if q not in g.acting_players(s):
                assert not e.observe(f"player_{q}")["action_mask"].any()
        seen.append(p)

    _play(e, random.Random(3), check)
    assert seen


@pytest.mark.parametrize(("gid", "n"), GAMES, ids=GAME_IDS)
def test_final_rewards_are_the_returns(gid: str, n: int) -> None:
    """Contract: rewards are 0 until the end, then the game's returns (zero_sum centres them)."""
    g = game(gid, n)
    for zero_sum in (False, True):
        e = env(g, zero_sum=zero_sum)
        e.reset(seed=11)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        final = None
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            totals[agent] += reward
            if term or trunc:
                if final is None:
                    final = g.returns(e.state)
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[0]))
        expected = [float(x) for x in final]
        if zero_sum:
            mean = sum(expected) / n
            expected = [x - mean for x in expected]
            assert abs(sum(totals.values())) < 1e-9
        assert [totals[f"player_{p}"] for p in range(n)] == pytest.approx(expected)


def test_illegal_action_error_mode_leaves_the_env_unchanged() -> None:
    """illegal="error": IllegalActionError names the move; the state and the turn stay as they were."""
    e = env("kings-kilt", players=2, illegal="error")
    e.reset(seed=5)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before, agent = e.state, e.agent_selection
    with pytest.raises(kingmaker.IllegalActionError, match="cannot play"):
        e.step(bad)
    assert e.state is before and e.agent_selection == agent
    with pytest.raises(kingmaker.InvalidActionError):
        e.step("a2")


def test_illegal_action_penalty_mode_ends_the_game() -> None:
    """illegal="penalty" (the default): the offender gets the penalty, the others 0, and the game ends."""
    e = env("kings-kilt", players=3, illegal_penalty=-2.0)
    e.reset(seed=5)
    obs, *_ = e.last()
    offender = e.agent_selection
    e.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(e.terminations.values())
    assert e.rewards[offender] == -2.0 and sum(e.rewards.values()) == -2.0
    assert e.infos[offender] == {"illegal_action": True}


def test_reset_without_seed_continues_the_stream() -> None:
    """A seeded reset replays exactly; a later unseeded reset deals a different game."""
    def first_obs(e):
        return e.observe(e.agent_selection)["observation"].copy()

    a, b = env("kings-kilt", players=2), env("kings-kilt", players=2)
    a.reset(seed=9)
    b.reset(seed=9)
    np.testing.assert_array_equal(first_obs(a), first_obs(b))
    firsts = {first_obs(a).tobytes()}
    for _ in range(5):
        a.reset()
        firsts.add(first_obs(a).tobytes())
    assert len(firsts) > 1


def test_simultaneous_nodes_in_one_parallel_step() -> None:
    """San Quentin Kings' fists (rulebook: each player secretly chooses a fist): all acting seats step together."""
    g = game("san-quentin-kings", 3)
    pe = parallel_env(g)
    obs, _ = pe.reset(seed=2)
    rng = random.Random(2)
    most = 0
    while pe.agents:
        acting = pe.acting_agents()
        most = max(most, len(acting))
        for a in pe.agents:
            assert obs[a]["action_mask"].any() == (a in acting)
        actions = {}
        for a in acting:
            legal = np.flatnonzero(obs[a]["action_mask"])
            actions[a] = int(legal[rng.randrange(len(legal))])
        obs, rewards, terms, truncs, _ = pe.step(actions)
    assert most >= 2
    assert [rewards[f"player_{p}"] for p in range(3)] == pytest.approx(list(g.returns(pe.state)))


def test_parallel_step_needs_every_acting_seat() -> None:
    """A Parallel step without an acting seat's action is refused with a GameError naming it."""
    pe = parallel_env("kings-kilt", players=2)
    pe.reset(seed=1)
    with pytest.raises(kingmaker.GameError, match="no action for the acting agents"):
        pe.step({})


def test_env_options_and_ansi_render() -> None:
    """An unknown option is the game's InvalidOptionError; render gives the spectator's picture."""
    with pytest.raises(kingmaker.InvalidOptionError):
        env("kings-kilt", players=2, no_such_option=1)
    e = env("kings-kilt", players=2, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and text
