"""A ``Match``: one game in play, held with authority.

The match holds the true state, a seeded ``random.Random`` for chance nodes,
the log of every action and one agent (or None, for a human) per seat. An
agent never receives the state: it receives an ``Observation`` with its
seat's view, its legal actions and a sampler of full states consistent with
that view, drawn with the agent's own random stream.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .api import CHANCE, SIMULTANEOUS, TERMINAL, Game
from .errors import GameError, GameOverError, NotYourTurnError, RecordError
from .records import Record

__all__ = ["Agent", "LogEntry", "Match", "Observation", "sample_chance"]


def sample_chance(outcomes: Sequence[tuple[int, float]], rng: random.Random) -> int:
    """Returns one outcome of a chance node, drawn with ``rng``."""
    r = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += p
        if r < acc:
            return action
    return outcomes[-1][0]


class Observation:
    """What one seat may know when it must act: all an agent is given.

    Attributes:
        game: the rules (they hold no state).
        player: the seat.
        view: ``game.view(state, player)``.
        legal_actions: the seat's legal actions.
        rng: the agent's own random stream.
    """

    __slots__ = ("game", "player", "view", "legal_actions", "rng", "_sampler")

    def __init__(
        self,
        game: Game,
        player: int,
        view: dict,
        legal_actions: list[int],
        sampler: Callable[[random.Random], Any],
        rng: random.Random,
    ) -> None:
        self.game = game
        self.player = player
        self.view = view
        self.legal_actions = legal_actions
        self.rng = rng
        self._sampler = sampler

    def sample(self, rng: random.Random | None = None) -> Any:
        """Returns a full state consistent with the view (a determinisation)."""
        return self._sampler(rng if rng is not None else self.rng)


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(observation) -> action``.

    An agent may also follow the play between its turns: when it has ``listens(game)``
    returning True, the match calls ``inform(observation, player, action)`` after every
    action, with the seat's observation of the state before it, who acted (CHANCE for
    chance) and the action when the game's decisions are public (``Game.public_moves``;
    None otherwise, and always for chance).
    """

    def act(self, obs: Observation) -> int: ...


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One action in a match: who took it (CHANCE for chance), the action and its notation."""

    player: int
    action: int
    text: str


class Match:
    """One game in play: the true state, seeded chance, the log and the seats' agents.

    Args:
        game: the rules.
        agents: one per seat; None marks a seat whose moves come through ``play``.
        seed: seeds the match's chance stream and, derived from it, each agent's stream.
    """

    def __init__(self, game: Game, agents: Sequence[Agent | None] | None = None, seed: int | None = None) -> None:
        self.game = game
        n = game.num_players
        self.agents: list[Agent | None] = list(agents) if agents is not None else [None] * n
        if len(self.agents) != n:
            raise ValueError(f"{game.name} with {n} players needs {n} agents, got {len(self.agents)}")
        self.seed = seed if seed is not None else random.randrange(2**63)
        self.rng = random.Random(self.seed)
        self.agent_rngs = [random.Random(f"{self.seed}/agent/{i}") for i in range(n)]
        self._state = game.new_initial_state()
        self.log: list[LogEntry] = []
        self._views_log: list[tuple[Any, int, int]] = []  # (state before, player, action)
        self._seat_logs: dict[int | None, tuple[int, list[str]]] = {}
        # Agents that follow the play (``listens(game)`` true): told of each action by ``inform``.
        self._listeners = [(seat, a) for seat, a in enumerate(self.agents) if self._follows(a)]

    # ---- what anyone may ask ---------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.game.current_player(self._state)

    @property
    def acting_players(self) -> tuple[int, ...]:
        return self.game.acting_players(self._state)

    def is_over(self) -> bool:
        return self.game.is_terminal(self._state)

    def returns(self) -> tuple[float, ...]:
        return tuple(self.game.returns(self._state))

    def view(self, player: int | None) -> dict:
        """Returns the view of ``player`` (None: a spectator)."""
        return self.game.view(self._state, player)

    def legal_actions(self, player: int) -> list[int]:
        if player not in self.game.acting_players(self._state):
            return []
        return self.game.legal_actions(self._state, player)

    def action_to_str(self, action: int) -> str:
        return self.game.action_to_str(self._state, action)

    def log_for(self, observer: int | None) -> list[str]:
        """Returns the log as ``observer`` may read it (secrets hidden)."""
        done, out = self._seat_logs.get(observer, (0, []))
        for s, p, a in self._views_log[done:]:
            text = self.game.observe_action(s, a, p, observer)
            if text is not None:
                out.append(text)
        self._seat_logs[observer] = (len(self._views_log), out)
        return list(out)

    def observation(self, player: int) -> Observation:
        """Returns what ``player`` is given to decide: never the true state."""
        return self._observation(self._state, player)

    def _observation(self, state: Any, player: int) -> Observation:
        game = self.game
        # The sampler starts from a state already resampled for this seat, so not even
        # its closure holds the true hidden parts. Samples depend only on the view (the
        # conformance suite checks it), so they are the same as from the true state.
        base = game.sample_hidden(state, player, random.Random(f"{self.seed}/observe/{player}"))
        return Observation(
            game,
            player,
            game.view(state, player),
            game.legal_actions(state, player),
            lambda rng: game.sample_hidden(base, player, rng),
            self.agent_rngs[player],
        )

    def tell(self, agent: Any, seat: int, start: int = 0) -> int:
        """Informs ``agent`` (of ``seat``) of the actions from ``start`` on, as ``_push`` would have;
        returns how many actions it now knows. For agents made after the play began (a server's
        bots, made again after a restart): nothing the seat saw is lost. A no-op for agents
        that do not follow the play."""
        end = len(self._views_log)
        if self._follows(agent):
            for s, player, action in self._views_log[start:end]:
                self._inform(agent, seat, s, player, action)
        return end

    def _follows(self, agent: Any) -> bool:
        listens = getattr(agent, "listens", None)
        return listens is not None and bool(listens(self.game))

    def _inform(self, agent: Any, seat: int, s: Any, player: int, action: int) -> None:
        """Tells ``agent`` of one action as ``seat`` saw it: its observation before it, who
        acted, and the action where the game makes decisions public (never a chance outcome:
        a drawn card is not the seat's to see)."""
        told = action if player >= 0 and self.game.public_moves else None
        agent.inform(self._observation(s, seat), player, told)

    @property
    def state(self) -> Any:
        """The true state. Only the authority (server, tests, records) reads it; never an agent."""
        return self._state

    # ---- moving ----------------------------------------------------------------
    def play(self, action_or_text: int | str, player: int | None = None) -> int:
        """Plays a checked move for ``player``; returns the action. Raises the game's errors."""
        s = self._state
        cp = self.game.current_player(s)
        if cp == CHANCE:
            raise NotYourTurnError("the game is waiting for a chance outcome, which the match draws")
        if player is None and cp >= 0:
            player = cp
        action = action_or_text
        if isinstance(action_or_text, str) and cp != TERMINAL:
            action = self.game.parse_action(s, action_or_text, player)
        new = self.game.play(s, action, player)
        self._push(s, player, action, new)
        return action

    def _push(self, s: Any, player: int, action: int, new: Any) -> None:
        self.log.append(LogEntry(player, action, self.game.action_to_str(s, action)))
        self._views_log.append((s, player, action))
        self._state = new
        for seat, agent in self._listeners:
            self._inform(agent, seat, s, player, action)

    def step_chance(self) -> int:
        """Draws and applies one chance outcome with the match's stream."""
        s = self._state
        action = sample_chance(self.game.chance_outcomes(s), self.rng)
        self._push(s, CHANCE, action, self.game.apply(s, action))
        return action

    def step(self) -> bool:
        """Advances by one action if chance or an agent is to act; returns False when waiting for a human."""
        s = self._state
        cp = self.game.current_player(s)
        if cp == TERMINAL:
            raise GameOverError("the match is over")
        if cp == CHANCE:
            self.step_chance()
            return True
        players = (cp,) if cp >= 0 else self.game.acting_players(s)
        for p in players:
            agent = self.agents[p]
            if agent is not None:
                action = agent.act(self.observation(p))
                self.play(action, p)
                return True
        return False

    def run(self, max_steps: int | None = None) -> bool:
        """Steps until the end or a human seat must act; returns True when over."""
        limit = max_steps if max_steps is not None else self.game.info.max_game_length + 1
        for _ in range(limit):
            if self.is_over():
                return True
            if not self.step():
                return False
        return self.is_over()

    # ---- records ---------------------------------------------------------------
    def record(self, **meta: Any) -> Record:
        """Returns the game record: every action with its player, chance included."""
        return Record(
            game=self.game.id,
            players=self.game.num_players,
            options=dict(self.game.option_values),
            actions=tuple((e.player, e.action) for e in self.log),
            texts=tuple(e.text for e in self.log),
            result=self.returns() if self.is_over() else None,
            seed=self.seed,
            meta=dict(meta),
        )

    @classmethod
    def from_record(cls, record: Record, agents: Sequence[Agent | None] | None = None,
                    game: Game | None = None) -> Match:
        """Returns the match a record left off, ready to go on: an unfinished game resumed.

        The match is rebuilt with the record's seed and its actions replayed in order:
        each chance outcome is drawn again from the match's stream and checked against the
        record's, so the game goes on with the same stream as if it had never stopped.
        Agents that follow the play are told of every replayed action.

        Raises:
            RecordError: the record has no seed, an action does not replay, or a chance
                outcome differs from the record's (another seed, or other rules).
        """
        if record.seed is None:
            raise RecordError("the record has no seed, so its chance stream cannot go on; "
                              "only a record saved by a match (with its seed) can be resumed")
        game = game or record.make_game()
        m = cls(game, agents, seed=record.seed)
        for p, a in record.actions:
            m.replay_action(p, a)
        return m

    def replay_action(self, player: int, action: int) -> None:
        """Plays one recorded action (a record's, or a server's stored one) on this match.

        A chance outcome is drawn again from the match's stream and must equal the
        recorded one (the state is unchanged when it does not); any other action is played
        with the game's checks.

        Raises:
            RecordError: naming the action's place in the log, when the game waits for
                someone else, chance draws another outcome, or the move is refused.
        """
        i = len(self.log)
        s = self._state
        if player == CHANCE:
            if self.game.current_player(s) != CHANCE:
                raise RecordError(f"record action {i} is a chance outcome ({action}), but the game "
                                  f"waits for player {self.current_player} there")
            got = sample_chance(self.game.chance_outcomes(s), self.rng)
            if got != action:
                raise RecordError(f"record action {i}: chance draws {got} again where the record has "
                                  f"{action}; it was not played with seed {self.seed} by these rules")
            self._push(s, CHANCE, got, self.game.apply(s, got))
            return
        try:
            self.play(action, player)
        except GameError as e:
            raise RecordError(f"record action {i} ({player}, {action}) does not replay: {e}") from None

    @property
    def history(self) -> list[tuple[int, int]]:
        return [(e.player, e.action) for e in self.log]

    def is_simultaneous(self) -> bool:
        return self.game.current_player(self._state) == SIMULTANEOUS
