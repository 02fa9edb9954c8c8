"""``reuse`` (the search's table kept for the next decision) and ``crn`` (common random
numbers at the root): docs/agents.md, "Variance and reuse".

Two toys. In ``NoisyPick`` one seat picks one of four moves and then a die of a hundred
faces pays it; move 1 adds a small edge. With ``crn=1`` the k-th visit of every root move
meets the same die, so two moves visited equally often have equal totals when their
edges are equal, and the edge is found at a budget where independent dice hide it. In
``TwoSteps`` the seat moves twice in a row: with ``reuse=1`` the second search starts
from what the first learned of that position.
"""

from __future__ import annotations

import random
import sys

import pytest
from toys import MovesSoFar

from kingmaker import CHANCE, TERMINAL, GameError
from kingmaker.agents.search import ISMCTSAgent, SearchConfig, parse_level
from kingmaker.core.match import Observation

FACES = 100


class NoisyPick(MovesSoFar):
    """Seat 0 picks a move 0-3, then a die 0-99 is thrown; seat 0 scores die/100 plus
    the move's edge (at most 1), seat 1 the rest."""

    id = "toy-noisy-pick"
    name = "Noisy Pick"
    perfect_information = True
    has_chance = True
    min_players = max_players = 2
    edges = (0.0, 0.0, 0.0, 0.0)

    def current_player(self, s):
        return 0 if not s else CHANCE if len(s) == 1 else TERMINAL

    def chance_outcomes(self, s):
        return [(f, 1 / FACES) for f in range(FACES)]

    def legal_actions(self, s, player=None):
        cp = self.current_player(s)
        if cp == CHANCE:
            return list(range(FACES)) if player is None else []
        if cp < 0 or player not in (None, cp):
            return []
        return [0, 1, 2, 3]

    def returns(self, s):
        if len(s) < 2:
            return (0.0, 0.0)
        x = min(1.0, s[1] / FACES + self.edges[s[0]])
        return (x, 1.0 - x)

    def action_to_str(self, s, action):
        return f"move {action}" if not s else f"die {action}"

    def heuristic_action(self, s, player, rng):
        return 0


class EdgedPick(NoisyPick):
    """Move 1 is worth 0.02 more than the others: a fiftieth of the die's range."""

    id = "toy-edged-pick"
    edges = (0.0, 0.02, 0.0, 0.0)


class TwoSteps(MovesSoFar):
    """Seat 0 moves twice (0 or 1 each time); two 1s win, anything else loses."""

    id = "toy-two-steps"
    name = "Two Steps"
    perfect_information = True
    has_chance = False
    min_players = max_players = 2

    def current_player(self, s):
        return 0 if len(s) < 2 else TERMINAL

    def legal_actions(self, s, player=None):
        cp = self.current_player(s)
        if cp < 0 or player not in (None, cp):
            return []
        return [0, 1]

    def returns(self, s):
        if len(s) < 2:
            return (0.0, 0.0)
        return (1.0, 0.0) if s == (1, 1) else (0.0, 1.0)

    def action_to_str(self, s, action):
        return f"step {action}"

    def heuristic_action(self, s, player, rng):
        return 0


def observe(game, s, seed):
    return Observation(game, 0, game.view(s, 0), game.legal_actions(s, 0),
                       lambda rng: game.sample_hidden(s, 0, rng), random.Random(seed))


def agent(crn=0, reuse=0, iterations=80):
    return ISMCTSAgent(SearchConfig(iterations=iterations, prior="none", crn=crn, reuse=reuse))


def _equal_pairs(stats):
    """(the pairs of root moves with equal visits, those of them with equal totals)."""
    moves = sorted(stats.visits)
    pairs = [(a, b) for i, a in enumerate(moves) for b in moves[i + 1:]
             if stats.visits[a] == stats.visits[b] > 0]
    same = [(a, b) for a, b in pairs
            if stats.values[a] * stats.visits[a] == pytest.approx(stats.values[b] * stats.visits[b], abs=1e-12)]
    return pairs, same


def test_crn_gives_the_kth_visit_of_every_root_move_the_same_dice():
    game = NoisyPick(2)
    pairs_crn = same_crn = pairs_plain = same_plain = 0
    for seed in range(10):
        for crn in (0, 1):
            a = agent(crn=crn, iterations=60)
            a.act(observe(game, (), seed))
            pairs, same = _equal_pairs(a.last)
            if crn:
                pairs_crn += len(pairs)
                same_crn += len(same)
            else:
                pairs_plain += len(pairs)
                same_plain += len(same)
    assert pairs_crn > 0 and same_crn == pairs_crn  # every equally visited pair: equal totals
    assert pairs_plain > 0 and same_plain < pairs_plain  # with one stream they differ


