"""Match (authority, seeded chance, agents see only views) and game records."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

import kingmaker
from kingmaker.agents import HeuristicAgent, RandomAgent, make_agent


class SpyAgent:
    """Records what it is given; plays randomly."""

    def __init__(self):
        self.seen = []

    def act(self, obs):
        self.seen.append(obs)
        return obs.rng.choice(obs.legal_actions)


def test_match_plays_to_the_end_and_replays_exactly(tmp_path):
    g = kingmaker.make("kings-kilt", players=3)
    m = kingmaker.Match(g, [RandomAgent(), HeuristicAgent(), RandomAgent()], seed=42)
    assert m.run()
    rec = m.record(note="test")
    path = tmp_path / "game.json"
    rec.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "kingmaker-record" and data["version"] == 1
    assert data["game"] == "kings-kilt" and data["players"] == 3 and data["seed"] == 42
    assert data["result"] == list(m.returns())
    assert any(p == kingmaker.CHANCE for p, _ in data["actions"])
    loaded = kingmaker.Record.load(path)
    assert loaded.replay() == m.state


def test_same_seed_same_match():
    g = kingmaker.make("kings-kilt", players=2)
    a = kingmaker.Match(g, [RandomAgent(), RandomAgent()], seed=7)
    b = kingmaker.Match(g, [RandomAgent(), RandomAgent()], seed=7)
    a.run()
    b.run()
    assert a.history == b.history and a.state == b.state


def test_agents_receive_observations_not_the_state():
    g = kingmaker.make("kings-kilt", players=2)
    spy = SpyAgent()
    m = kingmaker.Match(g, [spy, RandomAgent()], seed=3)
    m.run()
    assert spy.seen
    for obs in spy.seen:
        assert isinstance(obs, kingmaker.Observation)
        assert not hasattr(obs, "state")
        assert obs.player == 0 and obs.view["you"] == 0
        t = obs.sample(random.Random(1))
        assert g.view(t, 0) == obs.view


def test_human_seat_waits_and_checked_moves():
    g = kingmaker.make("kings-kilt", players=2)
    m = kingmaker.Match(g, [None, RandomAgent()], seed=1)
    assert m.run() is False  # stops at the human's turn
    assert m.current_player == 0
    with pytest.raises(kingmaker.NotYourTurnError):
        m.play(m.legal_actions(0)[0], player=1)
    with pytest.raises(kingmaker.InvalidActionError):
        m.play("dance a jig", player=0)
    before = m.state
    with pytest.raises(kingmaker.IllegalActionError):
        m.play("pass", player=0)
    assert m.state is before
    m.play(g.action_to_str(m.state, m.legal_actions(0)[0]), player=0)
    assert m.log[-1].player == 0


def test_log_for_a_seat_hides_other_seats_secrets():
    g = kingmaker.make("kings-kilt", players=2)
    m = kingmaker.Match(g, [RandomAgent(), RandomAgent()], seed=9)
    m.run()
    full = [e.text for e in m.log]
    seat0 = m.log_for(0)
    spectator = m.log_for(None)
    assert len(seat0) == len(full) == len(spectator)
    assert sum("you are dealt" in line for line in seat0) == 8  # 3 family + 5 influence
    assert not any("you are dealt" in line for line in spectator)


def test_record_errors_are_clear(tmp_path):
    with pytest.raises(kingmaker.RecordError, match="not a game record"):
        kingmaker.Record.from_json({"format": "other"})
    with pytest.raises(kingmaker.RecordError, match="version 9"):
        kingmaker.Record.from_json({"format": "kingmaker-record", "version": 9})
    with pytest.raises(kingmaker.RecordError, match="not JSON"):
        kingmaker.Record.from_json("{")
    bad = kingmaker.Record("kings-kilt", 2, {}, ((0, 231),))
    with pytest.raises(kingmaker.RecordError, match="does not replay"):
        bad.replay()


def test_from_json_rejects_bad_states():
    g = kingmaker.make("kings-kilt", players=2)
    s = g.new_initial_state()
    data = g.to_json(s)
    assert g.from_json(json.loads(json.dumps(data))) == s
    with pytest.raises(kingmaker.InvalidStateError):
        g.from_json({"game": "kingpin", "state": {}})
    broken = json.loads(json.dumps(data))
    del broken["state"]["pyramid"]
    with pytest.raises(kingmaker.InvalidStateError, match="missing"):
        g.from_json(broken)
    broken = json.loads(json.dumps(data))
    broken["state"]["unseen"][0] = 99
    with pytest.raises(kingmaker.InvalidStateError, match="do not add up"):
        g.from_json(broken)


def test_play_on_finished_game_raises_game_over():
    g = kingmaker.make("kings-kilt", players=2)
    m = kingmaker.Match(g, [RandomAgent(), RandomAgent()], seed=2)
    m.run()
    with pytest.raises(kingmaker.GameOverError):
        g.play(m.state, 0)


def test_make_agent_kinds_and_errors():
    g = kingmaker.make("kings-kilt", players=2)
    assert isinstance(make_agent("random", g), RandomAgent)
    with pytest.raises(kingmaker.GameError, match="no agent kind"):
        make_agent("oracle", g)


def test_heuristic_beats_random_in_most_two_player_games():
    """A small check of the heuristic's edge (the 1,000-game figure is in docs/rulings)."""
    g = kingmaker.make("kings-kilt", players=2)
    wins = 0.0
    for seed in range(60):
        agents = [HeuristicAgent(), RandomAgent()] if seed % 2 == 0 else [RandomAgent(), HeuristicAgent()]
        m = kingmaker.Match(g, agents, seed=seed)
        m.run()
        wins += m.returns()[seed % 2]
    assert wins / 60 > 0.6


