"""The numpy baseline (issue 13 section 4): gradients, training smoke test, files, the policy agent.

The agent reads only its Observation (contract: "Hidden information"): it
draws a state from the seat's view and reads the observation tensor, a
function of the view.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import kingmaker
from kingmaker.agents import agent_kinds, make_agent
from kingmaker.agents.arena import run_arena
from kingmaker.rl.policy import FLUSH, POLICY_DIR, MaskedPolicy, find_policy
from kingmaker.rl.train import TrainConfig, gradients, train

SHIPPED = POLICY_DIR / "kings-kilt-2p.npz"


def _loss(policy, x, mask, actions, returns, adv, old_logp, vc, ec) -> float:
    logits, values, _ = policy.forward(x)
    pr = MaskedPolicy.masked_probs(logits, mask)
    legal = mask > 0
    logp = np.where(legal, np.log(np.where(legal, pr, 1.0)), 0.0)
    rows = np.arange(len(actions))
    ratio = np.exp(logp[rows, actions] - old_logp)
    surr = np.minimum(ratio * adv, np.clip(ratio, 0.8, 1.2) * adv)
    entropy = -(pr * logp).sum(axis=1)
    return float(-surr.mean() + vc * ((values - returns) ** 2).mean() - ec * entropy.mean())


def test_ppo_gradients_match_finite_differences() -> None:
    """The hand-written backward pass of the clipped PPO loss agrees with finite differences."""
    rng = np.random.default_rng(1)
    pol = MaskedPolicy.create(7, 5, hidden=(6, 4), seed=3)
    for k in pol.params:
        pol.params[k] = pol.params[k].astype(np.float64) + rng.normal(0, 0.3, pol.params[k].shape)
    x = rng.normal(size=(9, 7))
    mask = (rng.random((9, 5)) < 0.6).astype(np.int8)
    mask[:, 0] = 1
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    returns = rng.normal(size=9)
    adv = rng.normal(size=9)
    old_logp = np.log(pol.probs(x, mask)[np.arange(9), actions]) + rng.normal(0, 0.05, 9)
    grads, _ = gradients(pol, x, mask, actions, returns, 0.5, 0.05, advantages=adv, old_logp=old_logp, clip=0.2)
    for key in ("W0", "b0", "W1", "Wp", "bp", "Wv", "bv"):
        p = pol.params[key]
        idx = tuple(int(rng.integers(s)) for s in p.shape)
        old = p[idx]
        p[idx] = old + 1e-6
        up = _loss(pol, x, mask, actions, returns, adv, old_logp, 0.5, 0.05)
        p[idx] = old - 1e-6
        down = _loss(pol, x, mask, actions, returns, adv, old_logp, 0.5, 0.05)
        p[idx] = old
        assert grads[key][idx] == pytest.approx((up - down) / 2e-6, rel=1e-3, abs=1e-6), key


def test_training_loop_smoke(tmp_path) -> None:
    """The training loop runs a few hundred steps (imitation, then PPO) and changes the weights."""
    cfg = TrainConfig(episodes=10_000, batch=4, envs=4, minibatch=64, hidden=(16,), teacher="heuristic",
                      teacher_games=3, imitation_epochs=2)
    fresh = MaskedPolicy.for_game(kingmaker.make("kings-kilt", players=2), (16,), 0)
    policy, rows = train(cfg, max_steps=300)
    assert [r["phase"] for r in rows[:2]] == ["imitation", "imitation"]
    ppo = [r for r in rows if r["phase"] == "ppo"]
    assert ppo and np.isfinite(ppo[-1]["policy_loss"]) and policy.meta["trained"]["steps"] >= 300
    assert not np.allclose(policy.params["Wp"], fresh.params["Wp"])
    path = policy.save(tmp_path / "p.npz")
    again = MaskedPolicy.load(path)
    x = np.random.default_rng(0).random((3, policy.obs_size), dtype=np.float32)
    mask = np.ones((3, policy.num_actions), dtype=np.int8)
    np.testing.assert_allclose(again.probs(x, mask), policy.probs(x, mask), rtol=1e-6)
    assert again.meta["trained"]["steps"] >= 300


def test_tiny_weights_are_read_as_zero_and_change_no_output(tmp_path) -> None:
    """A file's weights smaller than FLUSH are read as 0 (their products are subnormal floats,
    slow on x86: benchmarks/net_flush.py); larger ones are read as written, the arrays of the
    policy that saved the file are left as they were, and the outputs move by a float32
    rounding at most."""
    pol = MaskedPolicy.create(9, 6, hidden=(8,), seed=4)
    rng = np.random.default_rng(2)
    for k in ("W0", "Wp"):
        w = pol.params[k]
        w[rng.random(w.shape) < 0.4] = 1e-33  # as training leaves seldom-seen actions' columns
    w0 = pol.params["W0"].copy()
    path = pol.save(tmp_path / "p.npz")
    back = MaskedPolicy.load(path)
    for k, w in pol.params.items():
        tiny = np.abs(w) < FLUSH
        assert (back.params[k][tiny] == 0).all() and (back.params[k][~tiny] == w[~tiny]).all(), k
    assert (pol.params["W0"] == w0).all() and (w0 == 1e-33).any()  # the saver's arrays unchanged
    x = rng.random((5, 9)).astype(np.float32)
    (l1, v1, _), (l2, v2, _) = pol.forward(x), back.forward(x)
    assert np.abs(l1 - l2).max() < 1e-6 and np.abs(v1 - v2).max() < 1e-6
    from kingmaker.agents.expert import SHIPPED_NETS

    for f in [SHIPPED, *sorted(SHIPPED_NETS.glob("*.npz"))]:  # every shipped network, as read
        for k, w in MaskedPolicy.load(f).params.items():
            assert not ((w != 0) & (np.abs(w) < FLUSH)).any(), (f.name, k)


def test_masked_probabilities_are_zero_on_illegal_actions() -> None:
    """Illegal actions get probability 0 and are never chosen, greedy or sampled."""
    pol = MaskedPolicy.create(4, 6, seed=0)
    x = np.ones(4, dtype=np.float32)
    mask = np.array([0, 1, 0, 1, 0, 0], dtype=np.int8)
    pr = pol.probs(x, mask)
    assert pr[[0, 2, 4, 5]].sum() == 0 and pr.sum() == pytest.approx(1.0)
    rng = random.Random(0)
    assert {pol.act(x, [1, 3], rng, greedy=False) for _ in range(50)} <= {1, 3}
    assert pol.act(x, [1, 3]) in (1, 3)


def test_policy_agent_spec_and_errors(tmp_path) -> None:
    """policy[:<name or file>] builds the agent; a missing file or another game raises GameError."""
    g = kingmaker.make("kings-kilt", players=2)
    assert "policy" in agent_kinds()
    assert make_agent("policy", g).policy.meta["game"] == "kings-kilt"
    assert make_agent(f"policy:{SHIPPED}", g).greedy
    assert not make_agent("policy:kings-kilt-2p/sample", g).greedy
    assert find_policy("kings-kilt-2p") == SHIPPED
    with pytest.raises(kingmaker.GameError, match="no policy"):
        make_agent("policy:no-such-policy", g)
    with pytest.raises(kingmaker.GameError, match="no policy file"):
        make_agent(f"policy:{tmp_path / 'missing.npz'}", g)
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(kingmaker.GameError, match="not a policy file"):
        make_agent(f"policy:{bad}", g)
    with pytest.raises(kingmaker.GameError, match="does not fit"):
        make_agent("policy:kings-kilt-2p", kingmaker.make("kings-kilt", players=3))
    with pytest.raises(kingmaker.GameError, match="no shipped policy"):
        make_agent("policy", kingmaker.make("kingpin", players=2))


def test_policy_agent_plays_arena_games_and_beats_random() -> None:
    """The shipped King's Kilt policy plays legal moves in the arena and beats random (60 seeded games, seats rotated)."""
    result = run_arena("kings-kilt", 2, "policy:kings-kilt-2p,random", 60, seed=7)
    score = sum(g["returns"][seat] for g in result.games for seat, spec in enumerate(g["seats"])
                if spec.startswith("policy"))
    assert score >= 48  # 80% (a shared win counts half); benchmarks/rl.md has the 400-game figure


