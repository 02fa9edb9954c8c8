"""The game contract: node kinds, game info, options and the ``Game`` base class.

A game object holds rules and its options; it never holds or mutates a state.
States are immutable values (frozen ``slots`` dataclasses of ints, strings and
tuples). Actions are non-negative ints, so legal action lists sort naturally
and index policy vectors; ``action_to_str`` / ``parse_action`` give notation.

Node kinds, as returned by ``current_player``::

    >= 0          one player decides
    CHANCE (-1)   the caller samples ``chance_outcomes`` with its own random stream
    SIMULTANEOUS  several players act (``acting_players``), each with
      (-2)        ``apply(s, a, player=p)``, in any order; no one sees the
                  others' choices until all are in and the game reveals them
    TERMINAL (-4) the game is over; ``returns`` gives the result
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import (
    BadRequestError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    InvalidStateError,
    NotYourTurnError,
)

__all__ = [
    "frozen_state",
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Game",
    "GameInfo",
    "Option",
    "node_name",
]

CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4

_NODE_NAMES = {CHANCE: "chance", SIMULTANEOUS: "simultaneous", TERMINAL: "terminal"}


def frozen_state(cls: type) -> type:
    """Makes ``cls`` a frozen ``slots`` dataclass whose constructor is about 3x faster.

    A frozen dataclass's generated ``__init__`` sets each field through
    ``object.__setattr__`` by name; this one calls the slots' own setters,
    bound once. Instances stay frozen (assignment raises FrozenInstanceError),
    compare and hash by value. Use it as the decorator of every game state.

    ``cls._Filling`` is the state's mutable twin, a class with the same slots in the
    same order: a rules' hot path may make ``o = State._Filling()``, store the fields
    into it with plain slot stores (several times cheaper than any frozen setter) and
    end with ``o.__class__ = State``. The object is then a ``State`` like any other
    (value, equality, hash, repr, pickling); the twin is never seen outside.
    """
    cls = dataclasses.dataclass(frozen=True, slots=True)(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    if tuple(cls.__slots__) != tuple(names):
        raise TypeError(f"{cls.__name__}'s slots must be its fields in order")
    cls._Filling = type(
        f"{cls.__name__}Filling",
        (),
        {"__slots__": tuple(names), "__module__": cls.__module__,
         "__doc__": f"The mutable twin of {cls.__name__} (see ``frozen_state``)."},
    )
    env = {f"_set_{n}": cls.__dict__[n].__set__ for n in names}
    args = ", ".join(names)
    body = "".join(f"    _set_{n}(self, {n})\n" for n in names) or "    pass\n"
    exec(f"def __init__(self, {args}):\n{body}", env)  # noqa: S102 - generated from field names only
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = f"Creates a {cls.__name__} ({args})."
    cls.__init__ = init
    return cls


def node_name(player: int) -> str:
    """Returns 'player 2', 'chance', 'simultaneous' or 'terminal'."""
    return _NODE_NAMES.get(player, f"player {player}")


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True, slots=True)
class Option:
    """One variant a game offers: its name, default and the values it allows."""

    name: str
    default: Any
    allowed: tuple
    doc: str = ""

    def coerce(self, value: Any) -> Any:
        """Returns the value as the option's type, or raises InvalidOptionError.

        Text such as ``"false"`` or ``"8"`` (from a command line or a form) is
        converted to the type of the allowed values.
        """
        if isinstance(value, str):
            text = value.strip().lower()
            if all(isinstance(a, bool) for a in self.allowed):
                if text in _TRUE:
                    value = True
                elif text in _FALSE:
                    value = False
            elif all(isinstance(a, int) and not isinstance(a, bool) for a in self.allowed):
                try:
                    value = int(text)
                except ValueError:
                    pass
            else:
                value = value.strip()
        for allowed in self.allowed:
            if value == allowed and type(value) is type(allowed):
                return allowed
        raise InvalidOptionError(
            f"option {self.name}={value!r} is not allowed; "
            f"accepted values: {', '.join(_fmt(a) for a in self.allowed)} (default {_fmt(self.default)})",
            option=self.name,
            value=repr(value),
            allowed=[_fmt(a) for a in self.allowed],
        )

    def to_dict(self) -> dict:
        return {"name": self.name, "default": self.default, "allowed": list(self.allowed), "doc": self.doc}


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is, declared once: players, chance, information, returns, length."""

    id: str
    name: str
    min_players: int
    max_players: int
    num_players: int
    has_chance: bool
    perfect_information: bool
    has_simultaneous: bool
    zero_sum: bool
    constant_sum: float | None
    cooperative: bool
    min_return: float
    max_return: float
    max_game_length: int
    options: tuple[Option, ...]
    option_values: Mapping[str, Any] = field(default_factory=dict)
    rulebook: str = ""
    summary: str = ""
    num_distinct_actions: int = 0
    max_chance_outcomes: int = 0
    observation_shape: tuple[int, ...] = ()
    figures: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        """Returns the info as JSON-serialisable data."""
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "num_players": self.num_players,
            "has_chance": self.has_chance,
            "perfect_information": self.perfect_information,
            "has_simultaneous": self.has_simultaneous,
            "zero_sum": self.zero_sum,
            "constant_sum": self.constant_sum,
            "cooperative": self.cooperative,
            "min_return": self.min_return,
            "max_return": self.max_return,
            "max_game_length": self.max_game_length,
            "options": [o.to_dict() for o in self.options],
            "option_values": dict(self.option_values),
            "rulebook": self.rulebook,
            "summary": self.summary,
            "num_distinct_actions": self.num_distinct_actions,
            "max_chance_outcomes": self.max_chance_outcomes,
            "observation_shape": list(self.observation_shape),
            "figures": list(self.figures),
        }