def test_observation_sampler_holds_no_true_hidden_state():
    """Even the sampler's closure holds a resampled state, never the true one."""
    g = kingmaker.make("kings-kilt", players=3)
    m = kingmaker.Match(g, [None, RandomAgent(), RandomAgent()], seed=13)
    m.run()
    obs = m.observation(0)
    held = [c.cell_contents for c in obs._sampler.__closure__]
    assert m.state not in held
    assert obs.sample(random.Random(4)) == g.sample_hidden(m.state, 0, random.Random(4))


class FirstAgent:
    """Plays the first legal action: no random stream, so a resumed match plays as an unbroken one."""

    def act(self, obs):
        return obs.legal_actions[0]


@pytest.mark.parametrize("gid", ["kings-kilt", "gangs-of-green-city", "kingpins"])
def test_a_match_resumed_from_its_record_goes_on_with_the_same_chance_stream(gid):
    g = kingmaker.make(gid, players=3)
    whole = kingmaker.Match(g, [FirstAgent()] * 3, seed=11)
    whole.run()
    assert whole.is_over()
    cut = len(whole.log) // 2
    part = kingmaker.Match(g, [FirstAgent()] * 3, seed=11)
    while len(part.log) < cut:
        part.step()
    rec = kingmaker.Record.from_json(part.record().dumps())  # saved and read back
    assert rec.result is None
    resumed = kingmaker.Match.from_record(rec, [FirstAgent()] * 3)
    assert resumed.state == part.state and resumed.history == part.history
    resumed.run()
    # the chance outcomes drawn after the resume are those the unbroken match drew
    assert resumed.history == whole.history and resumed.state == whole.state


def test_resuming_a_record_that_does_not_replay_says_why():
    g = kingmaker.make("kings-kilt", players=2)
    m = kingmaker.Match(g, [RandomAgent(), RandomAgent()], seed=5)
    for _ in range(60):
        m.step()
    rec = m.record()
    assert any(p >= 0 for p, _ in rec.actions)
    states = list(rec.states(g))
    i = next(i for i, (p, _) in enumerate(rec.actions) if p == kingmaker.CHANCE and len(g.chance_outcomes(states[i])) > 1)
    other = next(a for a, _ in g.chance_outcomes(states[i]) if a != rec.actions[i][1])
    changed = dataclasses.replace(rec, actions=rec.actions[:i] + ((kingmaker.CHANCE, other),) + rec.actions[i + 1:])
    with pytest.raises(kingmaker.RecordError, match=f"record action {i}: chance draws"):
        kingmaker.Match.from_record(changed)
    with pytest.raises(kingmaker.RecordError, match="has no seed"):
        kingmaker.Match.from_record(dataclasses.replace(rec, seed=None))
    j = next(i for i, (p, _) in enumerate(rec.actions) if p >= 0)
    bad = dataclasses.replace(rec, actions=rec.actions[:j] + ((rec.actions[j][0], 10**6),) + rec.actions[j + 1:])
    with pytest.raises(kingmaker.RecordError, match=f"record action {j} .* does not replay"):
        kingmaker.Match.from_record(bad)
