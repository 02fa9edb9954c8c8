"""The riot and end-game scoring (rulebook: Riot, End Game Scoring, Riot Example)."""

from __future__ import annotations

from dataclasses import replace

from sqk_helpers import (
    COBRA,
    SCORPION,
    TARANTULA,
    game,
    get_goods,
    get_pieces,
    goods,
    pieces,
    start,
)

from kingmaker.core.api import TERMINAL
from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings.data import RIOT
from kingmaker.games.san_quentin_kings.scoring import crew_king, drug_king, fight_king, most_of
from kingmaker.games.san_quentin_kings.state import P_END, P_TURN


def _before_riot(g, s):
    """The last action of year 3 is about to be played (the Gym), everything else used."""
    return replace(s, year=3, used=0b1101111)


def _to_riot(g, s):
    s = g.play(s, "choose gym")
    while s.phase != P_TURN:
        s = g.play(s, "gym T0 S0 C0")
    return s


def test_riot_every_piece_fights_and_the_fewest_fight_points_initiates_sqk_17() -> None:
    """Riot: 'Players gather all of their pieces from the yard and solitary and immediately set them all
    up in their fight area ... The player with the least amount of fight points is given the initiator
    disc. Fight rounds begin with the player to the left of the initiating player.'"""
    g = game(4)
    s = _before_riot(g, start(g, initiator=0))
    s = pieces(s, 1, cell=[1, 3, 3], yard=[2, 0, 0], sol=[0, 0, 0])
    s = pieces(s, 2, cell=[3, 3, 2], sol=[0, 0, 1])
    for p, fp in enumerate((3, 1, 1, 4)):
        s = goods(s, p, fp=fp)
    # The Gym is the last action: every player skips it except player 0 trains nothing either.
    s = g.play(s, "choose gym")
    for _ in range(4):
        s = g.play(s, "gym T0 S0 C0")
    assert s.block == RIOT and s.year == 4
    # Players 1 and 2 tie with 1 fight point: the first clockwise from the disc (player 1) initiates.
    assert s.initiator == 1 and g.current_player(s) == 2
    assert get_pieces(s, 1, "fight") == [3, 3, 3] and get_pieces(s, 2, "fight") == [3, 3, 3]
    assert s.inflight == 0b1111


def test_riot_single_winner_earns_two_fight_points_no_second_place() -> None:
    """Riot: 'The 1st strongest gang earns 2 fight points. No other gang receives any points. There is
    no second place in a riot. The game play is complete.' Riot Example: 'Players set up ALL of their
    pieces ... After 3 rounds of fighting, or all have passed, the strongest gang earns two Fight
    Points.'"""
    g = game(3)
    s = _before_riot(g, start(g, initiator=0))
    s = pieces(s, 0, cell=[4, 3, 3], court=[3, 4, 4])
    s = _to_riot(g, s)
    while g.current_player(s) >= 0:
        s = g.play(s, "pass")
    assert g.current_player(s) == TERMINAL and s.phase == P_END
    assert [get_goods(s, p, "fp") for p in range(3)] == [2, 0, 0]
    assert [get_goods(s, p, "comm") for p in range(3)] == [2, 2, 2]


def test_riot_players_may_pass_and_solitary_bonus_not_after_riot() -> None:
    """Riot: 'Players may pass during the fight.' Solitary Block: the bonus 'does not apply after the
    riot'; End Game Scoring: 'players collect all of their gang pieces from solitary'."""
    g = game(3)
    s = _before_riot(g, start(g, initiator=0))
    s = _to_riot(g, s)
    s = goods(s, 0, chips=0)
    s = goods(s, 1, chips=0)
    s = goods(s, 2, chips=0)
    p = g.current_player(s)
    s = g.play(s, "draw")
    s = g.play(s, A.CH_CARD0 + 6)  # a Guard
    s = g.play(s, "solitary cobra")
    while g.current_player(s) >= 0:
        s = g.play(s, "pass")
    assert s.phase == P_END
    assert get_goods(s, p, "respect") == 0
    assert get_pieces(s, p, "cell") == [3, 3, 3] and get_pieces(s, p, "sol") == [0, 0, 0]


def test_fight_king_example_ties_drop_a_level_sqk_16() -> None:
    """Fight King: 'Tex has 7 fight points and earns 14 respect. Ross and Sarah both have 3 fight points
    and earn 7 respect each. They had to drop down a level and do not earn 11 respect. Keith has 4
    fight points and earns the next level down, 4 respect.' Keith's 4 must be a misprint (SQK-16):
    with 2 the example holds."""
    tex, ross, sarah, keith = 7, 3, 3, 2
    assert fight_king([tex, ross, sarah, keith]) == [14, 7, 7, 4]
    assert fight_king([5, 4, 3, 2, 1]) == [14, 11, 7, 4, 1]
    assert fight_king([2, 2, 2, 2, 2]) == [11] * 5
    assert fight_king([3, 3, 1, 1, 0]) == [11, 11, 4, 4, 1]
    assert fight_king([3, 3, 3, 1, 0]) == [11, 11, 11, 7, 4]


