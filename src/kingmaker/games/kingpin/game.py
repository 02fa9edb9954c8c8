"""The Kingpin ``Game``: composes ``rules``, ``view`` and ``bot`` and registers the game.

The rules are functions of the game and a state in ``rules.py``; this class binds
them as its methods and declares the options. The base class delegates ``view``,
``sample_hidden`` (nothing is hidden: the state itself), ``observe_action``,
``observation_tensor``, ``information_state_string``, ``heuristic_action`` and
``evaluate`` (``bot.evaluate_state``) to the ``view`` and ``bot`` modules.

The engine is data-driven: ``Kingpin.custom(tiles=..., board=...)`` plays with
any tiles and board, and ``game.position({...})`` builds a state from a picture.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...core.api import Game, Option
from ...core.errors import InvalidActionError
from ...core.registry import register
from . import bot, rules, view
from .actions import Codec
from .data import ACTION_TRACK, BOARDS, LONG_NIGHT_DAWN, MAFIA_KEYS, TILES, Board, Tables, Tile
from .state import DRAW, START, State

_PAIRS = tuple(f"{a}-{b}" for a in MAFIA_KEYS for b in MAFIA_KEYS if a != b)


class _SeatOption(Option):
    """An option whose values are "random", "0" or "1"; the ints 0 and 1 are accepted too."""

    __slots__ = ()

    def coerce(self, value: Any) -> Any:
        if type(value) is int and str(value) in self.allowed:
            value = str(value)
        return Option.coerce(self, value)


@register
class Kingpin(Game):
    """Kingpin: two mafias shoot it out on a 4x5 grid of gangster tiles."""

    id = "kingpin"
    name = "Kingpin"
    min_players = 2
    max_players = 2
    has_chance = True
    # Nothing is hidden: both players see every tile; the face-down tiles are a
    # known set whose order is not stored (ruling KP-R2).
    perfect_information = True
    zero_sum = False
    constant_sum = 1.0
    min_return = 0.0
    max_return = 1.0
    rulebook = "kingpin.txt"
    summary = "Two mafias fight tile by tile on a 4x5 grid: shootouts, raids, snipers, no draws."
    options = (
        Option("board", "A", ("A", "B"), "which side of the double-sided board (both designed)"),
        _SeatOption(
            "first_player",
            "random",
            ("random", "0", "1"),
            "random: a chance node chooses who starts (rulebook set-up, ruling KP-R1); "
            "0 or 1: that seat starts (tests, tournaments)",
        ),
        Option(
            "mafias",
            "choose",
            ("choose", *_PAIRS),
            "choose: the starting player picks a mafia, then the opponent (rulebook set-up); "
            "or fix them, player 0's first, e.g. russian-italian",
        ),
        Option("goodfellas", False, (False, True), "optional rule: every tile face up from the start"),
        Option(
            "long_night",
            False,
            (False, True),
            "optional rule A Very Long Night: no action track, but the night ends at dawn after "
            f"{LONG_NIGHT_DAWN} movement actions each (attacks are free): when a player takes their "
            f"{LONG_NIGHT_DAWN}th without a win, the player with more gangsters alive wins, then the one "
            "with more tiles on No Man's Land, then the one who did not take that last action (ruling KP-R9)",
        ),
    )
    State = State
    figure_names = view.FIGURES
    conformance_games = 200
    conformance_hidden_every = 1
    # The heuristic costs 1-2 ms a decision, so a rollout to the end is dear: the
    # search plays two heuristic moves past a new node and then judges the position
    # with the bot's evaluation (bot.win_chance); see docs/agents.md.
    # ``hard``: no bigger tree beat normal (nine settings, the best even over 200 games),
    # because a tree judges a move by the mean of the replies it tried. The max-min search
    # (agents/maxmin.py) judges every move by the worst, for the seat, of the rival's 8
    # best-rated replies (and the heuristic's), each answered by one heuristic move and the
    # evaluation (docs/agents.md, Issue 16 §2).
    search_hints = {"depth": 2, "prior": "heuristic", "hard": {"replies": 8, "shortlist": None}}
    views = view
    bot = bot

    def __init__(self, players: int, **options: Any) -> None:
        # The tables come first: the base class declares the info (action space, tensor
        # shape, length) from them.
        values = {o.name: o.default for o in self.options} | options
        self.goodfellas = bool(values["goodfellas"])
        self.long_night = bool(values["long_night"])
        self._build(TILES, BOARDS[values["board"]])
        super().__init__(players, **options)

    @classmethod
    def custom(
        cls,
        tiles: list[Tile] | tuple[Tile, ...] | None = None,
        board: str | Board = "A",
        **options: Any,
    ) -> Kingpin:
        """Returns a game played with any tiles and board (tests, designers' what-ifs)."""
        b = BOARDS[board] if isinstance(board, str) else board
        game = cls(2, board=b.name if b.name in BOARDS else "A", **options)
        game._build(tuple(tiles) if tiles is not None else TILES, b)
        game.info = dataclasses.replace(
            game.info,
            max_game_length=game.max_game_length(),
            num_distinct_actions=game.num_distinct_actions(),
            max_chance_outcomes=game.max_chance_outcomes(),
            observation_shape=game.observation_shape(),
        )
        return game

    def _build(self, tiles: tuple[Tile, ...], board: Board) -> None:
        self.t = Tables(tiles, board)
        self.codec = Codec(self.t)
        self.board = board
        self.track_start = LONG_NIGHT_DAWN if self.long_night else ACTION_TRACK
        self._owner_cache: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._obs_cache: dict = {}

    def max_game_length(self) -> int:
        # One chance node chooses who starts; two mafia choices; at most one draw per
        # tile in the decks; every movement action spends one of the 2 * track actions
        # (with long_night, dawn comes after 2 * 100); every attack liquidates at least
        # one enemy tile, so there are at most as many attacks as tiles in play.
        t = getattr(self, "t", None)
        per = max((len(x) for x in t.BY_MAFIA), default=8) if t else 8
        track = LONG_NIGHT_DAWN if self.option_values.get("long_night") else ACTION_TRACK
        return 3 + 2 * per + 2 * per + 2 * track

    # ---- the research surface ------------------------------------------------------
    def num_distinct_actions(self) -> int:
        """Every player action of this board and tile set (see actions.py): with the
        designed tiles and either 4x5 board side, 2,923 (most are never legal together)."""
        return self.codec.N

    def max_chance_outcomes(self) -> int:
        """Chance outcomes: the starting seat (0, 1) or the tile drawn (its id)."""
        return max(2, self.t.n_tiles)

    def observation_shape(self) -> tuple[int, ...]:
        return (view.tensor_size(self.t),)

    # The rules, bound as methods (each takes the game first).
    new_initial_state = rules.new_initial_state
    _deal = rules._deal
    position = rules.position
    current_player = rules.current_player
    chance_outcomes = rules.chance_outcomes
    owners = rules.owners
    legal_actions = rules.legal_actions
    _play_actions = rules._play_actions
    exchanges = rules.exchanges
    support = rules.support
    sniper_fire = rules.sniper_fire
    fire_detail = rules.fire_detail
    resolve = rules.resolve
    apply = rules.apply
    _next_turn = rules._next_turn
    _can_act = rules._can_act
    alive = rules.alive
    nml_counts = rules.nml_counts
    _winner = rules._winner
    _dawn_winner = rules._dawn_winner
    returns = rules.returns
    action_to_str = rules.action_to_str
    validate_state = rules.validate_state
    square = rules.square
    at = rules.at
    explain_illegal = view.explain_illegal
    outcome = view.outcome
    figures = view.figures

    def parse_action(self, s: State, text: str, player: int | None = None) -> int:
        # Chance outcomes (a seat, a tile) share ints with player actions, so "draw X" is
        # read only at a draw, and moves only at decisions; "player 1 starts" by the base.
        phase = s.phase
        action = self.codec.parse(text) if phase != START else None
        draw = text.strip().lower().startswith("draw")
        if action is not None and draw and phase != DRAW:
            raise InvalidActionError(f"{text!r}: tiles are drawn by chance, not chosen; "
                                     f"{self._accepted_text(s, player)}", text=text)
        if action is None or (phase == DRAW) != draw:
            return super().parse_action(s, text, player)
        return action
