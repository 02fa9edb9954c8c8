"""PettingZoo environments for every Kingmaker game: AEC and Parallel.

    from kingmaker.rl.pettingzoo import env, parallel_env

    e = env("kings-kilt", players=3, family_deal="one-per-clan", seed=None)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        e.step(int(legal[0]))

Agents are ``player_0`` .. ``player_{n-1}`` (the game's seats). Each observation
is ``{"observation": float32 tensor of game.info.observation_shape,
"action_mask": int8 array of num_distinct_actions}``: the game's
``observation_tensor`` (seat-relative, a function of the seat's view) and its
legal moves. An agent that may not act now has an all-zero mask.

Chance nodes never reach the caller: the env samples them with its own
``random.Random`` seeded by ``reset(seed=...)`` (a later ``reset()`` without
a seed continues that stream, so episodes differ but replay exactly).
Simultaneous nodes (San Quentin Kings' fists) are played one acting seat after
the other in the AEC env: a seat's observation never shows the others'
commitments, so the order reveals nothing. ``parallel_env`` lets every acting
seat choose in one ``step``; at an ordinary turn only the one seat acts and
the actions of the others are ignored.

Rewards are 0 until the end, then the game's returns (``zero_sum=True``
centres them on their mean). An illegal action ends the game with
``illegal_penalty`` (default -1.0) for the offender and 0 for the others, the
offender's info saying ``illegal_action: True`` (``illegal="penalty"``, the
default, as PettingZoo's classic games do), or raises
``kingmaker.IllegalActionError`` with the env unchanged (``illegal="error"``).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from ..core.api import CHANCE, TERMINAL, Game
from ..core.errors import GameError, IllegalActionError, InvalidActionError
from ..core.match import sample_chance
from ._common import (
    ILLEGAL_MODES,
    Encoder,
    agent_name,
    build_game,
    render_text,
    resolve_chance,
    shaped_returns,
)
from ._spaces import observation_space

__all__ = ["KingmakerAECEnv", "KingmakerParallelEnv", "env", "parallel_env", "raw_env"]


class _Base:
    """What both env kinds share: the game, spaces, seeding, observations."""

    def _setup(
        self,
        game: str | Game,
        players: int | None,
        options: dict[str, Any],
        render_mode: str | None,
        zero_sum: bool,
        illegal: str,
        illegal_penalty: float,
    ) -> None:
        if illegal not in ILLEGAL_MODES:
            raise GameError(f"illegal={illegal!r}: use one of {', '.join(ILLEGAL_MODES)}", allowed=list(ILLEGAL_MODES))
        if render_mode not in (None, "ansi", "human"):
            raise GameError(f"render_mode={render_mode!r}: use None, 'ansi' or 'human'")
        self.game = build_game(game, players, options)
        self.enc = Encoder(self.game)
        info = self.game.info
        n = self.game.num_players
        self.render_mode = render_mode
        self.zero_sum = zero_sum
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.possible_agents = [agent_name(p) for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(self.game) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(info.num_distinct_actions) for a in self.possible_agents}
        self.metadata = {
            "render_modes": ["ansi", "human"],
            "name": f"kingmaker_{info.id.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        self._rng: random.Random | None = None
        self.state: Any = None
        # One observation per (state, agent), shared by last(), observe() and the legality
        # check of step(): {agent: (observation dict, mask bytes)}.
        self._cached: Any = None
        self._cache: dict[str, tuple[dict[str, np.ndarray], bytearray]] = {}
        # The seats that may act in _acting_for (set when the AEC env selects an agent).
        self._acting_for: Any = None
        self._acting_now: tuple[int, ...] = ()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def _reseed(self, seed: int | None) -> None:
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(None if seed is None else seed + i)

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        # States are immutable, so one observation per (state, seat) is built once; the
        # cache holds the state itself, so its id cannot be reused while cached.
        s = self.state
        if self._cached is not s:
            self._cached = s
            self._cache = {}
        else:
            hit = self._cache.get(agent)
            if hit is not None:
                return hit[0]
        p = self._seat[agent]
        if self._acting_for is not s:
            self._acting_for = s
            self._acting_now = self.game.acting_players(s)
        enc = self.enc
        b = enc.mask_bytes(s, p, p in self._acting_now)
        obs = {"observation": enc.observation(s, p), "action_mask": np.frombuffer(b, dtype=np.int8)}
        self._cache[agent] = (obs, b)
        return obs

    def _legal(self, s: Any, player: int, a: int) -> bool:
        if self._cached is s:
            hit = self._cache.get(self.possible_agents[player])
            if hit is not None:
                return 0 <= a < len(hit[1]) and hit[1][a] == 1
        return a in self.enc.legal(s, player)

    def _check(self, s: Any, action: Any, player: int) -> int | None:
        """Returns the action as an int when legal for ``player``; None when illegal in penalty mode."""
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise InvalidActionError(f"an action is an int, not {action!r}", text=repr(action)[:40]) from None
        if self._legal(s, player, a):
            return a
        if self.illegal == "penalty":
            return None
        try:
            text = self.game.action_to_str(s, a)
        except Exception:  # noqa: BLE001 - a made-up int may have no notation
            text = f"#{a}"
        raise IllegalActionError(
            f"player {player} cannot play {text!r} (action {a}) now; legal: {self.enc.legal(s, player)[:20]}",
            text=text,
            player=player,
        )

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = render_text(self.game, self.state, None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class KingmakerAECEnv(_Base, AECEnv):
    """The AEC (turn by turn) PettingZoo environment of one game, player count and options.

    Args:
        game: a game id (or a game object from ``kingmaker.make``).
        players: seats (default: the game's minimum).
        render_mode: None, ``"ansi"`` (``render()`` returns the spectator's picture)
            or ``"human"`` (prints it).
        zero_sum: centre the final rewards on their mean.
        illegal: ``"penalty"`` ends the game with ``illegal_penalty`` for the
            offender; ``"error"`` raises IllegalActionError.
        **options: the game's variants, as for ``kingmaker.make``.
    """

    def __init__(
        self,
        game: str | Game = "kings-kilt",
        players: int | None = None,
        render_mode: str | None = None,
        zero_sum: bool = False,
        illegal: str = "penalty",
        illegal_penalty: float = -1.0,
        **options: Any,
    ) -> None:
        AECEnv.__init__(self)
        self._setup(game, players, options, render_mode, zero_sum, illegal, illegal_penalty)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # PettingZoo's, less one call: the hot path of every training loop.
        agent = self.agent_selection
        return (
            self._observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._reseed(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._advance(self.game.new_initial_state())

    def _advance(self, s: Any) -> bool:
        """Resolves chance from ``s``, makes it the state and selects the agent to act.

        Returns True when the game has ended (the rewards are then set).
        """
        game = self.game
        current = game.current_player
        cp = current(s)
        if cp == CHANCE:
            apply, outcomes, rng = game.apply, game.chance_outcomes, self._rng
            while cp == CHANCE:
                s = apply(s, sample_chance(outcomes(s), rng))
                cp = current(s)
        self.state = s
        if cp >= 0:
            acting: tuple[int, ...] = (cp,)
        elif cp == TERMINAL:
            self._finish(shaped_returns(game, s, self.zero_sum))
            return True
        else:
            acting = game.acting_players(s)
        self._acting_for = s
        self._acting_now = acting
        self.agent_selection = self.possible_agents[acting[0]]
        return False

    def _finish(self, rewards: tuple[float, ...]) -> None:
        for a in self.agents:
            self.rewards[a] = rewards[self._seat[a]]
            self.terminations[a] = True
        if getattr(self, "agent_selection", None) not in self.agents:
            self.agent_selection = self.agents[0]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        p = self._seat[agent]
        s = self.state
        hit = self._cache.get(agent) if self._cached is s else None
        if hit is not None and type(action) is int and 0 <= action < len(hit[1]) and hit[1][action]:
            a: int | None = action  # legal: the mask the agent was shown says so
        else:
            a = self._check(s, action, p)
        self._cumulative_rewards[agent] = 0.0
        # Rewards are all 0 until the step that ends the game (a finished game only takes
        # dead steps, which clear them), so only that step clears and accumulates them.
        if a is None:
            self._clear_rewards()
            self.infos[agent] = {"illegal_action": True}
            self._finish(tuple(self.illegal_penalty if q == p else 0.0 for q in range(self.game.num_players)))
            self._accumulate_rewards()
        elif self._advance(self.game.apply(s, a, p)):
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class KingmakerParallelEnv(_Base, ParallelEnv):
    """The Parallel PettingZoo environment: every acting seat chooses in one ``step``.

    At a simultaneous node (San Quentin Kings' fists) all the seats still to
    commit act together; at an ordinary turn only the one seat acts, and the
    actions given for the others are ignored (their masks are all zeros).
    A step needs an action for every acting seat. Arguments as for
    ``KingmakerAECEnv``.
    """

    def __init__(
        self,
        game: str | Game = "san-quentin-kings",
        players: int | None = None,
        render_mode: str | None = None,
        zero_sum: bool = False,
        illegal: str = "penalty",
        illegal_penalty: float = -1.0,
        **options: Any,
    ) -> None:
        self._setup(game, players, options, render_mode, zero_sum, illegal, illegal_penalty)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self._reseed(seed)
        self.agents = list(self.possible_agents)
        self.state = resolve_chance(self.game, self.game.new_initial_state(), self._rng)
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def acting_agents(self) -> list[str]:
        """Returns the agents whose actions the next ``step`` uses."""
        return [agent_name(p) for p in self.game.acting_players(self.state)]

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents:
            raise GameError("the game is over; call reset()")
        game = self.game
        s = self.state
        acting = game.acting_players(s)
        missing = [agent_name(p) for p in acting if agent_name(p) not in actions]
        if missing:
            raise GameError(f"no action for the acting agents {missing}", acting=missing)
        infos: dict[str, dict] = {a: {} for a in self.agents}
        end: tuple[float, ...] | None = None
        for p in acting:
            a = self._check(s, actions[agent_name(p)], p)
            if a is None:
                infos[agent_name(p)] = {"illegal_action": True}
                end = tuple(self.illegal_penalty if q == p else 0.0 for q in range(game.num_players))
                break
            s = game.apply(s, a, p)
        if end is None:
            s = resolve_chance(game, s, self._rng)
            if game.current_player(s) == TERMINAL:
                end = shaped_returns(game, s, self.zero_sum)
        self.state = s
        agents = self.agents
        obs = {a: self._observe(a) for a in agents}
        over = end is not None
        rewards = {a: (end[self._seat[a]] if over else 0.0) for a in agents}
        terms = dict.fromkeys(agents, over)
        truncs = dict.fromkeys(agents, False)
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terms, truncs, infos


def raw_env(game: str | Game = "kings-kilt", players: int | None = None, **kwargs: Any) -> KingmakerAECEnv:
    """Returns the AEC env without PettingZoo's wrappers (see ``KingmakerAECEnv``)."""
    return KingmakerAECEnv(game, players, **kwargs)


def env(game: str | Game = "kings-kilt", players: int | None = None, **kwargs: Any) -> KingmakerAECEnv:
    """Returns the AEC env of ``game`` (see ``KingmakerAECEnv``).

    PettingZoo's wrappers are left out: the env already refuses a step after
    the end (only None is accepted for a finished agent) and handles illegal
    moves itself (``illegal``).
    """
    return raw_env(game, players, **kwargs)


def parallel_env(game: str | Game = "san-quentin-kings", players: int | None = None, **kwargs: Any) -> KingmakerParallelEnv:
    """Returns the Parallel env of ``game`` (see ``KingmakerParallelEnv``)."""
    return KingmakerParallelEnv(game, players, **kwargs)
