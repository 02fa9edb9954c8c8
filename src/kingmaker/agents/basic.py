"""The random and heuristic bots."""

from __future__ import annotations

from ..core.match import Observation

__all__ = ["HeuristicAgent", "RandomAgent"]


class RandomAgent:
    """Chooses uniformly among the legal actions, with the seat's own stream."""

    name = "random"

    def act(self, obs: Observation) -> int:
        return obs.rng.choice(obs.legal_actions)


class HeuristicAgent:
    """Plays the game's heuristic on a state sampled from the seat's view.

    The heuristic reads only what the seat may know, so any consistent
    state gives the same choice as the true one would.
    """

    name = "heuristic"

    def act(self, obs: Observation) -> int:
        state = obs.sample(obs.rng)
        action = obs.game.heuristic_action(state, obs.player, obs.rng)
        if action not in obs.legal_actions:
            raise RuntimeError(f"{obs.game.id} heuristic chose an illegal action {action}")
        return action
