"""Research adapters: PettingZoo, Gymnasium and OpenSpiel environments for every game.

Install with ``pip install 'kingmaker[rl]'`` (numpy, gymnasium, pettingzoo,
open_spiel); the core never imports them. The modules:

- ``kingmaker.rl.pettingzoo``: ``env(game, players, **options)`` (AEC) and
  ``parallel_env(...)`` (simultaneous nodes in one step);
- ``kingmaker.rl.gymnasium``: ``KingmakerEnv``, one learning seat against agents;
- ``kingmaker.rl.openspiel``: ``register()`` makes every game a pyspiel game;
- ``kingmaker.rl.policy``: a small masked policy network in numpy (the
  ``policy:<file>`` agent loads it), ``kingmaker.rl.train`` trains it
  (behaviour cloning, then masked PPO), ``kingmaker.rl.features`` holds
  optional feature crosses a policy computes from the tensor;
- ``kingmaker.rl.bench``: env speed and IS-MCTS against OpenSpiel's.

See docs/research.md.
"""

__all__: list[str] = []
