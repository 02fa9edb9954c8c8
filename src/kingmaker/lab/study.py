"""A study: which games the lab plays, from a TOML file or from flags.

A study file (``studies/kings-kilt/seats.toml``)::

    title = "King's Kilt: seat advantage and the family deal"
    game = "kings-kilt"
    players = [2, 3, 4]               # one cell per player count ...
    agents = ["heuristic"]            # one spec per seat, rotated as in the arena
    games = 2000                      # per cell
    seed = 1

    [options]                         # fixed options of every cell
    [grid]                            # ... times every combination of these values
    family_deal = ["rulebook", "one-per-clan"]

Fields: ``game`` (required), ``players`` (an int or a list; default the
game's minimum), ``agents`` (a list or ``"ismcts:normal,heuristic"``; a short
list repeats its last spec; default heuristic), ``games`` per cell (default
100), ``seed`` (default 0), ``options``, ``grid``, ``fast`` (default true:
heuristic and random seats act on the true state, see below), ``chunk``
(games per task; default picked from the study), ``name`` (default the file
name), ``title`` and ``notes`` (text for the report), and ``decides`` (the
rule that reads the result, fixed before the games: ``Decides`` below).

Cells are every player count times every combination of the grid's values,
numbered in that order. Game ``index`` of a cell is played with
``seat_agents(agents, index)`` (the arena's rotation) and seeded from the
study's seed, the cell's key and the index only, so any game is reproducible
from (study, cell, index), whatever the backend, the chunking or the order.

``fast``: the heuristic reads only what its seat may know (each game's tests
check it), and the random bot only the legal actions, so the lab may call them
on the true state instead of a state sampled from the seat's view: the same
play, 3 to 6 times faster. Search agents always act through ``Match``
observations, as in the arena. ``fast = false`` sends every seat through
``Match``.

A bad file raises ``StudyError`` (``kingmaker.core.errors.BadRequestError``,
code ``request/invalid``) naming the field (``grid.guards``,
``agents``...) and what it accepts.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import BadRequestError, GameError

__all__ = ["Cell", "Decides", "Study", "StudyError", "cell_seed", "load_study", "parse_study", "study_from_flags"]

_FIELDS = ("name", "title", "notes", "game", "players", "agents", "games", "seed", "options", "grid", "fast", "chunk",
           "decides")
_DECIDES = ("written", "played", "at_least", "lower_above", "better_than", "p_below", "fair_share")
_TESTS = ("at_least", "lower_above", "better_than")


# A bad study is an ill-formed request: the project's BadRequestError (code
# ``request/invalid``), with the field in ``details`` and as ``.field``.
StudyError = BadRequestError


def _error(message: str, field: str | None = None, source: str | None = None) -> BadRequestError:
    """Returns the error for a bad study: the message names the source and the field."""
    where = f"{source}: " if source else ""
    what = f"field '{field}': " if field else ""
    err = BadRequestError(f"{where}{what}{message}", field=field, source=source)
    err.field = field
    return err


@dataclass(frozen=True)
class Cell:
    """One variant of a study: a player count and the options' values."""

    number: int
    players: int
    options: Mapping[str, Any]  # every option the study sets (fixed and grid)
    varied: Mapping[str, Any]  # the grid's values only

    @property
    def key(self) -> str:
        """Returns ``players=3 family_deal=rulebook``: the cell's name, stable across runs."""
        parts = [f"players={self.players}"] + [f"{k}={_fmt(v)}" for k, v in self.options.items()]
        return " ".join(parts)

    @property
    def label(self) -> str:
        """Returns a short label for tables and plots (players and the grid's values)."""
        parts = [f"{self.players}p"] + [f"{k}={_fmt(v)}" for k, v in self.varied.items()]
        return " ".join(parts)


