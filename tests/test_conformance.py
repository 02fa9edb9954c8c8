"""The conformance suite over every registered game and every allowed player count.

Each game is played for ``conformance_games`` seeded games per player count
(200 unless the game says otherwise), and again with hypothesis choosing the
moves so that a failure shrinks to a short game.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kingmaker
from kingmaker.conformance import HypothesisChooser, check_game, play_checked_game

CASES = [
    (gid, n)
    for gid in kingmaker.available_games()
    for n in range(kingmaker.game_class(gid).min_players, kingmaker.game_class(gid).max_players + 1)
]


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_conformance_seeded_games(game_id: str, players: int) -> None:
    """CONTRACT.md invariants hold over the game's seeded random games."""
    game = kingmaker.make(game_id, players=players)
    cls = type(game)
    reports = check_game(game, range(cls.conformance_games), hidden_every=cls.conformance_hidden_every)
    assert len(reports) == cls.conformance_games
    assert all(r.length <= game.info.max_game_length for r in reports)
    assert any(r.decisions > 0 for r in reports)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data())
def test_conformance_hypothesis_games(game_id: str, players: int, data: st.DataObject) -> None:
    """The same invariants with hypothesis choosing every move (failures shrink)."""
    game = kingmaker.make(game_id, players=players)
    cls = type(game)
    report = play_checked_game(game, HypothesisChooser(data), hidden_every=cls.conformance_hidden_every)
    assert report.length >= 1


def test_every_contract_game_is_registered_when_present() -> None:
    ids = kingmaker.available_games()
    assert ids == sorted(ids)
    assert "kings-kilt" in ids
    known = {"san-quentin-kings", "kingpin", "kingpins", "gangs-of-green-city", "kings-kilt"}
    assert set(ids) <= known