def test_drug_king_example_ties_earn_half() -> None:
    """Drug King: 'Ross has the most brown horse drugs. He earns 8 respect. Tex and Sarah have a tie for
    most of the white horse. They both earn 3 respect. Sarah has the most green baboon and earns 4.'"""
    ross, tex, sarah = [0, 0, 2], [1, 2, 0], [3, 2, 1]
    assert drug_king([ross, tex, sarah]) == [8, 3, 3 + 4]


def test_crew_king_example_ties_earn_two_sqk_19() -> None:
    """Crew King: 'Sarah has the most Cobra members and earns 5 respect. Keith and Tex have the most
    Scorpion members and earn 2 respect each. Ross has the most Tarantula members and earns 5 respect.'"""
    sarah, keith, tex, ross = [6, 2, 2], [3, 5, 2], [3, 5, 1], [2, 3, 7]
    assert crew_king([sarah, keith, tex, ross]) == [5, 2, 2, 5]


def test_extra_respect_most_commissary_and_shanks_nothing_on_ties() -> None:
    """Extra Respect: 'The player with the most commissary earns 3 respect. 3 Respect is also given to
    the player with the most shank cards. If tied, players receive nothing.'"""
    assert most_of([4, 2, 1], 3) == [3, 0, 0]
    assert most_of([4, 4, 1], 3) == [0, 0, 0]


def test_extra_respect_two_per_bribe_chip_and_full_breakdown() -> None:
    """Extra Respect: 'For every remaining Bribe Chip a player owns, he earns 2 respect.'"""
    g = game(3)
    s = start(g, initiator=0, shanks=[COBRA, SCORPION, TARANTULA])
    s = goods(s, 0, chips=3, comm=5, respect=6, fp=4, drugs=[0, 0, 1])
    s = goods(s, 1, chips=0, fp=1)
    s = goods(s, 2, chips=1, shanks=[0, 0, 3], fp=1)
    s = pieces(s, 0, cell=[5, 3, 3], court=[2, 4, 4])
    s = replace(s, phase=P_END, year=4)
    sc = g.score_breakdown(s)
    assert sc[0] == {
        "track": 6, "fight_king": 14, "drug_king": 8, "crew_king": 5 + 2 + 2, "most_commissary": 3,
        "most_shanks": 0, "bribe_chips": 6, "total": 46,
    }
    assert sc[1]["fight_king"] == 7 and sc[2]["fight_king"] == 7
    assert sc[2]["most_shanks"] == 3 and sc[2]["bribe_chips"] == 2
    # Scorpions 3/3/3 and Tarantulas 3/3/3 are three-way ties: 2 each.
    assert sc[1]["crew_king"] == 4
    assert g.returns(s) == (1.0, 0.0, 0.0)


def test_winner_most_respect_ties_broken_by_fight_points_then_shared_sqk_20() -> None:
    """End Game Scoring: the winner has the most respect; ruling SQK-20 breaks ties by fight points and
    lets players still tied share the win."""
    g = game(3)
    s = replace(start(g, initiator=0), phase=P_END, year=4)
    # Everything is equal: a three-way share.
    assert g.returns(s) == (1 / 3, 1 / 3, 1 / 3)
    s = goods(s, 1, respect=2)
    s = goods(s, 2, respect=2)
    assert g.winners(s) == (1, 2)
    t = goods(s, 2, respect=2, fp=0)
    assert g.returns(t) == (0.0, 0.5, 0.5)
    assert get_goods(t, 2, "respect") == 2 and TARANTULA == 2


def test_riot_tie_breaker_is_the_designed_cobra_scorpion_tarantula_sqk_3() -> None:
    """Riot: 'The tie breaker for the riot is next to the year display' (not printed; SQK-3 designs
    Cobra > Scorpion > Tarantula): equal strengths go to the Cobras."""
    g = game(3)
    s = _before_riot(g, start(g, initiator=0))
    s = pieces(s, 0, cell=[1, 4, 3], court=[6, 3, 4])
    s = pieces(s, 1, cell=[0, 0, 4], court=[7, 7, 3])
    s = pieces(s, 2, cell=[4, 1, 1], court=[3, 6, 6])
    s = _to_riot(g, s)
    assert s.initiator == 1  # initiating order alone would favour player 1
    while g.current_player(s) >= 0:
        s = g.play(s, "pass")
    assert [get_goods(s, p, "fp") for p in range(3)] == [0, 0, 2]