@dataclass(frozen=True)
class Decides:
    """The rule that reads a study's result, written down before its games (a ``[decides]`` table).

    Exactly one test, applied to every cell's headline rate (the team's win rate in a
    co-operative game, else the first listed agent's) once the cell holds all its games:

    - ``at_least = x``: the rate is at least x;
    - ``lower_above = x``: the 95% Wilson interval's lower end is above x;
    - ``better_than = "DIR"``: deal by deal against the results directory DIR (a study on
      the same seed and cells, ``lab compare``), more deals better for this study than for
      DIR, with the exact sign test's p below ``p_below`` (default 0.05).

    With ``fair_share = true`` the x of the first two is a multiple of the fair share (1 /
    players: ``at_least = 1.5`` at three players is 50%). ``written`` says when the rule was
    fixed (free text, required: a rule is worth what its date is) and ``played`` how many
    games the results held then (default 0), so that a reader can tell a plan from a reading.
    """

    written: str
    played: int = 0
    at_least: float | None = None
    lower_above: float | None = None
    better_than: str | None = None
    p_below: float = 0.05
    fair_share: bool = False

    def threshold(self, players: int) -> float:
        """Returns the rate the test compares with at ``players`` (``at_least`` or ``lower_above``)."""
        x = self.at_least if self.at_least is not None else self.lower_above
        assert x is not None, "a paired rule has no threshold"
        return x / players if self.fair_share else x

    def describe(self) -> str:
        """Returns the rule in words, e.g. ``the headline rate at least 50% in every cell``."""
        unit = " times the fair share" if self.fair_share else ""
        if self.at_least is not None:
            x = f"{self.at_least:g}{unit}" if self.fair_share else f"{self.at_least:.1%}"
            return f"the headline rate at least {x} in every cell"
        if self.lower_above is not None:
            x = f"{self.lower_above:g}{unit}" if self.fair_share else f"{self.lower_above:.1%}"
            return f"the 95% interval's lower end above {x} in every cell"
        return (f"deal by deal better than {self.better_than} in every cell: more deals better for "
                f"this study, sign test p < {self.p_below:g}")

    def to_dict(self) -> dict:
        out = {k: v for k, v in asdict(self).items() if v is not None}
        if self.better_than is None:
            del out["p_below"]  # (a paired rule's only)
        return out


