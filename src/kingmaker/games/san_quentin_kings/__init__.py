"""San Quentin Kings (3-5 players): registers the game ``san-quentin-kings``.

Modules, each depending only on those below it::

    game.py     the Game class: composes rules, view and bot; registers the game
    view.py     what each player sees, resampling, log lines, observation tensor
    bot.py      the heuristic
    render.py   a text picture of a view
    rules.py    whose turn, legal actions, apply, the chance queue, collect and clean
    fight.py    fists, fight turns, card effects, placings and payouts
    bribes.py   bribe chip actions
    blocks.py   choosing a block; gym, cafeteria, guard influence, drug payment
    scoring.py  owed goods, the end of a year, final scoring
    riot.py     the riot
    tasks.py    chance tasks
    state.py, actions.py, data.py   the state, the action ids and notation, the components
"""

from .game import SanQuentinKings

__all__ = ["SanQuentinKings"]
