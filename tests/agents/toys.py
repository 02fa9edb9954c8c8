"""A base for the tiny toy games the agent tests search: a state is the tuple of moves so far.

Subclasses say who moves (``current_player``), what they may do (``legal_actions``), what
each end pays (``returns``) and how a move reads (``action_to_str``). Everything is public:
a view is the moves so far, and a determinisation is the state itself.
"""

from __future__ import annotations

from kingmaker.core.api import TERMINAL, Game


class MovesSoFar(Game):
    """A toy game of at most two moves whose state is the tuple of the moves taken."""

    def max_game_length(self) -> int:
        return 2

    def new_initial_state(self):
        return ()

    def apply(self, s, action, player=None):
        return (*s, action)

    def view(self, s, player):
        return {"moves": list(s)}

    def sample_hidden(self, s, player, rng):
        return s


class OneReply(MovesSoFar):
    """Two players: player 0 ends the game at once (move 0) or lets player 1 reply (move 1),
    from ``replies`` moves numbered from 0."""

    perfect_information = True
    has_chance = False
    min_players = max_players = 2
    replies = 2

    def current_player(self, s):
        if not s:
            return 0
        if s == (1,):
            return 1
        return TERMINAL

    def legal_actions(self, s, player=None):
        cp = self.current_player(s)
        if cp < 0 or player not in (None, cp):
            return []
        return [0, 1] if cp == 0 else list(range(self.replies))
