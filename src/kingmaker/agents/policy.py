"""The ``policy:<file>`` agent: a trained network (``kingmaker.rl.policy``) as a bot.

    kingmaker arena kings-kilt -p 2 --agents policy:kings-kilt-2p,random --games 400
    kingmaker play kings-kilt -n 2 --bot policy:kings-kilt-2p
    kingmaker arena kings-kilt -p 2 --agents policy:runs/kk.npz,heuristic

``<file>`` is a ``.npz`` path or the name of a policy shipped in
``kingmaker/rl/policies/`` (``kings-kilt-2p``); ``policy`` alone picks the
shipped policy made for the game and player count, if there is one. Add
``/sample`` to sample from the policy instead of playing its most probable
move (``policy:kings-kilt-2p/sample``).

The agent sees only its ``Observation``: it draws a state consistent with the
seat's view and reads the game's observation tensor from it, which is a
function of the view alone (the conformance suite checks it), so the true
state's hidden parts never reach the network. It needs numpy
(``pip install 'kingmaker[rl]'``).
"""

from __future__ import annotations

from typing import Any

from ..core.errors import GameError
from ..core.match import Observation
from . import register_agent

__all__ = ["PolicyAgent"]


class PolicyAgent:
    """Plays a ``MaskedPolicy``: its most probable legal move (or a sample)."""

    def __init__(self, policy: Any, name: str = "policy", greedy: bool = True) -> None:
        self.policy = policy
        self.name = name
        self.greedy = greedy

    def act(self, obs: Observation) -> int:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        state = obs.sample(obs.rng)
        x = obs.game.observation_tensor(state, obs.player)
        return self.policy.act(x, legal, obs.rng, greedy=self.greedy)


def _policy_factory(game: Any, level: str | None = None, **kw: Any) -> PolicyAgent:
    try:
        from ..rl.policy import POLICY_DIR, MaskedPolicy, find_policy
    except ModuleNotFoundError as e:
        raise GameError(f"policy agents need numpy ({e.name} is missing): pip install 'kingmaker[rl]'") from None
    text = (level or "").strip()
    greedy = True
    if text.endswith("/sample"):
        text, greedy = text[: -len("/sample")], False
    elif text == "sample":
        text, greedy = "", False
    if not text:
        default = f"{game.id}-{game.num_players}p"
        if not (POLICY_DIR / f"{default}.npz").is_file():
            raise GameError(
                f"no shipped policy for {game.name} with {game.num_players} players; "
                "name a file: policy:<file.npz>",
                game=game.id,
            )
        text = default
    policy = MaskedPolicy.load(find_policy(text))
    policy.check_game(game)
    return PolicyAgent(policy, name=f"policy:{level}" if level else "policy", greedy=greedy)


register_agent("policy", _policy_factory)