def test_policy_agent_decides_from_the_view_only() -> None:
    """Two states with the same view for the seat give the same move (the hidden cards never matter)."""
    g = kingmaker.make("kings-kilt", players=2)
    agent = make_agent("policy:kings-kilt-2p", g)
    from kingmaker.core.match import Match

    m = Match(g, [None, None], seed=3)
    while g.current_player(m.state) == kingmaker.CHANCE:
        m.step_chance()
    p = g.current_player(m.state)
    obs_a = m.observation(p)
    other = g.sample_hidden(m.state, p, random.Random(99))
    from kingmaker.core.match import Observation

    obs_b = Observation(g, p, g.view(other, p), g.legal_actions(other, p),
                        lambda r: g.sample_hidden(other, p, r), random.Random(1))
    assert agent.act(obs_a) == agent.act(obs_b)


def test_policy_agent_in_play_and_the_web_with_custom_bots() -> None:
    """`kingmaker play --bot policy:...` builds the match; the web accepts the spec with --custom-bots."""
    from kingmaker.agents.policy import PolicyAgent
    from kingmaker.cli import _build_match
    from kingmaker.web.hub import check_bot_spec

    g = kingmaker.make("kings-kilt", players=2)
    match, specs = _build_match(g, {0}, ("policy:kings-kilt-2p",), 1)
    assert specs == [None, "policy:kings-kilt-2p"]
    assert match.agents[0] is None and isinstance(match.agents[1], PolicyAgent)
    assert check_bot_spec("policy:kings-kilt-2p", g, custom=True) == "policy:kings-kilt-2p"
