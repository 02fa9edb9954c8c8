"""The public surface: names in __all__, the contract's names, the error tree and its codes."""

from __future__ import annotations

import kingmaker
import kingmaker.core
from kingmaker.core import errors

# Changing this set is a decision: update it only together with CONTRACT.md / the docs.
PUBLIC = {
    "CHANCE", "SIMULTANEOUS", "TERMINAL", "ActionError", "BadRequestError", "NotFoundError",
    "SeatForbiddenError", "Agent", "ConflictError", "Game",
    "GameError", "GameInfo", "GameOverError", "IllegalActionError", "InvalidActionError",
    "InvalidOptionError", "InvalidPlayersError", "InvalidStateError", "LogEntry", "Match",
    "NotYourTurnError", "Observation", "Option", "Record", "RecordError", "UnknownGameError",
    "__version__", "available_games", "error_codes", "frozen_state", "game_class", "make", "node_name",
    "register", "sample_chance",
}

CODES = {
    "game/error": "GameError",
    "game/unknown": "UnknownGameError",
    "game/invalid_players": "InvalidPlayersError",
    "game/invalid_option": "InvalidOptionError",
    "state/invalid": "InvalidStateError",
    "record/invalid": "RecordError",
    "match/conflict": "ConflictError",
    "match/not_found": "NotFoundError",
    "seat/forbidden": "SeatForbiddenError",
    "request/invalid": "BadRequestError",
    "server/busy": "ServerBusyError",
    "action/error": "ActionError",
    "action/invalid": "InvalidActionError",
    "action/illegal": "IllegalActionError",
    "action/not_your_turn": "NotYourTurnError",
    "action/game_over": "GameOverError",
}


def test_public_names_do_not_appear_or_disappear_by_accident():
    assert set(kingmaker.__all__) == PUBLIC
    for name in kingmaker.__all__:
        assert hasattr(kingmaker, name), name
    public_module_names = {n for n in dir(kingmaker) if not n.startswith("_")} - {
        "core", "games", "agents", "conformance", "bench", "cli", "web", "rulebooks", "lab", "rl",
    }
    assert public_module_names == PUBLIC - {"__version__"}


def test_core_reexports_the_same_objects():
    for name in kingmaker.core.__all__:
        assert getattr(kingmaker, name) is getattr(kingmaker.core, name)


def test_contract_constants():
    """CONTRACT.md: CHANCE, SIMULTANEOUS, TERMINAL are negative ints -1, -2, -4."""
    assert (kingmaker.CHANCE, kingmaker.SIMULTANEOUS, kingmaker.TERMINAL) == (-1, -2, -4)


def test_contract_game_methods_exist():
    g = kingmaker.make("kings-kilt", players=2)
    for name in ("new_initial_state", "info", "current_player", "acting_players", "legal_actions",
                 "chance_outcomes", "apply", "play", "is_terminal", "returns", "view", "sample_hidden",
                 "action_to_str", "parse_action", "to_json", "from_json"):
        assert hasattr(g, name), name


def test_error_tree_and_stable_codes():
    import kingmaker.web.hub  # noqa: F401  (the web adds no codes of its own)

    assert {code: cls.__name__ for code, cls in errors.error_codes().items()} == CODES
    assert issubclass(kingmaker.IllegalActionError, ValueError)
    assert issubclass(kingmaker.InvalidActionError, ValueError)
    assert issubclass(kingmaker.NotYourTurnError, kingmaker.IllegalActionError)
    assert issubclass(kingmaker.GameOverError, kingmaker.IllegalActionError)
    for cls in errors.error_codes().values():
        assert issubclass(cls, kingmaker.GameError)


def test_error_to_dict_is_json_for_the_web():
    e = kingmaker.IllegalActionError("player 1 cannot play 'x'", text="x", player=1)
    assert e.to_dict() == {"code": "action/illegal", "message": "player 1 cannot play 'x'",
                           "details": {"text": "x", "player": 1}}


def test_game_info_declares_the_game():
    g = kingmaker.make("kings-kilt", players=3)
    info = g.info
    assert (info.id, info.name, info.min_players, info.max_players) == ("kings-kilt", "King's Kilt", 2, 4)
    assert info.num_players == 3 and info.has_chance and not info.perfect_information
    assert not info.cooperative and info.constant_sum == 1.0
    assert info.min_return == 0.0 and info.max_return == 1.0 and info.max_game_length > 100
    d = info.to_dict()
    assert d["options"][0]["name"] == "family_deal" and d["options"][0]["default"] == "rulebook"
