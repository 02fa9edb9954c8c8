"""The San Quentin Kings game object: composes ``rules``, ``view`` and ``bot`` and registers the game."""

from __future__ import annotations

import re
from typing import Any

from ...core.api import CHANCE, SIMULTANEOUS, TERMINAL, Game, Option
from ...core.errors import InvalidActionError
from ...core.registry import register
from . import actions as A
from . import bot, codec, rules, scoring, view
from .data import GUARD_VARIANTS, GUARDS_DEFAULT, fight_deck
from .fight import ranking
from .observe import observation_shape
from .state import FIGHT_PHASES, P_BLOCK, P_END, P_FISTS, P_PICK, PSIZE, SEQ_PHASES, State

# A fist typed as three small numbers ("2 1 0", "2,1,0") or as "C2 S1 T0".
_FIST_TEXT = re.compile(r"^(?:fist\s+)?c?([0-7])[\s,/]+s?([0-7])[\s,/]+t?([0-7])$")


@register
class SanQuentinKings(Game):
    """San Quentin Kings: prison gangs fight for goods over three years, then riot."""

    id = "san-quentin-kings"
    name = "San Quentin Kings"
    min_players = 3
    max_players = 5
    has_chance = True
    perfect_information = False
    has_simultaneous = True
    zero_sum = False
    constant_sum = 1.0
    min_return = 0.0
    max_return = 1.0
    rulebook = "san-quentin-kings.txt"
    summary = "Prison gangs: secret fists, risky fights, bribes, three years and a riot; most respect wins."
    options = (
        Option(
            "guards",
            GUARDS_DEFAULT,
            GUARD_VARIANTS,
            "Guard cards in the fight deck: 6 a safer deck, 8 recommended, 10 very risky (Fight Deck Variant)",
        ),
    )
    State = State
    views = view
    bot = bot
    conformance_games = 100
    conformance_hidden_every = 25
    # normal searches 200 iterations (about 1 s a move on an idle core, within its 1.5 s
    # cap): on the same 30 seeded games it won 23 against two heuristic bots where 100
    # iterations won 16 (docs/agents.md).
    search_hints = {"normal": {"iterations": 200}}
    figure_names = scoring.FIGURES

    def __init__(self, players: int, **options: Any) -> None:
        super().__init__(players, **options)
        self.n = players
        self.guards = self.option_values["guards"]
        self.deck0 = fight_deck(self.guards)
        self._view_cache: tuple | None = None  # (state, public part of its views), see view.py

    def max_game_length(self) -> int:
        return rules.max_game_length(self.num_players)

    def num_distinct_actions(self) -> int:
        """Player actions are 0..850 (actions.py); chance outcomes come after them."""
        return A.CH_PLAYER0

    def max_chance_outcomes(self) -> int:
        """Chance outcomes are ids 851..1000 (actions.py), so the declared range is 0..1000."""
        return A.NUM_ACTIONS

    def observation_shape(self) -> tuple[int, ...]:
        return observation_shape(self.num_players)

    def new_initial_state(self) -> State:
        return rules.new_initial_state(self.n, self.deck0)

    def current_player(self, s: State) -> int:
        # ``rules.current_player`` written out: the search asks at every step of a rollout.
        if s.queue:
            return CHANCE
        ph = s.phase
        if ph in FIGHT_PHASES:
            return (s.initiator + 1 + s.pos) % self.n
        if ph == P_BLOCK:
            return s.initiator
        if ph in SEQ_PHASES:
            return (s.initiator + s.pos) % self.n
        if ph == P_FISTS:
            return SIMULTANEOUS
        if ph == P_PICK:
            return s.ranking[s.pos]
        return TERMINAL

    def simultaneous_players(self, s: State) -> tuple[int, ...]:
        return rules.simultaneous_players(s)

    chance_outcomes = rules.game_chance_outcomes  # rules.chance_outcomes, written out there

    def legal_actions(self, s: State, player: int | None = None) -> list[int]:
        return rules.legal_actions(s, player, self.n)

    def explain_illegal(self, s: State, action: int, player: int) -> str:
        return rules.explain_illegal(s, action, player)

    # check_action, then rules.apply: written out in the rules module (one call fewer a step)
    apply = rules.game_apply

    # ---- the fight and the end ----------------------------------------------------------------
    def ranking(self, s: Any) -> list[int]:
        """Returns the placed players of the fight in ``s``, strongest first (Scoring Fight)."""
        return ranking(s, self.n)

    def score_breakdown(self, s: Any) -> list[dict[str, int]]:
        """Returns each player's respect by source (End Game Scoring)."""
        return scoring.score_breakdown(s, self.n)

    def scores(self, s: Any) -> list[int]:
        return scoring.scores(s, self.n)

    def winners(self, s: Any) -> tuple[int, ...]:
        """Returns the winners: most respect, then most fight points (ruling SQK-20)."""
        return scoring.winners(s, self.n)

    def outcome(self, s: State) -> dict:
        return scoring.outcome(s, self.n)

    def figures(self, s: State) -> dict[str, tuple[int, ...]]:
        return scoring.figures(s, self.n)

    def returns(self, s: State) -> tuple[float, ...]:
        if s.phase != P_END or s.queue:
            return (0.0,) * self.n
        w = scoring.winners(s, self.n)
        share = 1.0 / len(w)
        return tuple(share if p in w else 0.0 for p in range(self.n))

    # ---- notation -----------------------------------------------------------------------------
    def action_to_str(self, s: State, action: int) -> str:
        return A.to_str(action)

    def move_prompt(self, s: State, player: int) -> str | None:
        """Returns how to type a fist: three numbers, Cobras Scorpions Tarantulas, at most the cell's."""
        if s.queue or s.phase != P_FISTS or not 0 <= player < self.n or s.fists[player] != -1:
            return None
        o = player * PSIZE
        c, sc, t = s.pieces[o : o + 3]
        return (f"your secret fist: three numbers, Cobras Scorpions Tarantulas from your cell (you have "
                f"C{c} S{sc} T{t}), e.g. '{min(c, 1)} {min(sc, 1)} 0'; '0 0 0' opens an empty fist and stays out")

    def parse_action(self, s: State, text: str, player: int | None = None) -> int:
        action = A.parse(text)
        if action is None:
            m = _FIST_TEXT.match(text.strip().lower())
            if m:
                action = A.fist(int(m[1]), int(m[2]), int(m[3]))
        if action is None:
            raise InvalidActionError(
                f"{text!r} is not a move of {self.name}; {self._accepted_text(s, player)}", text=text
            )
        return action

    # ---- JSON and checks ----------------------------------------------------------------------
    def to_json(self, s: State) -> dict:
        return codec.to_json(self.id, s)

    def from_json(self, data: Any) -> State:
        return codec.from_json(self, data)

    def validate_state(self, s: State) -> None:
        codec.validate_state(self, s)
