"""San Quentin Kings (3-5 players): registers the game ``san-quentin-kings``.

Modules, each depending only on those below it::

    game.py     the Game class: composes rules, view and bot; registers the game
    view.py     what each player sees, resampling, log lines (re-exports observe.py)
    observe.py  the observation tensor and the information state string
    bot.py      the heuristic
    render.py   a text picture of a view
    rules.py    whose turn, legal actions, apply, the chance queue, collect and clean
    fight.py    fists, fight turns, card effects, placings and payouts
    bribes.py   bribe chip actions
    blocks.py   choosing a block; gym, cafeteria, guard influence, drug payment
    scoring.py  owed goods, the end of a year, final scoring
    riot.py     the riot
    codec.py    states as JSON, and their checks
    recall.py   what players remember of hidden cards (perfect recall)
    tasks.py    chance tasks
    state.py, actions.py, data.py   the state, the action ids and notation, the components

Research surface: player actions are 0..850 (``actions.py``), chance outcomes ids 851..1000
(declared range 0..1000). The observation tensor (``observe.py`` has the full index table) is
seat-relative, 108 global values (year, phase, blocks, the fight's round and flags, the card
drawn, your hand and fist, supply, the decks, the cafeteria and bus) then 67 per seat
(initiator and turn flags, placings, pieces by place and type, the fight area, goods counts,
fist status, the cards the observer knows that seat holds).
"""

from .game import SanQuentinKings

__all__ = ["SanQuentinKings"]
