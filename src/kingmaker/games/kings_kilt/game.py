"""The King's Kilt ``Game``: declares the game and composes ``rules``, ``view`` and ``bot``.

Rulebook: ``src/kingmaker/rulebooks/kings-kilt.txt``; rulings: ``docs/rulings/kings-kilt.md``.
The hot paths (``current_player``, ``legal_actions``, ``apply``,
``chance_outcomes``) are the rules module's functions themselves, bound as
methods: no extra call per action.
"""

from __future__ import annotations

from typing import Any

from ...core.api import CHANCE, Game, Option
from ...core.errors import InvalidActionError
from ...core.registry import register
from . import actions as A
from . import bot, rules, view
from .data import INFLUENCE_CARDS
from .state import State


@register
class KingsKilt(Game):
    """King's Kilt: clans climb a pyramid of cards; betray, crown a King, score your family."""

    id = "kings-kilt"
    name = "King's Kilt"
    min_players = 2
    max_players = 4
    has_chance = True
    perfect_information = False
    zero_sum = False
    constant_sum = 1.0
    min_return = 0.0
    max_return = 1.0
    rulebook = "kings-kilt.txt"
    summary = "Scottish clans climb a pyramid of cards; score the clans of your secret family."
    options = (
        Option(
            "family_deal",
            "rulebook",
            ("rulebook", "one-per-clan"),
            "rulebook: three members of distinct clans from the whole deck; one-per-clan: "
            "family cards from a pile holding one member of each clan (later printing)",
        ),
    )
    State = State
    conformance_hidden_every = 2
    # Rivals decide in the search from their own views (their own families), not the
    # public one: at 3 players normal then won 14 of 30 games against two heuristic
    # bots where the public keying won 5 (docs/agents.md). With three or four players
    # ``normal`` searches 400 iterations (``__init__``): a seat makes a third or a quarter
    # of the decisions, and at 100 iterations it won only 39% of 200 three-player games
    # against two heuristic bots (1.18 times the fair share), at 400 71% of 100.
    search_hints = {"opponents": "own"}
    figure_names = rules.FIGURES
    views = view
    bot = bot

    def __init__(self, players: int, **options: Any) -> None:
        super().__init__(players, **options)
        self.hand_size = INFLUENCE_CARDS[players]
        self.one_per_clan = self.option_values["family_deal"] == "one-per-clan"
        if players >= 3:
            self.search_hints = {**type(self).search_hints, "normal": {"iterations": 400}}

    def max_game_length(self) -> int:
        # Set-up: 3n family + <=5n influence + 6 base + 1 top card. Before the crowning
        # every ascent raises the pyramid's total height (at most 35) and each of the
        # at most 20 betrayals lowers it by at most 5, so there are at most 135
        # ascents; an ascent or a betrayal takes at most 1 + 5 fills + 1 card turned
        # up. Add family reveals (3n) and passes (n).
        n = self.num_players
        return 9 * n + 7 + (135 + 20) * 7 + 4 * n

    def num_distinct_actions(self) -> int:
        return A.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return A.NUM_CHANCE

    def observation_shape(self) -> tuple[int, ...]:
        return (view.observation_size(self.num_players),)

    # ---- the rules (functions of rules.py, bound as methods) -------------------
    new_initial_state = rules.new_initial_state
    current_player = rules.current_player
    chance_outcomes = rules.chance_outcomes
    legal_actions = rules.legal_actions
    apply = rules.apply
    explain_illegal = rules.explain_illegal
    returns = rules.returns
    validate_state = rules.validate_state

    def scores(self, s: State) -> tuple[int, ...]:
        """Returns each player's points: King 3, each Guardian 2, each Nobleman 1 per family match."""
        return rules.scores(s)

    def winners(self, s: State) -> tuple[int, ...]:
        """Returns the players who share the throne: most points, then most influence cards left."""
        return rules.winners(s)

    def outcome(self, s: State) -> dict:
        return rules.outcome(s)

    def figures(self, s: State) -> dict[str, tuple[int, ...]]:
        return rules.figures(s)

    # ---- notation ---------------------------------------------------------------
    def action_to_str(self, s: State, action: int) -> str:
        if rules.current_player(self, s) == CHANCE:
            return A.card_str(action)
        return A.to_str(action)

    def parse_action(self, s: State, text: str, player: int | None = None) -> int:
        action = A.parse(text)
        if action is None:
            return super().parse_action(s, text, player)
        card = A.is_card_text(text)
        if card != (rules.current_player(self, s) == CHANCE):
            why = "'card ...' names a card being dealt, not a move" if card else "a card is being turned up now"
            raise InvalidActionError(f"{text!r} is not a move here: {why}", text=text)
        return action
