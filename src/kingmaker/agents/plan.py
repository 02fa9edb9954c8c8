"""The turn planner (``plan``): the game's heuristic, its style for the turn chosen by rollouts.

A game whose heuristic has more than one way to play declares them (the contract's
``heuristic_styles``; the first is the heuristic's default). At a decision where the
styles would act differently, the planner draws ``samples`` determinisations of its
seat's view (``obs.sample``) and from each plays every style for its seat until another
player decides (the rest of the turn), then the default heuristic for every seat to the
end of the game, with the same determinisation and the same rollout stream for every
style (common random numbers: the styles are compared on the same futures). It plays the
style whose rollouts scored best; a tie goes to the earlier style, so the default wins
ties. Where every style acts alike (most decisions), it plays that action at once, with
no rollout.

A rollout scores the seat's return; in a co-operative game also ``progress`` times the
game's ``bot.progress`` (the team's way to the win, 0 to 1), so that rollouts that all
end in defeat still tell the styles apart. The agent reads only its observation (the
determinisations are the view's); with its random stream a decision depends only on the
view and the style it keeps for the turn. It keeps one only while it follows the play: an
agent that is not told of the actions between its decisions plans each one afresh.

Why: in Gangs of Green City at four players the team loses most games with the cards it
needs in the wrong hands. The heuristic's ``meet`` style walks to the meeting that brings
a collector its last card before any battle; played every turn it loses the city to the
gangs, but chosen by rollouts, turn by turn, it wins more games than the heuristic at a
small part of the search team's CPU (docs/agents.md, "The turn planner").

Spec: ``plan[:level][/key=value...]``, levels ``easy`` (8 samples), ``normal`` (20),
``hard`` (60), ``expert`` (150); keys ``samples``, ``progress`` (default 0.2), ``styles``
(the styles to choose among, joined by ``+``, the default first; all the game's by default),
``horizon``:
``turn`` (the default) plays the style for the seat's turn in each rollout, ``round`` for
every seat until the seat decides again after another has (a team that keeps one plan a
round; in Gangs of Green City at four players it won less, docs/agents.md); ``turns``
(default 3, since 2026-12-07; with ``horizon=turn``, and 1 with ``round``): the style plays
the seat's next ``turns`` turns in each rollout, the other seats the default meanwhile (a plan
kept for longer than a turn, as a walk to a far meeting is; a turn ends when another player
decides; at four players in Gangs of Green City 3 won 106 of 200 deals where 1 won 95, at two
and three as many as 1, docs/agents.md); and ``credit``:
``ended`` (the default) credits ``bot.progress``, ``cards`` the finer ``bot.progress_cards``
where the game's bot gives it (Gangs of Green City: also the collectors' share of the cards
still needed; it changed almost no choice, docs/agents.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from ..core.api import CHANCE, Game
from ..core.errors import BadRequestError, GameError
from ..core.match import Observation, sample_chance
from . import register_agent

__all__ = ["PLAN_LEVELS", "PlanAgent", "PlanConfig"]


@dataclass(frozen=True)
class PlanConfig:
    """The planner's settings: determinisations a decision, and the co-operative progress credit."""

    samples: int = 20
    progress: float = 0.2
    horizon: str = "turn"
    credit: str = "ended"
    styles: tuple[str, ...] = ()  # () for all the game's styles
    turns: int = 3  # the seat's turns a style plays in a rollout (``horizon=turn``; 1 with ``round``)


HORIZONS = ("turn", "round")
# The progress credits: the game's ``bot.progress`` (``ended``) or a finer measure the game's bot
# may give (``cards``: ``bot.progress_cards``).
CREDITS = {"ended": "progress", "cards": "progress_cards"}
PLAN_LEVELS = {"easy": PlanConfig(samples=8), "normal": PlanConfig(samples=20), "hard": PlanConfig(samples=60),
               "expert": PlanConfig(samples=150)}


