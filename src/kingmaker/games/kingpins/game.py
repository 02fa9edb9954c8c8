"""The Kingpins ``Game``: composes ``rules``, ``view`` and ``bot`` and registers the game.

The rules are functions of the game and a state in ``rules.py``; this class binds
them as its methods and declares the options. The base class delegates ``view``,
``sample_hidden``, ``observe_action``, ``observation_tensor``,
``information_state_string``, ``heuristic_action`` and ``evaluate``
(``bot.evaluate_state``) to the ``view`` and ``bot`` modules.
"""

from __future__ import annotations

from typing import Any

from ...core.api import CHANCE, Game, Option
from ...core.errors import InvalidActionError
from ...core.registry import register
from . import actions as A
from . import belief, bot, rules, view
from .data import HAND_SIZE, NUM_KINDS, ROUNDS
from .state import State


@register
class Kingpins(Game):
    """Kingpins: shed your hand onto descending, alternating-colour stacks; lowest total wins."""

    id = "kingpins"
    name = "Kingpins"
    min_players = 2
    max_players = 4
    has_chance = True
    perfect_information = False
    zero_sum = False
    constant_sum = None  # set per instance: n / 2 (rank points)
    min_return = 0.0
    max_return = 1.0
    rulebook = "kingpins.txt"
    summary = (
        "1920s bootleggers shed their hands onto descending, alternating-colour stacks "
        "around the stockpile; five rounds, lowest total wins."
    )
    options = (
        Option(
            "abilities",
            True,
            (True, False),
            "true: the designed special abilities (All Clear, Collect, Rub Out, Alibi, Lie Low); "
            "false: the plain game, cards only score their values",
        ),
    )
    State = State
    figure_names = view.FIGURES
    conformance_games = 200
    # Rollouts stop when the round they are in is scored; the totals then say who is
    # likely to win (bot.standings_value), and the later deals are left to luck. So
    # cut, an iteration costs about half a millisecond: normal affords 400 of them
    # (0.2 s a move), which beat the heuristic 36 of 40 times where 100 won 25 of 40.
    search_hints = {"depth": 0, "normal": {"iterations": 400}, "hard": {"iterations": 2000}}
    conformance_hidden_every = 7
    views = view
    bot = bot
    belief = belief
    public_moves = True  # plays, moves, ends of turn and Rub Out discards are all face up

    def __init__(self, players: int, **options: Any) -> None:
        # Rank points: 1 for the best, 0 for the worst, evenly between; ties share the mean.
        self.constant_sum = players / 2
        self.num_players = players
        super().__init__(players, **options)
        if players >= 3:
            # The returns pay places, the rulebook one winner: with three or four players the
            # search plays for the win (goal=win). On 200 games against heuristic bots normal
            # won 51.0% so at three players (47.2% with the place returns, the same seeds) and
            # 34.0% at four (25% of 64 games with the place returns); docs/agents.md. With two
            # players the two goals make the same search.
            self.search_hints = {**type(self).search_hints, "goal": "win"}
        if players == 4:
            # A seat makes a quarter of the decisions, so the rivals' nodes fill the tree, and
            # replies taken one by one in random order flatter a move: every move is tried at
            # the root and the heuristic leads below it (prior=breadth). On 600 games against
            # heuristic bots normal won more so (38.4%; 34.0% of 200 before), for about a tenth
            # more CPU a move, and no less against normal searches; at three players it did not
            # help (docs/agents.md, Issue 16 §2).
            self.search_hints = {**self.search_hints, "prior": "breadth"}
        self.abilities = bool(self.option_values["abilities"])
        self.hand_deal = HAND_SIZE * players
        self.setup_cards = self.hand_deal + 4

    def max_game_length(self) -> int:
        # Per round: the set-up deal (5n + 4 chance nodes); card plays and Rub Out choices
        # (every card leaves a hand at most once: <= 56 + 4); draws, Collect included (every
        # card is drawn at most once: <= 56); stack moves (a move merges two stacks and only a
        # play to an empty space makes a new one: <= 8 + 56). Every turn ends with one
        # 'end turn': turns with a draw, a play or a move number at most 56 + 56 + 64
        # ("active"); between two of them at most n - 1 turns are passes, and n passes in a
        # row end the round, so passes <= n * (active + 1).
        n = self.num_players
        active = 56 + 56 + 64
        per_round = (5 * n + 4) + 60 + 56 + 64 + active + n * (active + 1)
        return ROUNDS * per_round

    # ---- the research surface ------------------------------------------------------
    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS  # 1,366: plays, Femme Fatale plays, moves, end turn, Rub Out

    def max_chance_outcomes(self) -> int:
        return NUM_KINDS  # the kind of the card dealt or drawn

    def observation_shape(self) -> tuple[int, ...]:
        return (view.TENSOR_SIZE,)

    # The rules, bound as methods (each takes the game first).
    new_initial_state = rules.new_initial_state
    current_player = rules.current_player
    chance_outcomes = rules.chance_outcomes
    sample_chance_outcome = rules.sample_chance_outcome  # the search's sampler (same draws, no list)
    legal_actions = rules.legal_actions
    _play_actions = rules._play_actions
    apply = rules.apply
    _apply_chance = rules._apply_chance
    _apply_play = rules._apply_play
    _end_turn = rules._end_turn
    _end_round = rules._end_round
    hand_score = rules.hand_score
    round_winners = rules.round_winners
    rounds_won = rules.rounds_won
    ranking = rules.ranking
    winners = rules.winners
    returns = rules.returns
    action_to_str = rules.action_to_str
    explain_illegal = rules.explain_illegal
    validate_state = rules.validate_state
    outcome = view.outcome
    figures = view.figures

    def parse_action(self, s: State, text: str, player: int | None = None) -> int:
        # Chance outcomes (card kinds) share ints with player actions: "card X" is read only
        # at a chance node, moves only at decisions.
        action = A.parse(text)
        chance = self.current_player(s) == CHANCE
        card = text.strip().lower().startswith("card")
        if action is not None and card and not chance:
            raise InvalidActionError(f"{text!r}: cards are dealt by chance, not chosen; "
                                     f"{self._accepted_text(s, player)}", text=text)
        if action is None or chance != card:
            return super().parse_action(s, text, player)
        return action
