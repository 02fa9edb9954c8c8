"""The Gangs of Green City ``Game``: composes ``rules``, ``view`` and ``bot`` and registers the game.

The rules are functions of the game and a state in ``rules.py``; this class binds
them as its methods (no extra call) and declares the options. The base class
delegates ``view``, ``sample_hidden``, ``observe_action``, ``observation_tensor``,
``information_state_string`` and ``heuristic_action`` to the ``view`` and ``bot``
modules.
"""

from __future__ import annotations

from typing import Any

from ...core.api import Game, Option
from ...core.registry import register
from . import actions as A
from . import bot, rules, view
from .data import STARTING_HANDS
from .state import State


@register
class GangsOfGreenCity(Game):
    """Gangs of Green City: a team of heroes ends the recruitment of four gangs before riots win."""

    id = "gangs-of-green-city"
    name = "Gangs of Green City"
    min_players = 2
    max_players = 5
    has_chance = True
    perfect_information = True
    zero_sum = False
    constant_sum = None
    cooperative = True
    min_return = 0.0
    max_return = 1.0
    rulebook = "gangs-of-green-city.txt"
    summary = "Co-operative: heroes of Green City end the recruitment of four gangs before riots turn to war."
    options = (
        Option(
            "escalations",
            6,
            (4, 5, 6),
            "ESCALATION! cards shuffled into the hero deck (6 as the rulebook; fewer is easier)",
        ),
        Option(
            "continue_the_fight",
            False,
            (False, True),
            "Continue The Fight: victory only once all four gangs are defeated",
        ),
        Option(
            "starting_hands",
            False,
            (False, True),
            "deal starting hands of 4/3/2/2 cards for 2/3/4/5 players, as Pandemic (the rulebook deals none)",
        ),
        Option(
            "weaknesses",
            "escalation",
            ("escalation", "every_card"),
            "when featured weaknesses apply: 'escalation' (the rulebook: the ESCALATION! card and its "
            "bottom card) or 'every_card' (every gang card too, with a milder Exhausted)",
        ),
    )
    State = State
    conformance_games = 200
    conformance_hidden_every = 1
    views = view
    bot = bot
    heuristic_styles = bot.STYLES
    figure_names = rules.FIGURE_NAMES

    def __init__(self, players: int, **options: Any) -> None:
        self.num_escalations = int(options.get("escalations", 6))
        self.continue_fight = bool(options.get("continue_the_fight", False))
        self.hand_size = STARTING_HANDS[players] if options.get("starting_hands", False) else 0
        self.every_card_weakness = options.get("weaknesses", "escalation") == "every_card"
        self._view_cache: tuple = (None, None)
        super().__init__(players, **options)

    def max_game_length(self) -> int:
        # Set-up: n cast cards + 9 gang cards + at most 10 hand cards. Every turn draws two
        # hero cards from at most 59, so at most 30 turns; a turn has at most 5 moves (4 and
        # the free one out of Center Park), 2 hero draws, 4 gang draws and a window of at
        # most n passes. Each ESCALATION! adds a bottom card and a window (n passes). Every
        # discard removes one of the 53 POI and respite cards from a hand for good, and the
        # five respites take at most three decisions each (play, pawn, target).
        n = self.num_players
        return (n + 9 + 10) + 30 * (5 + 2 + 4 + n) + 6 * (1 + n) + 53 + 15

    # The rules, bound as methods (each takes the game first).
    new_initial_state = rules.new_initial_state
    current_player = rules.current_player
    is_terminal = rules.is_terminal
    chance_outcomes = rules.chance_outcomes
    sample_chance_outcome = rules.sample_chance_outcome  # the search's sampler (same draws, no list)
    legal_actions = rules.legal_actions
    explain_illegal = rules.explain_illegal
    apply = rules.apply
    returns = rules.returns
    action_to_str = rules.action_to_str
    validate_state = rules.validate_state
    outcome = rules.outcome
    figures = rules.figures

    def num_distinct_actions(self) -> int:
        """Player actions are ``0..1080`` (see ``actions``); ids from 1081 are chance outcomes."""
        return A.CAST0

    def max_chance_outcomes(self) -> int:
        """Chance outcomes keep their action ids, ``1081..1192`` (cast, gang and hero cards)."""
        return A.NUM_ACTIONS

    def observation_shape(self) -> tuple[int, ...]:
        return (view.OBSERVATION_SIZE,)

    def sample_hero_deck(self, s: State, rng: Any) -> list[int]:
        """Returns a hero draw pile order consistent with ``s``, top card first (see ``rules``)."""
        return rules.sample_hero_deck(s, rng)

    def sample_gang_deck(self, s: State, rng: Any) -> list[int]:
        """Returns a gang draw pile order consistent with ``s``, top card first (see ``rules``)."""
        return rules.sample_gang_deck(s, rng)

    def parse_action(self, s: State, text: str, player: int | None = None) -> int:
        action = A.parse(text)
        if action is None:
            return super().parse_action(s, text, player)
        return action
