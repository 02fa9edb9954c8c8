"""Every Kingmaker game as an OpenSpiel (pyspiel) Python game.

    import pyspiel
    from kingmaker.rl import openspiel

    openspiel.register()                         # once per process; returns the short names
    game = pyspiel.load_game("kingmaker_kings_kilt", {"players": 3})
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)

Short names are ``kingmaker_`` + the game id with ``_`` for ``-``
(``kingmaker_san_quentin_kings``...). Parameters: ``players`` (default the
game's minimum) and every option of the game, with its default
(``pyspiel.load_game("kingmaker_kings_kilt(players=2,family_deal=one-per-clan)")``).

What maps to what:

- game type: sequential, or simultaneous for games with simultaneous nodes;
  explicit stochastic chance when the game has chance; perfect or imperfect
  information; zero-sum, constant-sum, identical (co-operative) or
  general-sum utility; terminal rewards.
- actions: the game's ``0..num_distinct_actions-1``; chance outcomes the
  game's own, with their probabilities. A game with simultaneous nodes has one
  more action, ``num_distinct_actions`` (``game.wait``, notation ``wait``): at a simultaneous node,
  OpenSpiel asks every seat for an action, and a seat with nothing to commit
  (already committed, or not involved) has ``wait`` as its only legal action.
- observations: the observer's tensor is the game's ``observation_tensor``
  (seat-relative, a function of the seat's view); its string is the game's
  ``information_state_string``, for both the information-state and the
  observation kinds. The view keeps every public fact that still constrains
  hidden parts (docs/contract.md, "perfect recall of what matters"), so the
  string identifies what a search needs; it is not the full action history.
- ``state.resample_from_infostate(player, sampler)`` returns a state drawn
  with ``game.sample_hidden``, seeded from ``sampler``: OpenSpiel's
  ``ISMCTSBot`` determinises through it.

OpenSpiel's own algorithms then run unchanged: ``pyspiel.random_sim_test``,
``MCTSBot`` (sequential games; for simultaneous ones wrap the game with
``pyspiel.convert_to_turn_based``), ``ISMCTSBot`` (sequential, imperfect
information) and ``evaluate_bots``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ..core.api import CHANCE, SIMULTANEOUS, TERMINAL, Game
from ..core.registry import available_games, game_class, make
from ._common import check_declared, render_text

__all__ = ["KingmakerGame", "KingmakerObserver", "KingmakerState", "register", "short_name", "to_kingmaker"]

WAIT_NAME = "wait"  # notation of the extra action (``KingmakerGame.wait``) of simultaneous games
_REGISTERED: dict[str, str] = {}


def short_name(game_id: str) -> str:
    """Returns the pyspiel short name of a Kingmaker game id: ``kingmaker_kings_kilt``."""
    return "kingmaker_" + game_id.replace("-", "_")


def register(games: list[str] | None = None) -> list[str]:
    """Registers the games (all by default) with pyspiel; returns their short names.

    Registering twice is harmless. A game that does not declare its action
    space and observation shape yet is skipped.
    """
    names = []
    for gid in games or available_games():
        if gid in _REGISTERED:
            names.append(_REGISTERED[gid])
            continue
        cls = game_class(gid)
        try:
            check_declared(make(gid))
        except Exception:  # noqa: BLE001 - a game whose research surface is not declared yet
            continue
        game_type = _game_type(cls)
        pyspiel.register_game(game_type, _game_factory(gid, game_type))
        _REGISTERED[gid] = game_type.short_name
        names.append(game_type.short_name)
    return names


def _utility(cls: type[Game]) -> tuple[Any, float | None]:
    """Returns the pyspiel utility kind of a game and its utility sum, over every player count."""
    T = pyspiel.GameType
    infos = [make(cls.id, players=n).info for n in range(cls.min_players, cls.max_players + 1)]
    if all(i.cooperative for i in infos):
        return T.Utility.IDENTICAL, None
    if all(i.zero_sum for i in infos):
        return T.Utility.ZERO_SUM, 0.0
    sums = {i.constant_sum for i in infos}
    if len(sums) == 1 and None not in sums:
        return T.Utility.CONSTANT_SUM, float(sums.pop())
    return T.Utility.GENERAL_SUM, None


def _game_type(cls: type[Game]) -> pyspiel.GameType:
    T = pyspiel.GameType
    utility, _ = _utility(cls)
    params: dict[str, Any] = {"players": cls.min_players}
    for o in cls.options:
        params[o.name] = o.default
    return T(
        short_name=short_name(cls.id),
        long_name=f"Kingmaker {cls.name}",
        dynamics=T.Dynamics.SIMULTANEOUS if cls.has_simultaneous else T.Dynamics.SEQUENTIAL,
        chance_mode=T.ChanceMode.EXPLICIT_STOCHASTIC if cls.has_chance else T.ChanceMode.DETERMINISTIC,
        information=T.Information.PERFECT_INFORMATION if cls.perfect_information else T.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
        default_loadable=True,
        provides_factored_observation_string=False,
    )


def _game_factory(gid: str, game_type: pyspiel.GameType) -> type:
    class _Game(KingmakerGame):
        def __init__(self, params: dict | None = None) -> None:
            super().__init__(gid, game_type, params)

    _Game.__name__ = _Game.__qualname__ = f"KingmakerGame_{gid.replace('-', '_')}"
    return _Game


class KingmakerGame(pyspiel.Game):
    """A pyspiel game around ``kingmaker.make(game_id, players, **options)``."""

    def __init__(self, game_id: str, game_type: pyspiel.GameType, params: dict | None = None) -> None:
        params = dict(params or {})
        players = int(params.pop("players", game_class(game_id).min_players))
        self.km: Game = make(game_id, players=players, **params)
        check_declared(self.km)
        info = self.km.info
        n = info.num_players
        self.simultaneous = info.has_simultaneous
        self.num_actions = info.num_distinct_actions + (1 if self.simultaneous else 0)
        self.wait = info.num_distinct_actions if self.simultaneous else None
        # OpenSpiel's history holds one entry per seat at a simultaneous node (waits too).
        length = info.max_game_length * (n if self.simultaneous else 1)
        _, utility_sum = _utility(type(self.km))
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.num_actions,
            max_chance_outcomes=info.max_chance_outcomes,
            num_players=n,
            min_utility=float(info.min_return),
            max_utility=float(info.max_return),
            utility_sum=utility_sum,
            max_game_length=length,
        )
        super().__init__(game_type, game_info, {"players": players, **self.km.option_values})

    def new_initial_state(self) -> KingmakerState:
        return KingmakerState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict | None = None) -> KingmakerObserver:
        return KingmakerObserver(self.km, params)


class _Held:
    """The kingmaker state inside a pyspiel state; cloning shares the immutable value."""

    __slots__ = ("s",)

    def __init__(self, s: Any) -> None:
        self.s = s

    def __deepcopy__(self, memo: dict) -> _Held:
        return _Held(self.s)


class KingmakerState(pyspiel.State):
    """A pyspiel state holding an immutable Kingmaker state (``to_kingmaker`` reads it)."""

    def __init__(self, game: KingmakerGame, s: Any = None) -> None:
        super().__init__(game)
        self._km = _Ref(game.km, game.wait)
        self._held = _Held(game.km.new_initial_state() if s is None else s)

    # ---- reading -----------------------------------------------------------------
    def current_player(self) -> int:
        cp = self._km.game.current_player(self._held.s)
        if cp == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        if cp == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if cp == SIMULTANEOUS:
            return pyspiel.PlayerId.SIMULTANEOUS
        return cp

    def _legal_actions(self, player: int) -> list[int]:
        km = self._km.game
        s = self._held.s
        cp = km.current_player(s)
        if cp == SIMULTANEOUS:
            if player in km.acting_players(s):
                return km.legal_actions(s, player)
            return [self._km.wait]
        if cp == player:
            return km.legal_actions(s, player)
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self._km.game.chance_outcomes(self._held.s))

    def is_terminal(self) -> bool:
        return self._km.game.is_terminal(self._held.s)

    def returns(self) -> list[float]:
        km = self._km.game
        s = self._held.s
        if not km.is_terminal(s):
            return [0.0] * km.num_players
        return [float(x) for x in km.returns(s)]

    def _action_to_string(self, player: int, action: int) -> str:
        if self._km.wait is not None and action == self._km.wait:
            return WAIT_NAME
        try:
            return self._km.game.action_to_str(self._held.s, action)
        except Exception:  # noqa: BLE001 - an action not legal here may have no notation
            return f"#{action}"

    def __str__(self) -> str:
        return render_text(self._km.game, self._held.s, None)

    # ---- moving ------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        km = self._km.game
        s = self._held.s
        cp = km.current_player(s)
        self._held = _Held(km.apply(s, int(action), None if cp == CHANCE else cp))

    def _apply_actions(self, actions: list[int]) -> None:
        km = self._km.game
        s = self._held.s
        wait = self._km.wait
        acting = km.acting_players(s)
        for p, a in enumerate(actions):
            a = int(a)
            if p in acting:
                if a == wait:
                    raise pyspiel.SpielError(f"player {p} must commit a choice here, not {WAIT_NAME}")
                s = km.apply(s, a, p)
            elif a != wait:
                raise pyspiel.SpielError(f"player {p} has nothing to choose here; its only action is {WAIT_NAME}")
        self._held = _Held(s)

    # ---- resampling (ISMCTS) -------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KingmakerState:
        """Returns a state drawn with ``sample_hidden`` from ``player_id``'s view.

        The seed of the draw comes from ``probability_sampler`` (a callable
        returning uniform floats in [0, 1), e.g. ``pyspiel.UniformProbabilitySampler``).
        """
        seed = int(probability_sampler() * 2**53)
        km = self._km.game
        s = km.sample_hidden(self._held.s, player_id, random.Random(seed))
        return KingmakerState(self.get_game(), s)


class _Ref:
    """The rules and the WAIT id, shared (never copied) between clones."""

    __slots__ = ("game", "wait")

    def __init__(self, game: Game, wait: int | None) -> None:
        self.game = game
        self.wait = wait

    def __deepcopy__(self, memo: dict) -> _Ref:
        return self


def to_kingmaker(state: pyspiel.State) -> Any:
    """Returns the Kingmaker state inside a pyspiel state of this adapter."""
    return state._held.s


class KingmakerObserver:
    """The observer: ``tensor`` is the game's observation tensor, the string its information state."""

    def __init__(self, km: Game, params: dict | None = None) -> None:
        if params:
            raise ValueError(f"observer params not supported: {params}")
        self.km = km
        size = int(np.prod(km.info.observation_shape))
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor.reshape(tuple(km.info.observation_shape))}

    def set_from(self, state: KingmakerState, player: int) -> None:
        self.tensor[:] = self.km.observation_tensor(state._held.s, player)

    def string_from(self, state: KingmakerState, player: int) -> str:
        return self.km.information_state_string(state._held.s, player)