def _parse_decides(raw: Any, source: str | None) -> Decides:
    """Returns the ``[decides]`` table as a ``Decides``, checked key by key."""
    if not isinstance(raw, Mapping):
        raise _error("must be a table: written = \"...\" and one of " + ", ".join(_TESTS), "decides", source)
    for key in raw:
        if key not in _DECIDES:
            raise _error(f"unknown key; [decides] has: {', '.join(_DECIDES)}", f"decides.{key}", source)
    written = raw.get("written")
    if not isinstance(written, str) or not written.strip():
        raise _error("is required: when the rule was fixed, e.g. \"2026-12-07 05:40 UTC\"", "decides.written", source)
    tests = [k for k in _TESTS if k in raw]
    if len(tests) != 1:
        raise _error(f"needs exactly one test of {', '.join(_TESTS)}, not {len(tests)}", "decides", source)
    played = raw.get("played", 0)
    if isinstance(played, bool) or not isinstance(played, int) or played < 0:
        raise _error(f"must be a count of games (0 or more), not {played!r}", "decides.played", source)
    fair = raw.get("fair_share", False)
    if not isinstance(fair, bool):
        raise _error(f"must be true or false, not {fair!r}", "decides.fair_share", source)
    values: dict[str, Any] = {}
    for key in ("at_least", "lower_above", "p_below"):
        if key in raw:
            v = raw[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise _error(f"must be a number, not {v!r}", f"decides.{key}", source)
            top = float("inf") if fair and key != "p_below" else 1.0
            if not 0 < v <= top:
                raise _error(f"must lie in (0, {'1' if top == 1 else 'players'}], not {v!r}", f"decides.{key}", source)
            values[key] = float(v)
    if "better_than" in raw:
        other = raw["better_than"]
        if not isinstance(other, str) or not other.strip():
            raise _error(f"must be a results directory, not {other!r}", "decides.better_than", source)
        if fair:
            raise _error("applies to at_least and lower_above, not to better_than", "decides.fair_share", source)
        values["better_than"] = other
    elif "p_below" in raw:
        raise _error("applies to better_than only", "decides.p_below", source)
    return Decides(written=written.strip(), played=played, fair_share=fair, **values)


@dataclass(frozen=True)
class Study:
    """A validated study (see the module docstring for the fields)."""

    game: str
    players: tuple[int, ...]
    agents: tuple[str, ...]
    games: int = 100
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)
    grid: Mapping[str, tuple] = field(default_factory=dict)
    fast: bool = True
    chunk: int = 0
    name: str = "study"
    title: str = ""
    notes: str = ""
    decides: Decides | None = None

    def cells(self) -> list[Cell]:
        """Returns the cells: player counts times the grid's combinations, in that order."""
        names = list(self.grid)
        out = []
        for n in self.players:
            for combo in itertools.product(*(self.grid[k] for k in names)):
                varied = dict(zip(names, combo))
                out.append(Cell(len(out), n, {**self.options, **varied}, varied))
        return out

    def definition(self) -> dict:
        """Returns what fixes the games (not how many): equal definitions play equal games."""
        return {
            "game": self.game,
            "players": list(self.players),
            "agents": list(self.agents),
            "seed": self.seed,
            "options": {k: _fmt(v) for k, v in self.options.items()},
            "grid": {k: [_fmt(v) for v in vs] for k, vs in self.grid.items()},
            "fast": self.fast,
        }

    def fingerprint(self) -> str:
        """Returns a short hash of ``definition()``."""
        text = json.dumps(self.definition(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def to_dict(self) -> dict:
        out = {**self.definition(), "games": self.games, "chunk": self.chunk, "name": self.name,
               "title": self.title, "notes": self.notes}
        if self.decides is not None:
            out["decides"] = self.decides.to_dict()
        return out

    def with_games(self, games: int | None = None, seed: int | None = None) -> Study:
        """Returns the study with another count of games per cell or another seed."""
        from dataclasses import replace

        if games is not None and (not isinstance(games, int) or games < 1):
            raise _error(f"games per cell must be a positive integer, not {games!r}", "games")
        return replace(self, games=self.games if games is None else games, seed=self.seed if seed is None else seed)


def cell_seed(study_seed: int, cell: Cell, index: int) -> int:
    """Returns the match seed of game ``index`` of ``cell``: from the study's seed, the cell's key, the index."""
    return random.Random(f"kingmaker-lab/{study_seed}/{cell.key}/{index}").randrange(2**63)


def _fmt(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def load_study(path: str | Path) -> Study:
    """Returns the study in a TOML file.

    Raises:
        StudyError: no such file, not TOML, or a field that is missing, unknown or wrong.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise _error(f"cannot read the study file ({e.strerror})", source=str(p)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise _error(f"not valid TOML: {e}", source=str(p)) from None
    return parse_study(data, source=str(p), default_name=p.stem)


def _int(data: Mapping, key: str, default: int | None, source: str | None, minimum: int | None = None) -> int:
    value = data.get(key, default)
    if value is None:
        raise _error("is required", key, source)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _error(f"must be an integer, not {value!r}", key, source)
    if minimum is not None and value < minimum:
        raise _error(f"must be at least {minimum}, not {value}", key, source)
    return value


def _text(data: Mapping, key: str, default: str, source: str | None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise _error(f"must be text, not {value!r}", key, source)
    return value


def parse_study(data: Mapping[str, Any], source: str | None = None, default_name: str = "study") -> Study:
    """Returns the study described by ``data`` (a parsed TOML table), checked field by field.

    Raises:
        StudyError: a field that is missing, unknown or wrong; the message names it.
    """
    from ..agents import make_agent
    from ..core.registry import game_class, make

    if not isinstance(data, Mapping):
        raise _error("a study is a table of fields", source=source)
    for key in data:
        if key not in _FIELDS:
            raise _error(f"unknown field; a study has: {', '.join(_FIELDS)}", key, source)
    gid = data.get("game")
    if gid is None:
        raise _error("is required (a game id, e.g. \"kings-kilt\")", "game", source)
    if not isinstance(gid, str):
        raise _error(f"must be a game id, not {gid!r}", "game", source)
    try:
        cls = game_class(gid)
    except GameError as e:
        raise _error(e.message, "game", source) from None

    raw_players = data.get("players", cls.min_players)
    players_list = raw_players if isinstance(raw_players, list) else [raw_players]
    if not players_list:
        raise _error("needs at least one player count", "players", source)
    for n in players_list:
        if not isinstance(n, int) or isinstance(n, bool) or not cls.min_players <= n <= cls.max_players:
            raise _error(
                f"{n!r} is not a player count of {cls.name} ({cls.min_players} to {cls.max_players})",
                "players", source)
    players = tuple(dict.fromkeys(players_list))

    raw_agents = data.get("agents", ["heuristic"])
    if isinstance(raw_agents, str):
        raw_agents = [t for t in raw_agents.split(",")]
    if not isinstance(raw_agents, list) or not all(isinstance(a, str) for a in raw_agents):
        raise _error(f"must be a list of agent specs, not {raw_agents!r}", "agents", source)
    agents = tuple(a.strip() for a in raw_agents if a.strip())
    if not agents:
        raise _error("needs at least one agent spec, e.g. [\"heuristic\"]", "agents", source)
    if len(agents) > min(players):
        raise _error(f"{len(agents)} agents for {min(players)} seats; list at most one per seat",
                         "agents", source)

    known = {o.name: o for o in cls.options}

    def coerce(table: str, name: str, value: Any) -> Any:
        opt = known.get(name.replace("-", "_"))
        if opt is None:
            names = ", ".join(sorted(known)) or "none"
            raise _error(f"{cls.name} has no option {name!r}; its options: {names}", f"{table}.{name}", source)
        try:
            return opt.name, opt.coerce(value)
        except GameError as e:
            raise _error(e.message, f"{table}.{name}", source) from None

    raw_options = data.get("options", {})
    if not isinstance(raw_options, Mapping):
        raise _error("must be a table of option = value", "options", source)
    options = dict(coerce("options", k, v) for k, v in raw_options.items())
    raw_grid = data.get("grid", {})
    if not isinstance(raw_grid, Mapping):
        raise _error("must be a table of option = [values]", "grid", source)
    grid: dict[str, tuple] = {}
    for k, vs in raw_grid.items():
        if not isinstance(vs, list) or not vs:
            raise _error(f"must be a non-empty list of values, not {vs!r}", f"grid.{k}", source)
        values = [coerce("grid", k, v) for v in vs]
        name = values[0][0]
        if name in options:
            raise _error(f"option {name} is both fixed (options) and varied (grid)", f"grid.{k}", source)
        grid[name] = tuple(dict.fromkeys(v for _, v in values))

    fast = data.get("fast", True)
    if not isinstance(fast, bool):
        raise _error(f"must be true or false, not {fast!r}", "fast", source)
    study = Study(
        game=cls.id,
        players=players,
        agents=agents,
        games=_int(data, "games", 100, source, minimum=1),
        seed=_int(data, "seed", 0, source),
        options=options,
        grid=grid,
        fast=fast,
        chunk=_int(data, "chunk", 0, source, minimum=0),
        name=_text(data, "name", default_name, source),
        title=_text(data, "title", "", source),
        notes=_text(data, "notes", "", source),
        decides=_parse_decides(data["decides"], source) if "decides" in data else None,
    )
    if study.decides is not None and study.decides.fair_share and cls.cooperative:
        raise _error(f"{cls.name} is co-operative: its headline is the team's win rate, which has no fair "
                     "share; give the rate itself", "decides.fair_share", source)
    # Every cell must make a game, and every agent must exist for it.
    for cell in study.cells():
        try:
            game = make(cls.id, players=cell.players, **cell.options)
        except GameError as e:
            raise _error(f"cell {cell.key}: {e.message}", "grid", source) from None
        for spec in dict.fromkeys(agents):
            try:
                make_agent(spec, game)
            except (GameError, ValueError) as e:
                raise _error(f"{spec!r}: {e}", "agents", source) from None
    return study


def study_from_flags(
    game: str,
    players: Sequence[int] | None = None,
    agents: str | Sequence[str] = "heuristic",
    games: int = 100,
    seed: int = 0,
    options: Mapping[str, str] | None = None,
    grid: Mapping[str, Sequence[str]] | None = None,
    fast: bool = True,
    name: str | None = None,
) -> Study:
    """Returns a study built from command-line flags (checked as a file would be)."""
    data: dict[str, Any] = {"game": game, "games": games, "seed": seed, "fast": fast,
                            "agents": agents if isinstance(agents, str) else list(agents)}
    if players:
        data["players"] = list(players)
    if options:
        data["options"] = dict(options)
    if grid:
        data["grid"] = {k: list(v) for k, v in grid.items()}
    return parse_study(data, source="flags", default_name=name or game)