class Game:
    """Base of every game: the rules, with the options chosen at ``make``.

    Subclasses set the class attributes below and implement the methods marked
    as required. The base supplies checked play, default notation parsing
    (against the legal actions' notation), JSON for flat dataclass states and
    error messages.
    """

    # Class-level declaration, completed by each game.
    id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    has_chance: ClassVar[bool] = False
    perfect_information: ClassVar[bool] = True
    has_simultaneous: ClassVar[bool] = False
    zero_sum: ClassVar[bool] = False
    constant_sum: ClassVar[float | None] = None
    cooperative: ClassVar[bool] = False
    min_return: ClassVar[float] = 0.0
    max_return: ClassVar[float] = 1.0
    options: ClassVar[tuple[Option, ...]] = ()
    rulebook: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    State: ClassVar[type] = object  # the frozen dataclass of this game's states
    # How tests/test_conformance.py exercises the game (seeded games per player count,
    # hidden-information checks every k-th step).
    conformance_games: ClassVar[int] = 200
    conformance_hidden_every: ClassVar[int] = 1
    # Settings of the IS-MCTS difficulty levels that suit this game (keys of
    # kingmaker.agents.search.SearchConfig, e.g. {"depth": 0} to cut rollouts short
    # with ``evaluate``; settings for one level only under its name, e.g.
    # {"normal": {"iterations": 300}}). A level's own settings apply first, then
    # these, then any setting named in an agent spec. Read on the instance: a game may
    # set its own in ``__init__`` when they depend on the player count.
    search_hints: ClassVar[Mapping[str, Any]] = {}
    # The heuristic's styles, if it has more than one way to play (the first is its default):
    # ``heuristic_action(s, p, rng, style=...)`` plays one; the turn planner
    # (``kingmaker.agents.plan``) picks one a turn by rollouts. Empty: one way only.
    heuristic_styles: ClassVar[tuple[str, ...]] = ()
    # Per-seat figures ``figures(s)`` reports at the end of a game (for the lab and
    # final screens), e.g. ("score", "influence_left").
    figure_names: ClassVar[tuple[str, ...]] = ()
    # The modules a game composes (set in its game.py). ``views`` provides
    # view/sample_hidden/observe_action (and optionally observation_tensor,
    # information_state_string); ``bot`` provides heuristic_action (and optionally
    # evaluate). Each function takes the game first: ``views.view(game, s, player)``.
    views: ClassVar[Any] = None
    bot: ClassVar[Any] = None
    # Optional: what a seat may infer from the others' public play, for the search's
    # determinisations (``SearchConfig.belief="model"``). The module provides
    # ``belief_update(game, notes, s, observer, player, action) -> notes`` (``s`` a
    # determinisation of the observer's view before the action, ``action`` None where the
    # observer does not see it) and ``belief_sample(game, s, observer, notes, rng)``: a
    # state with the same view as ``s`` for the observer, its hidden parts dealt again.
    belief: ClassVar[Any] = None
    # True when every player sees every decision (its action id): the match may then tell
    # each seat's agent the action (``inform``); otherwise a seat is told only that it happened.
    public_moves: ClassVar[bool] = False

    def __init__(self, players: int, **options: Any) -> None:
        self.num_players = players
        values = {o.name: o.default for o in self.options}
        values.update(options)
        self.option_values: dict[str, Any] = values
        self.info = GameInfo(
            id=self.id,
            name=self.name,
            min_players=self.min_players,
            max_players=self.max_players,
            num_players=players,
            has_chance=self.has_chance,
            perfect_information=self.perfect_information,
            has_simultaneous=self.has_simultaneous,
            zero_sum=self.zero_sum,
            constant_sum=self.constant_sum,
            cooperative=self.cooperative,
            min_return=self.min_return,
            max_return=self.max_return,
            max_game_length=self.max_game_length(),
            options=self.options,
            option_values=dict(values),
            rulebook=self.rulebook,
            summary=self.summary,
            num_distinct_actions=_declared(self.num_distinct_actions, 0),
            max_chance_outcomes=_declared(self.max_chance_outcomes, 0) if self.has_chance else 0,
            observation_shape=tuple(_declared(self.observation_shape, ())),
            figures=tuple(self.figure_names),
        )

    def __repr__(self) -> str:
        opts = "".join(f", {k}={v!r}" for k, v in self.option_values.items())
        return f"kingmaker.make({self.id!r}, players={self.num_players}{opts})"

    # ---- required ---------------------------------------------------------
    def max_game_length(self) -> int:
        """Returns an upper bound on the number of actions (chance included) in a game."""
        raise NotImplementedError  # abstract

    def new_initial_state(self) -> Any:
        """Returns the state before the first action (often a chance node dealing cards)."""
        raise NotImplementedError  # abstract

    def current_player(self, s: Any) -> int:
        """Returns the player to act, or CHANCE, SIMULTANEOUS or TERMINAL."""
        raise NotImplementedError  # abstract

    def legal_actions(self, s: Any, player: int | None = None) -> list[int]:
        """Returns the sorted legal actions of ``player`` (the one to act if None)."""
        raise NotImplementedError  # abstract

    def apply(self, s: Any, action: int, player: int | None = None) -> Any:
        """Returns the state after ``action``, unchecked (the fast path for agents)."""
        raise NotImplementedError  # abstract

    def returns(self, s: Any) -> tuple[float, ...]:
        """Returns one float per player; meaningful at a terminal state."""
        raise NotImplementedError  # abstract

    def view(self, s: Any, player: int | None) -> dict:
        """Returns all that ``player`` may know (None: a spectator), as JSON data."""
        return self.views.view(self, s, player)

    def action_to_str(self, s: Any, action: int) -> str:
        """Returns the notation of ``action`` in ``s``, unique among its legal actions."""
        raise NotImplementedError  # abstract

    def num_distinct_actions(self) -> int:
        """Returns the size of the player action space for these options.

        Every player action is an int in ``0..num_distinct_actions-1`` (a policy
        vector's index); ``apply`` raises InvalidActionError outside that range.
        """
        raise NotImplementedError  # abstract

    def max_chance_outcomes(self) -> int:
        """Returns the size of the chance outcome space: outcomes are ``0..max_chance_outcomes-1``.

        Chance outcomes have their own range, apart from player actions.
        """
        raise NotImplementedError  # abstract for games with chance

    def observation_shape(self) -> tuple[int, ...]:
        """Returns the shape of ``observation_tensor`` (its flat length is the product)."""
        raise NotImplementedError  # abstract

    def observation_tensor(self, s: Any, player: int) -> Sequence[float]:
        """Returns ``player``'s observation as a flat sequence of floats, seat-relative.

        A list, or (faster for numpy) a fresh float32 ``array.array('f')``.

        It is a function of ``view(s, player)``: two states with equal views give
        equal tensors. Each game documents its encoding (which index means what)
        in its package. The default asks the game's ``views`` module.
        """
        return self.views.observation_tensor(self, s, player)

    def information_state_string(self, s: Any, player: int | None) -> str:
        """Returns a canonical string of all that ``player`` may know in ``s`` (None: a spectator).

        Equal views give equal strings, and different views different strings,
        so search libraries may key information sets on it. The default is the
        view as canonical JSON; games provide a faster one in their ``views``.
        """
        fn = getattr(self.views, "information_state_string", None)
        if fn is not None:
            return fn(self, s, player)
        return json.dumps(self.view(s, player), sort_keys=True, separators=(",", ":"))

    def legal_actions_mask(self, s: Any, player: int | None = None) -> list[int]:
        """Returns a list of ``num_distinct_actions`` 0/1 ints: 1 where the action is legal."""
        mask = [0] * self.info.num_distinct_actions
        if self.current_player(s) in (CHANCE, TERMINAL):
            return mask
        for a in self.legal_actions(s, player):
            mask[a] = 1
        return mask

    def figures(self, s: Any) -> dict[str, tuple[float, ...]]:
        """Returns the per-seat figures named in ``figure_names`` (one value per seat each)."""
        return {}

    def outcome(self, s: Any) -> dict:
        """Returns how a finished game ended, as JSON data.

        ``{"winners": [seats], "reason": short code, "text": a sentence}``: the
        text names the winners and why, including how a tie was broken ("tie on
        5 points, broken by influence cards"). Seats are named "player N".
        The default reads the returns.
        """
        r = self.returns(s)
        best = max(r)
        winners = [p for p, v in enumerate(r) if v == best]
        names = " and ".join(f"player {p}" for p in winners)
        return {"winners": winners, "reason": "returns", "text": f"{names} {'wins' if len(winners) == 1 else 'share the win'}"}

    def check_action(self, s: Any, action: Any) -> None:
        """Raises InvalidActionError when ``action`` is outside the declared ranges.

        Games call it from ``apply`` (it is cheap: an int range test, and the
        chance outcomes at a chance node). Legality stays ``play``'s job.
        """
        if type(action) is not int:
            raise InvalidActionError(
                f"an action is an int, not {type(action).__name__}", text=repr(action)[:40]
            )
        if self.current_player(s) == CHANCE:
            if not any(a == action for a, _ in self.chance_outcomes(s)):
                raise InvalidActionError(
                    f"{action} is not a chance outcome offered here", text=str(action)
                )
        elif not 0 <= action < self.info.num_distinct_actions:
            raise InvalidActionError(
                f"action {action} is outside 0..{self.info.num_distinct_actions - 1}", text=str(action)
            )

    # ---- optional, with defaults -------------------------------------------
    def acting_players(self, s: Any) -> tuple[int, ...]:
        """Returns the players who may act now (several at a SIMULTANEOUS node)."""
        p = self.current_player(s)
        if p >= 0:
            return (p,)
        if p == SIMULTANEOUS:
            return self.simultaneous_players(s)
        return ()

    def simultaneous_players(self, s: Any) -> tuple[int, ...]:
        """Returns the players still to commit at a SIMULTANEOUS node."""
        raise NotImplementedError  # abstract for games with simultaneous nodes

    def chance_outcomes(self, s: Any) -> list[tuple[int, float]]:
        """Returns ``[(action, probability), ...]`` at a chance node."""
        raise IllegalActionError(f"{self.name}: chance_outcomes called at a {node_name(self.current_player(s))} node")

    def is_terminal(self, s: Any) -> bool:
        """Returns True when the game is over."""
        return self.current_player(s) == TERMINAL

    def sample_hidden(self, s: Any, player: int | None, rng: random.Random) -> Any:
        """Returns a full state consistent with ``view(s, player)``.

        The result depends only on what ``player`` sees and on ``rng``: two
        states with the same view give the same sample for the same stream.
        The default asks the game's ``views`` module, or returns ``s`` when the
        game hides nothing.
        """
        fn = getattr(self.views, "sample_hidden", None)
        return s if fn is None else fn(self, s, player, rng)

    def observe_action(self, s: Any, action: int, player: int | None, observer: int | None) -> str | None:
        """Returns the log text that ``observer`` sees when ``action`` is taken in ``s``.

        The default shows decisions of single players in full, hides chance
        outcomes in games with hidden information, and hides simultaneous
        commitments of other players until the game reveals them. A game's
        ``views.observe_action`` replaces it.
        """
        fn = getattr(self.views, "observe_action", None)
        if fn is not None:
            return fn(self, s, action, player, observer)
        return self.default_observe_action(s, action, player, observer)

    def default_observe_action(self, s: Any, action: int, player: int | None, observer: int | None) -> str | None:
        """Returns the generic log text described in ``observe_action``."""
        cp = self.current_player(s)
        if cp == CHANCE:
            if self.perfect_information:
                return f"chance: {self.action_to_str(s, action)}"
            return "chance"
        if cp == SIMULTANEOUS and player != observer:
            return f"player {player} commits a secret choice"
        return f"player {player}: {self.action_to_str(s, action)}"

    def parse_action(self, s: Any, text: str, player: int | None = None) -> int:
        """Returns the action whose notation is ``text`` in ``s``.

        The default compares against the notation of the actions legal for the
        acting players (and chance outcomes), ignoring case and extra spaces.
        Games with a grammar override ``parse_notation`` to parse actions that
        are well formed but not legal now, so that ``play`` can say why.
        """
        wanted = _norm(text)
        for a in self._candidate_actions(s, player):
            if _norm(self.action_to_str(s, a)) == wanted:
                return a
        parsed = self.parse_notation(s, text)
        if parsed is not None:
            return parsed
        raise InvalidActionError(
            f"{text!r} is not a move of {self.name} here; {self._accepted_text(s, player)}",
            text=text,
        )

    def move_prompt(self, s: Any, player: int) -> str | None:
        """Returns how a person should type a move here instead of picking from a long menu, or None.

        E.g. San Quentin Kings' fists: "three numbers: fights, drugs, shanks (e.g. 2 1 0)".
        Terminals and web pages show it in place of (or beside) the numbered move list.
        """
        return None

    def parse_notation(self, s: Any, text: str) -> int | None:
        """Returns the action ``text`` names even if it is illegal now, or None if unknown."""
        return None

    def explain_illegal(self, s: Any, action: int, player: int) -> str:
        """Returns why ``action`` is not legal for ``player`` in ``s`` (a short phrase)."""
        return "it is not one of the legal moves now"

    def heuristic_action(self, s: Any, player: int, rng: random.Random, style: str | None = None) -> int:
        """Returns the heuristic bot's choice for ``player`` in a (determinised) state.

        It must read only what ``player`` may know. The default asks the game's
        ``bot`` module, or picks uniformly. ``style`` names one of ``heuristic_styles``
        (None: the default way).

        Raises:
            BadRequestError: a style the game's heuristic does not have (code ``request/invalid``).
        """
        if style is not None and style not in self.heuristic_styles:
            have = ", ".join(self.heuristic_styles) or "none (it plays one way)"
            raise BadRequestError(f"{self.name}'s heuristic has no style {style!r}; its styles: {have}",
                                  game=self.id, allowed=list(self.heuristic_styles))
        fn = getattr(self.bot, "heuristic_action", None)
        if fn is not None:
            return fn(self, s, player, rng) if style is None else fn(self, s, player, rng, style=style)
        return rng.choice(self.legal_actions(s, player))

    def evaluate(self, s: Any) -> tuple[float, ...] | None:
        """Returns an estimate of every player's return from a non-terminal state, or None.

        Search agents call it on the full (determinised) states they simulate, to
        end a rollout early: a game returns estimates (each within ``min_return``
        and ``max_return``) at the states it can judge, and None where it cannot
        (then the rollout goes on). The default asks the game's ``bot`` module
        (``bot.evaluate_state``), or judges no state.
        """
        fn = getattr(self.bot, "evaluate_state", None)
        return None if fn is None else fn(self, s)

    # ---- checked play ---------------------------------------------------------
    def play(self, s: Any, action_or_text: int | str, player: int | None = None) -> Any:
        """Returns the state after a checked action.

        Raises:
            GameOverError: the game is over.
            NotYourTurnError: ``player`` may not act now.
            InvalidActionError: the text does not parse.
            IllegalActionError: the action is not legal now; the message says why.
        """
        cp = self.current_player(s)
        if cp == TERMINAL:
            raise GameOverError(
                f"{self.name} is over; no move is accepted (tried {action_or_text!r})",
                text=str(action_or_text),
            )
        acting = self.acting_players(s)
        if player is None:
            if cp >= 0:
                player = cp
            elif cp == SIMULTANEOUS:
                raise NotYourTurnError(
                    f"a simultaneous choice needs its player; players {list(acting)} are choosing",
                    acting=list(acting),
                )
        if cp == CHANCE:
            if player is not None and player != CHANCE:
                raise NotYourTurnError(
                    f"player {player} cannot move now: the game is waiting for a chance outcome",
                    player=player,
                )
            legal = [a for a, _ in self.chance_outcomes(s)]
        else:
            if player not in acting:
                raise NotYourTurnError(
                    f"player {player} cannot move now; it is the turn of "
                    + (f"player {acting[0]}" if len(acting) == 1 else f"players {list(acting)}"),
                    player=player,
                    acting=list(acting),
                )
            legal = self.legal_actions(s, player)
        if isinstance(action_or_text, str):
            action = self.parse_action(s, action_or_text, None if cp == CHANCE else player)
        elif isinstance(action_or_text, int) and not isinstance(action_or_text, bool):
            action = action_or_text
        else:
            raise InvalidActionError(
                f"an action is an int or its notation, not {type(action_or_text).__name__}",
                text=repr(action_or_text),
            )
        if action not in legal:
            try:
                text = self.action_to_str(s, action)
            except Exception:  # noqa: BLE001 - a made-up int may have no notation
                text = f"#{action}"
            who = "chance" if cp == CHANCE else f"player {player}"
            reason = self.explain_illegal(s, action, player) if cp != CHANCE else "not a chance outcome here"
            raise IllegalActionError(
                f"{who} cannot play {text!r}: {reason}; {self._accepted_text(s, player if cp != CHANCE else None)}",
                text=text,
                player=player,
            )
        return self.apply(s, action, None if cp == CHANCE else player)

    def _candidate_actions(self, s: Any, player: int | None) -> list[int]:
        cp = self.current_player(s)
        if cp == TERMINAL:
            return []
        if cp == CHANCE:
            return [a for a, _ in self.chance_outcomes(s)]
        players = (player,) if player is not None and player >= 0 else self.acting_players(s)
        out: list[int] = []
        for p in players:
            out.extend(self.legal_actions(s, p))
        return out

    def _accepted_text(self, s: Any, player: int | None, limit: int = 12) -> str:
        acts = self._candidate_actions(s, player)
        if not acts:
            return "no move is accepted now"
        names = [self.action_to_str(s, a) for a in acts[:limit]]
        more = f" and {len(acts) - limit} more" if len(acts) > limit else ""
        return "accepted: " + ", ".join(repr(n) for n in names) + more

    # ---- JSON -------------------------------------------------------------------
    def to_json(self, s: Any) -> dict:
        """Returns the whole state (hidden parts too) as JSON-serialisable data."""
        return {"game": self.id, "state": {f.name: _encode(getattr(s, f.name)) for f in dataclasses.fields(s)}}

    def from_json(self, data: Any) -> Any:
        """Returns the state described by ``to_json`` data; raises InvalidStateError."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError as e:
                raise InvalidStateError(f"state JSON does not parse: {e}") from None
        if not isinstance(data, dict) or data.get("game") != self.id or not isinstance(data.get("state"), dict):
            raise InvalidStateError(
                f"not a {self.id} state: expected {{'game': {self.id!r}, 'state': {{...}}}}",
            )
        fields = [f.name for f in dataclasses.fields(self.State)]
        body = data["state"]
        missing = [f for f in fields if f not in body]
        extra = [k for k in body if k not in fields]
        if missing or extra:
            raise InvalidStateError(
                f"{self.id} state fields wrong: missing {missing}, unknown {extra}; expected {fields}"
            )
        try:
            s = self.State(**{f: _decode(body[f]) for f in fields})
            self.validate_state(s)
        except InvalidStateError:
            raise
        except (TypeError, ValueError, IndexError, KeyError) as e:
            raise InvalidStateError(f"{self.id} state is not valid: {e}") from None
        return s

    def validate_state(self, s: Any) -> None:
        """Raises InvalidStateError (or ValueError) when ``s`` breaks the game's invariants."""


