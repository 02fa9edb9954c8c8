"""The registry: available_games and make, with clear errors for bad requests."""

from __future__ import annotations

import pytest

import kingmaker


def test_available_games_sorted_ids():
    ids = kingmaker.available_games()
    assert ids == sorted(ids) and "kings-kilt" in ids


def test_make_unknown_game_names_the_available_ones():
    with pytest.raises(kingmaker.UnknownGameError, match="available: .*kings-kilt") as e:
        kingmaker.make("chess")
    assert isinstance(e.value, kingmaker.GameError) and e.value.code == "game/unknown"


def test_make_rejects_a_player_count_naming_the_allowed_range():
    with pytest.raises(kingmaker.GameError, match="2 to 4 players, not 5"):
        kingmaker.make("kings-kilt", players=5)
    with pytest.raises(kingmaker.InvalidPlayersError):
        kingmaker.make("kings-kilt", players="three")


def test_make_rejects_unknown_option_naming_the_known_ones():
    with pytest.raises(kingmaker.InvalidOptionError, match="no option 'guards'; its options: family_deal"):
        kingmaker.make("kings-kilt", players=2, guards=8)


def test_make_rejects_a_bad_option_value_naming_the_allowed_values():
    with pytest.raises(kingmaker.InvalidOptionError, match="accepted values: rulebook, one-per-clan"):
        kingmaker.make("kings-kilt", players=2, family_deal="random")


def test_options_from_text_are_coerced():
    opt = kingmaker.Option("flag", True, (True, False))
    assert opt.coerce("false") is False and opt.coerce("YES") is True
    num = kingmaker.Option("guards", 8, (6, 8, 10))
    assert num.coerce("10") == 10
    with pytest.raises(kingmaker.InvalidOptionError):
        num.coerce("7")
    with pytest.raises(kingmaker.InvalidOptionError):
        opt.coerce(1)  # an int is not a bool


def test_make_default_players_and_options():
    g = kingmaker.make("kings-kilt")
    assert g.num_players == 2 and g.option_values == {"family_deal": "rulebook"}
    assert "kings-kilt" in repr(g)


def test_game_ids_are_lenient_about_spelling():
    assert kingmaker.make("Kings_Kilt", players=2).id == "kings-kilt"
