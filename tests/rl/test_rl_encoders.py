"""The fast observation encoders and masks against plain references (issue 13 section 3).

Each game's ``observation_tensor`` was rewritten for speed (a float32
``array("f")`` filled from precomputed tables); ``reference_encoders.py``
keeps the plain list-building versions they replaced. On seeded random games
(every game and player count, every state, chance and the end included, every
seat) both must give the same values once stored as float32 (the fast ones
are float32 already), which is what the RL adapters hand out. The rulebook sections behind each index are named in the
games' encoding tables (view.py / observe.py); the masks follow each rulebook's
legal moves, ``game.legal_actions``.
"""

from __future__ import annotations

import random
from array import array

import numpy as np
import pytest
from reference_encoders import REFERENCE
from rl_cases import CASES, IDS, game

import kingmaker
from kingmaker.core.match import sample_chance
from kingmaker.rl._common import Encoder

GAMES_PER_CASE = 3


def _f32(values: list[float]) -> list[float]:
    """Returns the floats as float32 holds them (the encoders fill an array("f"))."""
    return list(array("f", values))


def _states(g: kingmaker.Game, seed: int):
    """Yields every state of one seeded random game, chance nodes and the end included."""
    rng = random.Random(seed)
    s = g.new_initial_state()
    yield s
    while not g.is_terminal(s):
        cp = g.current_player(s)
        if cp == kingmaker.CHANCE:
            s = g.apply(s, sample_chance(g.chance_outcomes(s), rng))
        else:
            p = g.acting_players(s)[0]
            s = g.apply(s, rng.choice(g.legal_actions(s, p)), p)
        yield s


@pytest.mark.parametrize(("gid", "n"), CASES, ids=IDS)
def test_fast_encoder_matches_reference(gid: str, n: int) -> None:
    g = game(gid, n)
    ref = REFERENCE[gid]
    enc = Encoder(g)
    checked = 0
    for seed in range(GAMES_PER_CASE):
        for k, s in enumerate(_states(g, seed)):
            for p in range(n):
                want = _f32(ref(g, s, p))
                got = list(g.observation_tensor(s, p))
                assert len(got) == len(want) == enc.size
                if got != want:
                    diff = [i for i, (x, y) in enumerate(zip(got, want)) if x != y][:10]
                    pytest.fail(f"{gid} {n}p seed {seed} state {k} player {p}: indices {diff} differ")
                obs = enc.observation(s, p)
                assert obs.dtype == np.float32 and obs.shape == tuple(g.info.observation_shape)
                assert np.array_equal(obs.ravel(), np.array(want, dtype=np.float32))
                assert np.array_equal(obs.ravel(), np.array(ref(g, s, p), dtype=np.float32))
                checked += 1
    assert checked > 20 * n


@pytest.mark.parametrize(("gid", "n"), CASES, ids=IDS)
def test_fast_encoder_on_states_in_any_order(gid: str, n: int) -> None:
    """Encoders may start from the tensor they built last (Gangs of Green City does): states
    of two games of the same options, taken in a random order and with the tensors handed out
    scribbled on, still give the reference's values."""
    g, other = game(gid, n), game(gid, n)
    ref = REFERENCE[gid]
    pool = [(h, s) for seed, h in ((10, g), (11, other), (12, g)) for s in _states(h, seed)]
    rng = random.Random(5)
    rng.shuffle(pool)
    for i, (h, s) in enumerate(pool[:400]):
        p = rng.randrange(n)
        got = h.observation_tensor(s, p)
        assert list(got) == _f32(ref(h, s, p)), f"{gid} {n}p: state {i} of the shuffled pool, player {p}"
        got[rng.randrange(len(got))] = 7.0  # an agent may change the tensor it was given


@pytest.mark.parametrize(("gid", "n"), CASES, ids=IDS)
def test_mask_is_the_legal_actions(gid: str, n: int) -> None:
    g = game(gid, n)
    enc = Encoder(g)
    for s in _states(g, 7):
        acting = g.acting_players(s)
        for p in range(n):
            m = enc.mask(s, p)
            assert m.dtype == np.int8 and m.shape == (g.info.num_distinct_actions,)
            want = g.legal_actions(s, p) if p in acting else []
            assert np.flatnonzero(m).tolist() == want
            assert enc.mask_bytes(s, p, p in acting) == bytes(m)


def test_observations_are_fresh_arrays() -> None:
    """Two observations never share memory: an agent may keep or change one."""
    g = game("kings-kilt", 2)
    enc = Encoder(g)
    s = next(_states(g, 0))
    a, b = enc.observation(s, 0), enc.observation(s, 0)
    assert np.array_equal(a, b) and not np.shares_memory(a, b)
    a[0] = 42.0
    assert enc.observation(s, 0)[0] != 42.0
