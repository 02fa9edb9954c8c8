"""The conformance suite: random games that check every invariant of the contract.

``check_game(game)`` plays seeded random games; ``play_checked_game(game,
chooser)`` plays one game with any chooser (a seeded stream, or hypothesis
data so that a failure shrinks to a short game). Each step checks:

- termination within ``info.max_game_length`` actions;
- legal actions non-empty, sorted, unique ints at decision nodes (for every
  acting player at a simultaneous node), and none at the end;
- chance outcomes positive, unique, summing to 1;
- ``apply`` never changes its input (every state's JSON hash is kept and
  checked again at the end);
- ``play`` raises ``IllegalActionError`` for actions legal elsewhere but not
  here, ``InvalidActionError`` for malformed text, ``NotYourTurnError`` for a
  player who may not act, and leaves the state unchanged;
- ``from_json(to_json(s)) == s`` through real JSON text; notation round trips
  and is unique among the legal actions;
- returns of the right length within ``[min_return, max_return]``;
- views are JSON data; for every player, ``view(sample_hidden(s, p, r), p) ==
  view(s, p)``; the player's legal actions are the same in the sample; the
  sample depends only on the view (sampling from a sample with the same
  stream gives the same state); and in a game with hidden information each
  player's samples do differ from the true state at some point;
- a replay of the actions through a ``Record`` rebuilds the final state, and
  the same seed gives the same game;
- the research surface: ``info.num_distinct_actions`` is declared and every
  legal action lies in ``0..num_distinct_actions-1``, chance outcomes in
  ``0..max_chance_outcomes-1``; ``legal_actions_mask`` marks exactly the legal
  actions; ``apply`` raises ``InvalidActionError`` for an action outside the
  range (or a chance outcome not offered) and leaves its input unchanged;
  ``observation_tensor`` has ``prod(observation_shape)`` finite floats and,
  like ``information_state_string``, is a function of the view: a state
  sampled for a player gives that player the same tensor and string, and two
  states whose views differ give different strings;
- at the end, ``outcome`` names winners and a reason in text, and ``figures``
  gives one value per seat for each declared figure.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .api import CHANCE, SIMULTANEOUS, TERMINAL, Game
from .errors import (
    ActionError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    NotYourTurnError,
)
from .match import sample_chance
from .records import Record

__all__ = [
    "ConformanceError",
    "GameReport",
    "HypothesisChooser",
    "SeededChooser",
    "check_game",
    "play_checked_game",
]


class ConformanceError(AssertionError):
    """An invariant of the contract does not hold; the message says which and where."""


class SeededChooser:
    """Chooses with a seeded ``random.Random``; chance follows the probabilities."""

    def __init__(self, seed: Any) -> None:
        self.rng = random.Random(seed)

    def index(self, n: int) -> int:
        return self.rng.randrange(n)

    def chance(self, outcomes: list[tuple[int, float]]) -> int:
        return sample_chance(outcomes, self.rng)


class HypothesisChooser:
    """Chooses with hypothesis ``data.draw`` so that failures shrink to short games.

    The first ``max_draws`` choices come from hypothesis; after that a stream
    seeded by hypothesis goes on, so long games stay within its data budget.
    """

    def __init__(self, data: Any, max_draws: int = 150) -> None:
        from hypothesis import strategies as st

        self._st = st
        self.data = data
        self.left = max_draws
        self.rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))

    def index(self, n: int) -> int:
        if n == 1:
            return 0
        if self.left > 0:
            self.left -= 1
            return self.data.draw(self._st.integers(0, n - 1))
        return self.rng.randrange(n)

    def chance(self, outcomes: list[tuple[int, float]]) -> int:
        return outcomes[self.index(len(outcomes))][0]


@dataclass
class GameReport:
    """What one checked game did."""

    players: int
    length: int = 0
    decisions: int = 0
    chance_nodes: int = 0
    simultaneous_nodes: int = 0
    returns: tuple[float, ...] = ()
    final_json: str = ""
    actions: list[tuple[int, int]] = field(default_factory=list)
    sampled_differs: set = field(default_factory=set)
    last_infos: dict = field(default_factory=dict)


def _digest(game: Game, s: Any) -> str:
    return hashlib.sha1(json.dumps(game.to_json(s), sort_keys=True).encode()).hexdigest()


def _fail(msg: str, game: Game, step: int, s: Any) -> None:
    where = f"[{game.id}, {game.num_players} players, step {step}]"
    try:
        state = json.dumps(game.to_json(s))[:1500]
    except Exception as e:  # noqa: BLE001
        state = f"<to_json failed: {e!r}>"
    raise ConformanceError(f"{where} {msg}\nstate: {state}")


def play_checked_game(
    game: Game,
    chooser: SeededChooser | HypothesisChooser,
    *,
    hidden_every: int = 1,
    illegal_every: int = 1,
    sample_seed: int = 0,
) -> GameReport:
    """Plays one game with ``chooser``, checking every invariant; returns its report.

    Args:
        hidden_every: check views and the hidden-information invariants at every k-th step
            (and always at the last one).
        illegal_every: try illegal moves at every k-th step.
    Raises:
        ConformanceError: an invariant does not hold.
    """
    n = game.num_players
    info = game.info
    report = GameReport(players=n)
    s = game.new_initial_state()
    kept: list[tuple[Any, str]] = []
    seen_actions: set[int] = set()
    step = 0
    while True:
        j = game.to_json(s)
        text = json.dumps(j, sort_keys=True)
        kept.append((s, hashlib.sha1(text.encode()).hexdigest()))
        back = game.from_json(json.loads(text))
        if back != s:
            _fail("from_json(to_json(s)) != s", game, step, s)
        cp = game.current_player(s)
        acting = game.acting_players(s)
        _check_views(game, s, step, 1 if cp == TERMINAL else hidden_every, sample_seed, report)
        if cp == TERMINAL:
            if not game.is_terminal(s):
                _fail("current_player is TERMINAL but is_terminal is False", game, step, s)
            if game.legal_actions(s) or acting:
                _fail("a terminal state has legal actions or acting players", game, step, s)
            try:
                game.play(s, 0)
                _fail("play on a finished game did not raise", game, step, s)
            except GameOverError:
                pass
            break
        if game.is_terminal(s):
            _fail("is_terminal is True but current_player is not TERMINAL", game, step, s)
        if step >= info.max_game_length:
            _fail(f"the game did not end within max_game_length={info.max_game_length}", game, step, s)
        if cp == CHANCE:
            outcomes = game.chance_outcomes(s)
            if not outcomes:
                _fail("a chance node has no outcomes", game, step, s)
            acts = [a for a, _ in outcomes]
            if len(set(acts)) != len(acts):
                _fail(f"chance outcomes repeat: {acts}", game, step, s)
            if any(p <= 0 for _, p in outcomes) or abs(sum(p for _, p in outcomes) - 1.0) > 1e-9:
                _fail(f"chance probabilities must be positive and sum to 1: {outcomes}", game, step, s)
            if acting:
                _fail("a chance node has acting players", game, step, s)
            _check_notation(game, s, acts, None, step)
            m = info.max_chance_outcomes
            if any(not 0 <= a < m for a in acts):
                _fail(f"chance outcomes {acts} outside 0..max_chance_outcomes-1 ({m})", game, step, s)
            if step % illegal_every == 0:
                _check_rejected_apply(game, s, [-1, m, *sorted(set(range(min(m, max(acts) + 2))) - set(acts))[:2]],
                                      None, step)
            action = chooser.chance(outcomes)
            player = None
            report.chance_nodes += 1
        else:
            if cp >= 0 and acting != (cp,):
                _fail(f"acting_players {acting} != ({cp},) at a decision node", game, step, s)
            if cp == SIMULTANEOUS:
                report.simultaneous_nodes += 1
                if not acting:
                    _fail("a simultaneous node has no acting players", game, step, s)
            elif cp < 0:
                _fail(f"current_player returned an unknown kind {cp}", game, step, s)
            legal_by: dict[int, list[int]] = {}
            for p in acting:
                legal = game.legal_actions(s, p)
                if not legal:
                    _fail(f"player {p} must act but has no legal action", game, step, s)
                if legal != sorted(set(legal)) or any(not isinstance(a, int) or a < 0 for a in legal):
                    _fail(f"legal actions of player {p} are not sorted unique non-negative ints: {legal}", game, step, s)
                _check_notation(game, s, legal, p, step)
                legal_by[p] = legal
            if cp >= 0 and game.legal_actions(s) != legal_by[cp]:
                _fail("legal_actions(s) differs from legal_actions(s, current player)", game, step, s)
            if step % illegal_every == 0:
                _check_illegal(game, s, acting, legal_by, seen_actions, kept[-1][1], step)
                _check_research(game, s, acting, legal_by, step)
            player = acting[chooser.index(len(acting))]
            legal = legal_by[player]
            action = legal[chooser.index(len(legal))]
            seen_actions.update(legal)
            report.decisions += 1
        new = game.apply(s, action, player)
        if step % max(illegal_every, 1) == 0:
            checked = game.play(s, action, player)
            if checked != new:
                _fail(f"play and apply disagree on action {action}", game, step, s)
        report.actions.append((CHANCE if player is None else player, action))
        s = new
        step += 1
    report.length = step
    ret = tuple(game.returns(s))
    if len(ret) != n:
        _fail(f"returns has {len(ret)} values for {n} players", game, step, s)
    if any(not (info.min_return - 1e-9 <= r <= info.max_return + 1e-9) for r in ret):
        _fail(f"returns {ret} outside [{info.min_return}, {info.max_return}]", game, step, s)
    if info.zero_sum and abs(sum(ret)) > 1e-9:
        _fail(f"a zero-sum game returned {ret}", game, step, s)
    if info.constant_sum is not None and abs(sum(ret) - info.constant_sum) > 1e-6:
        _fail(f"returns {ret} do not sum to the declared constant {info.constant_sum}", game, step, s)
    if info.cooperative and len(set(ret)) != 1:
        _fail(f"a co-operative game returned different values {ret}", game, step, s)
    for i, (old, digest) in enumerate(kept):
        if _digest(game, old) != digest:
            _fail(f"state {i} changed after it was used: apply or play mutated its input", game, step, old)
    _check_outcome(game, s, ret, step)
    report.returns = ret
    report.final_json = json.dumps(game.to_json(s), sort_keys=True)
    # Replaying the record rebuilds the same final state.
    rec = Record(game.id, n, dict(game.option_values), tuple(report.actions), result=ret)
    replayed = rec.replay(game)
    if replayed != s:
        _fail("replaying the record does not rebuild the final state", game, step, s)
    return report


def _check_notation(game: Game, s: Any, actions: list[int], player: int | None, step: int) -> None:
    names = [game.action_to_str(s, a) for a in actions]
    if len(set(n.lower() for n in names)) != len(names):
        _fail(f"notation is not unique among legal actions: {names}", game, step, s)
    for a, name in zip(actions, names):
        if not isinstance(name, str) or not name:
            _fail(f"action {a} has no notation", game, step, s)
        back = game.parse_action(s, name, player)
        if back != a:
            _fail(f"parse_action({name!r}) = {back}, expected {a}", game, step, s)


def _check_illegal(
    game: Game,
    s: Any,
    acting: tuple[int, ...],
    legal_by: dict[int, list[int]],
    seen: set[int],
    digest: str,
    step: int,
) -> None:
    p = acting[0]
    legal = set(legal_by[p])
    others = sorted(a for a in seen if a not in legal)[:3]
    for a in others:
        try:
            game.play(s, a, p)
            _fail(f"play accepted action {a}, which is not legal for player {p}", game, step, s)
        except IllegalActionError as e:
            if not str(e):
                _fail("IllegalActionError has no message", game, step, s)
    for bad in ("%% not a move %%", ""):
        try:
            game.play(s, bad, p)
            _fail(f"play accepted malformed text {bad!r}", game, step, s)
        except InvalidActionError:
            pass
        except ActionError as e:
            _fail(f"malformed text {bad!r} raised {type(e).__name__}, expected InvalidActionError", game, step, s)
    idle = [q for q in range(game.num_players) if q not in acting]
    if idle:
        try:
            game.play(s, legal_by[p][0], idle[0])
            _fail(f"player {idle[0]} could act out of turn", game, step, s)
        except NotYourTurnError:
            pass
    if _digest(game, s) != digest:
        _fail("a rejected move changed the state", game, step, s)


def _check_rejected_apply(game: Game, s: Any, bad: list[int], player: int | None, step: int) -> None:
    for a in bad:
        try:
            game.apply(s, a, player)
        except InvalidActionError as e:
            if not str(e):
                _fail("InvalidActionError from apply has no message", game, step, s)
        except Exception as e:  # noqa: BLE001 - any other exception is the failure reported
            _fail(f"apply({a}) raised {type(e).__name__}: {e}, expected InvalidActionError", game, step, s)
        else:
            _fail(f"apply accepted action {a}, outside the declared ranges", game, step, s)
    # (that the input is unchanged is checked with every kept state's digest at the end of the game)


def _check_research(game: Game, s: Any, acting: tuple[int, ...], legal_by: dict[int, list[int]], step: int) -> None:
    size = game.info.num_distinct_actions
    if size <= 0:
        _fail("num_distinct_actions is not declared", game, step, s)
    for p in acting:
        legal = legal_by[p]
        if legal[-1] >= size:
            _fail(f"legal action {legal[-1]} of player {p} is outside 0..{size - 1}", game, step, s)
        mask = game.legal_actions_mask(s, p)
        if len(mask) != size or [a for a, m in enumerate(mask) if m] != legal:
            _fail(f"legal_actions_mask of player {p} does not mark exactly the legal actions", game, step, s)
    _check_rejected_apply(game, s, [-1, size, size + 17], acting[0], step)


def _check_outcome(game: Game, s: Any, ret: tuple[float, ...], step: int) -> None:
    out = game.outcome(s)
    try:
        out = json.loads(json.dumps(out))
    except (TypeError, ValueError) as e:
        _fail(f"outcome is not JSON data: {e}", game, step, s)
    if not isinstance(out, dict) or not isinstance(out.get("text"), str) or not out["text"]:
        _fail(f"outcome has no text: {out!r}", game, step, s)
    if not isinstance(out.get("reason"), str) or not out["reason"]:
        _fail(f"outcome has no reason code: {out!r}", game, step, s)
    winners = out.get("winners")
    if not isinstance(winners, list) or any(not isinstance(w, int) or not 0 <= w < game.num_players for w in winners):
        _fail(f"outcome winners must be a list of seats: {out!r}", game, step, s)
    if winners and not game.info.cooperative and max(ret) > min(ret):
        best = max(ret)
        if any(ret[w] != best for w in winners):
            _fail(f"outcome winners {winners} do not have the best return in {ret}", game, step, s)
    figs = game.figures(s)
    if set(figs) != set(game.info.figures):
        _fail(f"figures {sorted(figs)} differ from the declared {list(game.info.figures)}", game, step, s)
    for name, vals in figs.items():
        if len(vals) != game.num_players or any(not isinstance(v, (int, float)) for v in vals):
            _fail(f"figure {name} must have one number per seat: {vals!r}", game, step, s)


def _tensor(game: Game, s: Any, p: int, step: int) -> list[float]:
    t = game.observation_tensor(s, p)
    want = 1
    for d in game.info.observation_shape:
        want *= d
    if not game.info.observation_shape or len(t) != want:
        _fail(f"observation_tensor of player {p} has {len(t)} values; shape {game.info.observation_shape}",
              game, step, s)
    try:  # one C loop: a value that is no number raises, an infinite or NaN one makes the sum so
        finite = math.isfinite(math.fsum(t))
    except (TypeError, ValueError, OverflowError):
        finite = False
    if not finite:
        _fail(f"observation_tensor of player {p} holds a value that is not a finite number", game, step, s)
    return list(t)


def _check_views(game: Game, s: Any, step: int, every: int, seed: int, report: GameReport) -> None:
    if step % every:
        return
    n = game.num_players
    views = {}
    for p in [*range(n), None]:
        v = game.view(s, p)
        if not isinstance(v, dict):
            _fail(f"view for {p} is not a dict", game, step, s)
        try:
            views[p] = json.loads(json.dumps(v))
        except (TypeError, ValueError) as e:
            _fail(f"view for {p} is not JSON data: {e}", game, step, s)
    tensors = {p: _tensor(game, s, p, step) for p in range(n)}
    infos = {p: game.information_state_string(s, p) for p in range(n)}
    if any(not isinstance(x, str) or not x for x in infos.values()):
        _fail("information_state_string must be a non-empty string", game, step, s)
    for p in range(n):
        for q in range(p + 1, n):
            if (views[p] == views[q]) != (infos[p] == infos[q]):
                _fail(f"information_state_string of players {p} and {q} disagree with their views "
                      "(equal views must give equal strings, different views different ones)", game, step, s)
    try:
        infos[None] = game.information_state_string(s, None)
    except Exception as e:  # noqa: BLE001 - reported as the failure
        _fail(f"information_state_string(s, None) raised {type(e).__name__}: {e}; the contract (docs/contract.md): "
              "player None is the spectator, whose string is a function of view(s, None)", game, step, s)
    prev = report.last_infos
    for p in [*range(n), None]:
        if p in prev and (prev[p][0] == views[p]) != (prev[p][1] == infos[p]):
            _fail(f"information_state_string of player {p} changed while the view did not, or the reverse",
                  game, step, s)
    report.last_infos = {p: (views[p], infos[p]) for p in [*range(n), None]}
    if game.info.perfect_information:
        return
    acting = game.acting_players(s)
    for p in range(n):
        k = seed * 1_000_003 + step * 31 + p
        t = game.sample_hidden(s, p, random.Random(k))
        vt = json.loads(json.dumps(game.view(t, p)))
        if vt != views[p]:
            diff = [key for key in set(vt) | set(views[p]) if vt.get(key) != views[p].get(key)]
            _fail(f"view of player {p} differs in a sampled state, at keys {sorted(map(str, diff))}", game, step, s)
        if _tensor(game, t, p, step) != tensors[p]:
            diff = [i for i, (x, y) in enumerate(zip(_tensor(game, t, p, step), tensors[p])) if x != y][:10]
            _fail(f"observation_tensor of player {p} differs in a state sampled for them (indices {diff}): "
                  "it reads something the view does not show", game, step, s)
        if game.information_state_string(t, p) != infos[p]:
            _fail(f"information_state_string of player {p} differs in a state sampled for them", game, step, s)
        if game.from_json(json.loads(json.dumps(game.to_json(t)))) != t:
            _fail(f"a state sampled for player {p} does not round-trip through JSON", game, step, t)
        if game.current_player(t) != game.current_player(s):
            _fail(f"a state sampled for player {p} has another current player", game, step, s)
        if p in acting and game.legal_actions(t, p) != game.legal_actions(s, p):
            _fail(f"player {p}'s legal actions differ in a state sampled for them", game, step, s)
        again = game.sample_hidden(t, p, random.Random(k))
        if again != t:
            _fail(
                f"sample_hidden for player {p} depends on more than the view: sampling from a sample with the "
                "same stream gave another state",
                game,
                step,
                s,
            )
        if t != s:
            report.sampled_differs.add(p)


def check_game(
    game: Game,
    seeds: Iterable[int] = range(200),
    *,
    hidden_every: int = 1,
    illegal_every: int = 1,
    hidden_must_differ: bool = True,
) -> list[GameReport]:
    """Plays one checked random game per seed, and each seed twice for determinism.

    Returns the reports; raises ConformanceError at the first broken invariant.
    """
    reports = []
    seeds = list(seeds)
    differs: set = set()
    for seed in seeds:
        r = play_checked_game(game, SeededChooser(seed), hidden_every=hidden_every, illegal_every=illegal_every, sample_seed=seed)
        reports.append(r)
        differs |= r.sampled_differs
    if seeds:
        again = play_checked_game(game, SeededChooser(seeds[0]), hidden_every=10**9, illegal_every=10**9)
        if again.final_json != reports[0].final_json or again.actions != reports[0].actions:
            raise ConformanceError(f"[{game.id}] the same seed {seeds[0]} gave two different games")
    if hidden_must_differ and not game.info.perfect_information and seeds:
        missing = [p for p in range(game.num_players) if p not in differs]
        if missing:
            raise ConformanceError(
                f"[{game.id}] the game declares hidden information, but no sampled state ever differed "
                f"from the true one for players {missing}"
            )
    return reports
