"""A Gymnasium single-agent environment: one seat learns, agents play the others.

    import gymnasium as gym
    from kingmaker.rl.gymnasium import KingmakerEnv

    env = KingmakerEnv("kings-kilt", players=2, seat=0, opponents="random")
    obs, info = env.reset(seed=0)
    while True:
        legal = info["action_mask"].nonzero()[0]
        obs, reward, terminated, truncated, info = env.step(int(legal[0]))
        if terminated or truncated:
            break

The other seats are played by agents built from specs (``random``,
``heuristic``, ``ismcts:normal``, ``policy:<file>``... see
``kingmaker.agents.make_agent``), each given only an ``Observation`` of its
seat, with its own random stream derived from the episode's seed. Chance is
sampled inside with the env's seeded stream.

Observations are a Dict space: ``"observation"`` (float32, the game's
``observation_tensor`` for the learning seat) and ``"action_mask"`` (int8, 1
at the seat's legal actions). ``info["action_mask"]`` holds the same mask
(the convention of sb3-contrib's masked PPO and many others).

The reward is 0 until the end, then the seat's return (``reward="return"``) or
its return minus the mean of all returns (``reward="centred"``).

An illegal action (one whose mask entry is 0) ends the episode with
``illegal_penalty`` (default -1.0) as the reward and ``info["illegal_action"] =
True`` (``illegal="penalty"``, the default: what Gymnasium's ``check_env`` and
unmasked learners expect, as in PettingZoo's classic games), or raises
``kingmaker.IllegalActionError`` and leaves the env as it was
(``illegal="error"``: a bug catcher for masked learners, which never trigger it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from ..core.api import SIMULTANEOUS, TERMINAL, Game
from ..core.errors import GameError, IllegalActionError, InvalidActionError
from ..core.match import Observation
from ._common import ILLEGAL_MODES, Encoder, build_game, render_text, resolve_chance, shaped_returns
from ._spaces import observation_space

__all__ = ["KingmakerEnv", "REWARDS"]

REWARDS = ("return", "centred")


class KingmakerEnv(gym.Env):
    """One seat of a Kingmaker game as a Gymnasium environment.

    Args:
        game: a game id (or a game object from ``kingmaker.make``).
        players: seats (default: the game's minimum).
        seat: the learning seat, or ``"random"`` for a seat drawn at each reset.
        opponents: one agent spec (or agent object) for every other seat, or a
            list of them in seat order (the learning seat skipped).
        reward: ``"return"`` or ``"centred"`` (see the module docstring).
        illegal: ``"penalty"`` (end the episode with ``illegal_penalty``) or ``"error"``.
        render_mode: None, ``"ansi"`` or ``"human"``.
        **options: the game's variants, as for ``kingmaker.make``.
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game: str | Game = "kings-kilt",
        players: int | None = None,
        seat: int | str = 0,
        opponents: str | Any | Sequence[str | Any] = "random",
        reward: str = "return",
        illegal: str = "penalty",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if illegal not in ILLEGAL_MODES:
            raise GameError(f"illegal={illegal!r}: use one of {', '.join(ILLEGAL_MODES)}", allowed=list(ILLEGAL_MODES))
        if reward not in REWARDS:
            raise GameError(f"reward={reward!r}: use one of {', '.join(REWARDS)}", allowed=list(REWARDS))
        if render_mode not in (None, "ansi", "human"):
            raise GameError(f"render_mode={render_mode!r}: use None, 'ansi' or 'human'")
        self.game = build_game(game, players, options)
        n = self.game.num_players
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise GameError(f"seat {seat!r} does not exist; seats are 0 to {n - 1}, or 'random'")
        self.seat_choice = seat
        self.seat = 0 if seat == "random" else int(seat)
        self.enc = Encoder(self.game)
        self.reward_mode = reward
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        specs = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents] * (n - 1)
        if len(specs) != n - 1:
            raise GameError(f"{n} players need {n - 1} opponents, got {len(specs)}")
        self._agents = [self._agent(spec) for spec in specs]
        self.observation_space = observation_space(self.game)
        self.action_space = gym.spaces.Discrete(self.game.info.num_distinct_actions)
        self.state: Any = None
        self._rng = random.Random()
        self._agent_rngs: list[random.Random] = []
        self._seats: list[Any] = []

    def _agent(self, spec: Any) -> Any:
        if isinstance(spec, str):
            from ..agents import make_agent

            return make_agent(spec, self.game)
        if not hasattr(spec, "act"):
            raise GameError(f"an opponent is an agent spec or an object with act(obs), not {spec!r}")
        return spec

    # ---- gymnasium API -------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        n = self.game.num_players
        base = int(self.np_random.integers(2**62))
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(n))
        others = iter(self._agents)
        self._seats = [None if p == self.seat else next(others) for p in range(n)]
        self._rng = random.Random(base)
        self._agent_rngs = [random.Random(f"{base}/agent/{p}") for p in range(n)]
        self.action_space.seed(base % (2**31))
        s = resolve_chance(self.game, self.game.new_initial_state(), self._rng)
        self.state = self._advance(s)
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        s = self.state
        game = self.game
        if s is None or game.current_player(s) == TERMINAL:
            raise GameError("the episode is over; call reset()")
        try:
            a = int(action)
        except (TypeError, ValueError):
            raise InvalidActionError(f"an action is an int, not {action!r}", text=repr(action)[:40]) from None
        legal = self.enc.legal(s, self.seat)
        if a not in legal:
            if self.illegal == "penalty":
                self.state = None
                info = {"action_mask": np.zeros(self.enc.num_actions, dtype=np.int8), "illegal_action": True}
                return self._obs(s), self.illegal_penalty, True, False, info
            try:
                text = game.action_to_str(s, a)
            except Exception:  # noqa: BLE001 - a made-up int may have no notation
                text = f"#{a}"
            raise IllegalActionError(
                f"seat {self.seat} cannot play {text!r} (action {a}) now; legal: {legal[:20]}",
                text=text,
                player=self.seat,
            )
        s = self._advance(game.apply(s, a, self.seat))
        self.state = s
        if game.current_player(s) == TERMINAL:
            r = shaped_returns(game, s, self.reward_mode == "centred")[self.seat]
            if self.render_mode == "human":
                self.render()
            return self._obs(), r, True, False, self._info()
        if self.render_mode == "human":
            self.render()
        return self._obs(), 0.0, False, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = render_text(self.game, self.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """Returns the current mask as booleans (the method sb3-contrib's MaskablePPO calls)."""
        return self.enc.mask(self.state, self.seat).astype(bool)

    def agent_action(self, agent: Any) -> int:
        """Returns what ``agent`` (an object with ``act``) would play for the learning seat now.

        The agent gets an ``Observation`` of the seat, as in a match (e.g. a teacher
        for imitation); the env does not move.
        """
        s = self.state
        rng = self._agent_rngs[self.seat]
        return int(agent.act(_LazyObservation(
            self.game, self.seat, s, self.game.legal_actions(s, self.seat),
            lambda r, s=s, p=self.seat: self.game.sample_hidden(s, p, r), rng,
        )))

    # ---- internals ------------------------------------------------------------------
    def _advance(self, s: Any) -> Any:
        """Returns the next state where the learning seat acts, or a terminal state."""
        game = self.game
        me = self.seat
        rng = self._rng
        while True:
            s = resolve_chance(game, s, rng)
            cp = game.current_player(s)
            if cp == TERMINAL:
                return s
            if cp >= 0:
                if cp == me:
                    return s
                s = game.apply(s, self._opponent_action(s, cp), cp)
                continue
            if cp != SIMULTANEOUS:  # pragma: no cover - the contract has no other node kinds
                raise GameError(f"unexpected node kind {cp}")
            acting = game.acting_players(s)
            others = [p for p in acting if p != me]
            if not others:
                return s
            # The other acting seats commit first; their choices stay out of the seat's view.
            for p in others:
                s = game.apply(s, self._opponent_action(s, p), p)

    def _opponent_action(self, s: Any, p: int) -> int:
        game = self.game
        obs = _LazyObservation(
            game,
            p,
            s,
            game.legal_actions(s, p),
            lambda rng, s=s, p=p: game.sample_hidden(s, p, rng),
            self._agent_rngs[p],
        )
        return self._seats[p].act(obs)

    def _obs(self, s: Any = None) -> dict[str, np.ndarray]:
        s = self.state if s is None else s
        return {"observation": self.enc.observation(s, self.seat), "action_mask": self.enc.mask(s, self.seat)}

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.enc.mask(self.state, self.seat), "seat": self.seat}


class _LazyObservation(Observation):
    """An ``Observation`` whose view is built on first use (a random agent never reads it)."""

    __slots__ = ("_state",)

    def __init__(self, game: Game, player: int, s: Any, legal: list[int], sampler: Any, rng: random.Random) -> None:
        Observation.__init__(self, game, player, None, legal, sampler, rng)  # type: ignore[arg-type]
        self._state = s

    @property
    def view(self) -> dict:  # type: ignore[override]
        v = _VIEW_SLOT.__get__(self)
        if v is None:
            v = self.game.view(self._state, self.player)
            _VIEW_SLOT.__set__(self, v)
        return v

    @view.setter
    def view(self, value: dict) -> None:
        _VIEW_SLOT.__set__(self, value)


_VIEW_SLOT = Observation.__dict__["view"]