def test_crn_finds_a_small_edge_that_independent_dice_hide():
    game = EdgedPick(2)
    found = {0: 0, 1: 0}
    for seed in range(20):
        for crn in (0, 1):
            found[crn] += agent(crn=crn, iterations=80).act(observe(game, (), seed)) == 1
    assert found[1] >= 18
    assert found[1] > found[0] + 5


def test_crn_decisions_depend_only_on_the_view_and_the_stream():
    game = EdgedPick(2)
    moves = [agent(crn=1).act(observe(game, (), 7)) for _ in range(3)]
    assert len(set(moves)) == 1


def test_reuse_starts_the_next_decision_from_the_last_search():
    game = TwoSteps(2)
    kept, fresh = agent(reuse=1, iterations=40), agent(reuse=0, iterations=40)
    for a in (kept, fresh):
        assert a.act(observe(game, (), 1)) == 1
    assert sum(fresh.last.visits.values()) == 40
    first_visits = sum(kept.last.visits.values())
    assert first_visits == 40
    kept.act(observe(game, (1,), 2))
    fresh.act(observe(game, (1,), 2))
    assert sum(fresh.last.visits.values()) == 40
    assert sum(kept.last.visits.values()) > 40  # what the first search learned of (1,), and 40 more


def test_reuse_drops_a_table_that_does_not_hold_the_new_root():
    game = TwoSteps(2)
    a = agent(reuse=1, iterations=40)
    a.act(observe(game, (), 1))
    other = TwoSteps(2)  # another game object: nothing of the last search applies
    a.act(observe(other, (1,), 2))
    assert sum(a.last.visits.values()) == 40
    assert a.config.reuse == 1


def test_reuse_2_tops_the_root_up_to_the_budget():
    game = TwoSteps(2)
    a = agent(reuse=2, iterations=40)
    a.act(observe(game, (), 1))
    assert a.last.visits[1] >= 20
    node = a._kept[1][(0, game.information_state_string((1,), 0))]
    carried = sum(edge[0] for move, edge in node.items() if move >= 0)
    assert 0 < carried < 40
    a.act(observe(game, (1,), 2))
    assert a.last.iterations == 40 - carried  # only what the kept visits lack
    assert sum(a.last.visits.values()) == 40  # topped up to the budget, not 40 more


@pytest.mark.parametrize(("key", "allowed", "bad"), [("reuse", [0, 1, 2], 3), ("crn", [0, 1], 2)])
def test_reuse_and_crn_take_only_their_values(key, allowed, bad):
    for v in allowed:
        assert getattr(parse_level(f"normal/{key}={v}"), key) == v
    with pytest.raises(GameError) as err:
        parse_level(f"normal/{key}={bad}")
    assert f"{key} must be" in str(err.value) and err.value.details["accepted"] == allowed


def test_terminal_is_reached_in_the_toys():
    # (the toys end where they say: a guard for the tests above)
    assert NoisyPick(2).current_player((0, 5)) == TERMINAL
    assert TwoSteps(2).current_player((1, 1)) == TERMINAL


def _moves_and_roots(spec: str, decisions: int) -> list:
    """The first ``decisions`` searched moves of seat 0 (King's Kilt, two players, against
    the heuristic) with their root visits and the searches' iterations."""
    import kingmaker
    from kingmaker import Match
    from kingmaker.agents import make_agent

    game = kingmaker.make("kings-kilt", 2)
    bot = make_agent(spec, game)
    m = Match(game, [bot, make_agent("heuristic", game)], seed=4)
    out = []
    while not m.is_over() and len(out) < decisions:
        if m.current_player == 0 and len(m.legal_actions(0)) > 1:
            a = bot.act(m.observation(0))
            out.append((a, dict(bot.last.visits), bot.last.iterations))
            m.play(a)
        else:
            m.step()
    return out


@pytest.mark.parametrize("spec", ["ismcts:hard/seconds=none/iterations=60/reuse=2",
                                  "ismcts:normal/seconds=none/iterations=60/workers=2/reuse=1"])
def test_each_worker_keeps_its_tree_forked_or_not(spec, monkeypatch):
    """With ``workers`` each worker's table lives on: a forked worker sends it back, so the
    forked and the serial runs make the same searches, decision after decision; and they
    do keep something (fewer new iterations than the budget with the top-up, more visits
    than the iterations with ``reuse=1``)."""
    from kingmaker.agents import parallel

    if sys.platform.startswith("linux"):
        assert parallel.can_fork()  # so that the second run below is the forked one
    runs = []
    for forked in (False, True):
        monkeypatch.setattr(parallel, "PARALLEL", forked)
        runs.append(_moves_and_roots(spec, 8))
    assert runs[0] == runs[1]
    if "reuse=2" in spec:
        assert any(it < 120 for _, _, it in runs[0])
    else:
        assert any(sum(v.values()) > it for _, v, it in runs[0])