class PlanAgent:
    """Chooses the heuristic's style by rollouts where the styles differ (module docstring)."""

    def __init__(self, game: Game, config: PlanConfig | None = None, name: str = "plan") -> None:
        styles = tuple(getattr(game, "heuristic_styles", ()))
        if len(styles) < 2:
            from ..core.registry import available_games, game_class

            have = [g for g in available_games() if len(game_class(g).heuristic_styles) > 1]
            raise GameError(f"the turn planner chooses among a heuristic's styles; {game.name}'s heuristic "
                            f"plays one way (games whose heuristic has styles: {', '.join(have) or 'none'}; "
                            "elsewhere use ismcts or heuristic)", game=game.id, allowed=have)
        self.config = config or PLAN_LEVELS["normal"]
        if self.config.styles:
            unknown = [st for st in self.config.styles if st not in styles]
            if unknown or self.config.styles[0] != styles[0] or len(set(self.config.styles)) < 2:
                raise BadRequestError(f"plan styles must be {styles[0]} and at least one other of {game.name}'s "
                                      f"styles, joined by '+' (its styles: {', '.join(styles)}); not "
                                      f"{'+'.join(self.config.styles)!r}", game=game.id, allowed=list(styles))
            styles = self.config.styles
        self.name = name
        self.styles = styles
        fn = game.bot.heuristic_action  # (the default style: called as without one)
        self._acts: tuple[Callable[..., int], ...] = (fn, *(partial(fn, style=st) for st in styles[1:]))
        bot_progress = getattr(game.bot, CREDITS[self.config.credit], None)
        if bot_progress is None and self.config.credit != "ended" and game.info.cooperative:
            have = [c for c, fn in CREDITS.items() if hasattr(game.bot, fn)]
            raise BadRequestError(f"{game.name}'s bot gives no {self.config.credit!r} credit (it gives: "
                                  f"{', '.join(have) or 'none'})", game=game.id, allowed=have)
        self._progress = bot_progress if game.info.cooperative and self.config.progress else None

    def listens(self, game: Game) -> bool:
        """Follows the play (the match's ``inform``), to keep a style for the rest of a turn."""
        return True

    def inform(self, obs: Observation, player: int, action: int | None) -> None:
        self._heard = True
        if player >= 0 and player != obs.player:
            self._kept = None  # another player decided: the seat's turn is over

    _kept: int | None = None  # the style chosen for the seat's turn, while it lasts
    _heard = False  # told of an action since its last decision (else it cannot tell the turn)

    def act(self, obs: Observation) -> int:
        game, me, rng = obs.game, obs.player, obs.rng
        legal = obs.legal_actions
        if not self._heard:
            self._kept = None  # not following the play: no style is kept
        self._heard = False
        if len(legal) == 1:
            return legal[0]
        state = obs.sample(rng)
        # The heuristic reads only the seat's view, so each style's action here is the view's.
        if self._kept is not None:  # the turn's style, kept
            return self._legal(self._acts[self._kept](game, state, me, random.Random(0)), legal, game)
        first = [act(game, state, me, random.Random(0)) for act in self._acts]
        if len(set(first)) == 1:
            return self._legal(first[0], legal, game)
        best = self._kept = self._choose(obs, rng)
        return self._legal(first[best], legal, game)

    def _choose(self, obs: Observation, rng: random.Random) -> int:
        """The style whose rollouts on ``samples`` determinisations score best (a tie to the earlier)."""
        game, me = obs.game, obs.player
        totals = [0.0] * len(self.styles)
        for _ in range(self.config.samples):
            det = obs.sample(random.Random(rng.random()))
            seed = rng.random()
            for i, act in enumerate(self._acts):
                totals[i] += self._rollout(game, det, me, act, random.Random(seed))
        return max(range(len(totals)), key=lambda i: (totals[i], -i))

    @staticmethod
    def _legal(action: int, legal: list[int], game: Game) -> int:
        if action not in legal:
            raise RuntimeError(f"{game.id} heuristic chose an illegal action {action}")
        return action

    def _rollout(self, game: Game, s: Any, me: int, style_act: Callable[..., int], rng: random.Random) -> float:
        """Plays ``style_act`` for ``me`` until another player decides (with ``turns=k``, for
        ``me``'s next k turns, the other seats the default; with ``horizon=round``, for every
        seat until ``me`` decides again after another has), then the default heuristic for all
        to the end; returns the seat's score (module docstring)."""
        default = self._acts[0]
        team = self.config.horizon == "round"
        limit = 1 if team else self.config.turns  # the seat's turns the style plays (round: for every seat)
        turn, others = 0, False  # the seat's turns begun since this one; another seat decided since the seat did
        is_terminal, current_player, apply = game.is_terminal, game.current_player, game.apply
        while not is_terminal(s):
            cp = current_player(s)
            if cp == CHANCE:
                s = apply(s, sample_chance(game.chance_outcomes(s), rng))
                continue
            for p in (cp,) if cp >= 0 else tuple(game.acting_players(s)):
                if p != me:
                    others = True
                elif others:  # the seat decides again after another seat has: its next turn
                    turn, others = turn + 1, False
                a = (style_act if turn < limit and (team or p == me) else default)(game, s, p, rng)
                s = apply(s, a, p)
        value = game.returns(s)[me]
        if self._progress is not None:
            value += self.config.progress * self._progress(game, s)
        return value