def _declared(method: Any, missing: Any) -> Any:
    """Returns ``method()``, or ``missing`` for a game that does not declare it yet.

    The conformance suite fails a game whose declarations are missing.
    """
    try:
        return method()
    except NotImplementedError:
        return missing


def _encode(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_encode(x) for x in v]
    return v


def _decode(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_decode(x) for x in v)
    if isinstance(v, dict):
        raise ValueError("nested objects are not part of a state")
    return v


def _norm(text: str) -> str:
    return " ".join(text.strip().lower().split())


def check_options(cls: type[Game], players: int | None, options: Mapping[str, Any]) -> tuple[int, dict]:
    """Returns the validated player count and option values for ``cls``."""
    from .errors import InvalidPlayersError

    if players is None:
        players = cls.min_players
    if isinstance(players, str) and players.strip().isdigit():
        players = int(players)
    if not isinstance(players, int) or isinstance(players, bool) or not (
        cls.min_players <= players <= cls.max_players
    ):
        span = (
            f"{cls.min_players}" if cls.min_players == cls.max_players else f"{cls.min_players} to {cls.max_players}"
        )
        raise InvalidPlayersError(
            f"{cls.name} is for {span} players, not {players!r}",
            players=repr(players),
            allowed=list(range(cls.min_players, cls.max_players + 1)),
        )
    known = {o.name: o for o in cls.options}
    values = {}
    for key, value in options.items():
        opt = known.get(key.replace("-", "_"))
        if opt is None:
            names = ", ".join(sorted(known)) or "none"
            raise InvalidOptionError(
                f"{cls.name} has no option {key!r}; its options: {names}",
                option=key,
                allowed=sorted(known),
            )
        values[opt.name] = opt.coerce(value)
    return players, values
