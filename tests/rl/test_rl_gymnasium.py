"""The Gymnasium single-seat adapter (issue 13 section 2), checked by Gymnasium's check_env.

One seat learns; agent specs play the others. The mask is in the observation
and in ``info``; illegal actions follow the ``illegal`` flag (docs/research.md).
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from rl_cases import GAME_IDS, GAMES, game

import kingmaker
from kingmaker.rl.gymnasium import KingmakerEnv


def _run(env: KingmakerEnv, seed: int, pick=lambda legal: legal[0]) -> tuple[list, float]:
    obs, info = env.reset(seed=seed)
    trace = []
    while True:
        np.testing.assert_array_equal(obs["action_mask"], info["action_mask"])
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        a = int(pick(legal))
        trace.append((obs["observation"].tobytes(), a))
        obs, reward, term, trunc, info = env.step(a)
        if term or trunc:
            return trace, reward
        assert reward == 0.0


@pytest.mark.parametrize(("gid", "n"), GAMES, ids=GAME_IDS)
def test_gymnasium_check_env(gid: str, n: int) -> None:
    """Gymnasium's check_env passes on every game (random opponents, the default penalty mode)."""
    env = KingmakerEnv(game(gid, n), opponents="random")
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize(("gid", "n"), GAMES, ids=GAME_IDS)
def test_gymnasium_episode_ends_with_the_seats_return(gid: str, n: int) -> None:
    """Contract: the final reward is the learning seat's return; the same seed replays the same episode."""
    g = game(gid, n)
    env = KingmakerEnv(g, opponents="heuristic", seat=n - 1)
    trace, reward = _run(env, seed=4)
    assert g.is_terminal(env.state)
    assert reward == pytest.approx(g.returns(env.state)[n - 1])
    again, reward2 = _run(KingmakerEnv(g, opponents="heuristic", seat=n - 1), seed=4)
    assert again == trace and reward2 == reward


def test_observation_is_the_seats_tensor() -> None:
    """The observation is observation_tensor of the learning seat, in the declared shape."""
    env = KingmakerEnv("kings-kilt", players=3, seat=1)
    obs, info = env.reset(seed=2)
    g = env.game
    assert obs["observation"].shape == tuple(g.info.observation_shape)
    np.testing.assert_array_equal(obs["observation"].reshape(-1), np.float32(g.observation_tensor(env.state, 1)))
    assert g.current_player(env.state) in (1, kingmaker.SIMULTANEOUS)
    assert info["seat"] == 1
    assert env.action_masks().dtype == bool


def test_illegal_action_error_mode() -> None:
    """illegal="error": IllegalActionError, and the env is unchanged (the next legal step works)."""
    env = KingmakerEnv("kings-kilt", players=2, illegal="error")
    obs, _ = env.reset(seed=1)
    before = env.state
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(kingmaker.IllegalActionError, match="cannot play"):
        env.step(bad)
    assert env.state is before
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_illegal_action_penalty_mode() -> None:
    """illegal="penalty" (default): the episode ends with the penalty and info says so."""
    env = KingmakerEnv("kings-kilt", players=2, illegal_penalty=-3.0)
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, trunc, info = env.step(bad)
    assert (reward, term, trunc, info["illegal_action"]) == (-3.0, True, False, True)
    with pytest.raises(kingmaker.GameError, match="reset"):
        env.step(0)


def test_centred_reward_and_random_seat() -> None:
    """reward="centred" gives return minus the mean; seat="random" draws the seat at each reset."""
    env = KingmakerEnv("kings-kilt", players=2, seat="random", reward="centred")
    seats = set()
    for seed in range(12):
        _, reward = _run(env, seed)
        r = env.game.returns(env.state)
        assert reward == pytest.approx(r[env.seat] - sum(r) / 2)
        seats.add(env.seat)
    assert seats == {0, 1}


def test_opponent_list_and_bad_arguments() -> None:
    """Opponents may be a list of specs (one per other seat); bad arguments raise GameError."""
    env = KingmakerEnv("kings-kilt", players=3, opponents=["heuristic", "random"])
    _run(env, seed=0)
    with pytest.raises(kingmaker.GameError, match="opponents"):
        KingmakerEnv("kings-kilt", players=3, opponents=["random"])
    with pytest.raises(kingmaker.GameError, match="no agent kind"):
        KingmakerEnv("kings-kilt", players=2, opponents="nobody")
    with pytest.raises(kingmaker.GameError, match="seat"):
        KingmakerEnv("kings-kilt", players=2, seat=2)
    with pytest.raises(kingmaker.GameError, match="illegal"):
        KingmakerEnv("kings-kilt", players=2, illegal="ignore")


def test_simultaneous_seat_learns_too() -> None:
    """San Quentin Kings (fists chosen simultaneously): the learning seat commits its fist like any move."""
    g = game("san-quentin-kings", 3)
    env = KingmakerEnv(g, seat=0, opponents="random")
    _, reward = _run(env, seed=3, pick=lambda legal: legal[-1])
    assert g.is_terminal(env.state)
    assert reward == pytest.approx(g.returns(env.state)[0])