SETTINGS = ("samples", "progress", "horizon", "styles", "credit", "turns")


def _parse(level: str | None) -> PlanConfig:
    """``normal``, ``hard/samples=40``, ``samples=40``... as a ``PlanConfig``."""
    cfg = PLAN_LEVELS["normal"]
    given = set()  # the settings the text names
    for i, part in enumerate((level or "").split("/")):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            if i or part.lower() not in PLAN_LEVELS:
                raise BadRequestError(f"no planner level {part!r}; levels: {', '.join(PLAN_LEVELS)}",
                                      allowed=list(PLAN_LEVELS))
            cfg = PLAN_LEVELS[part.lower()]
            continue
        key, _, text = part.partition("=")
        key = key.strip().lower()
        if key not in SETTINGS:
            raise BadRequestError(f"the planner has no setting {key!r}; settings: {', '.join(SETTINGS)}",
                                  allowed=list(SETTINGS))
        given.add(key)
        if key == "styles":  # checked against the game's styles by the agent
            cfg = replace(cfg, styles=tuple(st.strip().lower() for st in text.split("+")))
            continue
        if key in ("horizon", "credit"):
            choices = HORIZONS if key == "horizon" else tuple(CREDITS)
            if text.strip().lower() not in choices:
                raise BadRequestError(f"plan setting {key} must be one of {', '.join(choices)}, not {text!r}",
                                      allowed=list(choices))
            cfg = replace(cfg, **{key: text.strip().lower()})
            continue
        try:
            if key in ("samples", "turns"):
                value: Any = int(text)
                if value < 1:
                    raise ValueError
            else:
                value = float(text)
                if not 0 <= value <= 1:
                    raise ValueError
        except ValueError:
            what = "a whole number of 1 or more" if key in ("samples", "turns") else "a number from 0 to 1"
            raise BadRequestError(f"plan setting {key} must be {what}, not {text!r}") from None
        cfg = replace(cfg, **{key: value})
    if cfg.horizon != "turn" and "turns" not in given:
        cfg = replace(cfg, turns=1)  # (a round's plan: the default turns are the turn horizon's)
    if cfg.turns > 1 and cfg.horizon != "turn":
        raise BadRequestError(f"plan setting turns counts the seat's turns with horizon=turn; horizon={cfg.horizon} "
                              "plays the style for a round (use turns=1 with it)", allowed=["turns=1"])
    return cfg


def _plan_factory(game: Game, level: str | None = None, **kw: Any) -> PlanAgent:
    cfg = _parse(level)
    if kw:
        cfg = replace(cfg, **kw)
    return PlanAgent(game, cfg, name=f"plan:{level or 'normal'}")


register_agent("plan", _plan_factory)
