"""The ``kingmaker`` command: list, rules, play, replay, bench, menu (and arena, serve)."""

from __future__ import annotations

import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .core.api import CHANCE, SIMULTANEOUS, Game
from .core.errors import GameError
from .core.match import Match
from .core.records import Record
from .core.registry import available_games, game_class, make

console = Console(highlight=False)

_ROOT = Path(__file__).resolve().parent


# ---- helpers ---------------------------------------------------------------------
def _options(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r}: write options as key=value, e.g. --option guards=8")
        out[key.strip()] = value.strip()
    return out


def render_view(game: Game, view: dict) -> Text:
    """Returns the game's text picture of a view (its render module), or the view as JSON.

    The text is plain (no rich markup), so brackets in a picture are shown as they are.
    """
    pkg = type(game).__module__.rsplit(".", 1)[0]
    try:
        mod = importlib.import_module(pkg + ".render")
    except ModuleNotFoundError:
        mod = None
    if mod is not None and hasattr(mod, "render"):
        return Text(mod.render(view))
    return Text(json.dumps(view, indent=1))


def _fail(err: GameError) -> None:
    console.print(Text.assemble(("error", "red"), f" ({err.code}): {err}"))
    sys.exit(2)


def _rulings_path(game_id: str) -> Path | None:
    for base in (_ROOT.parent.parent / "docs" / "rulings", _ROOT / "rulings"):
        p = base / f"{game_id}.md"
        if p.exists():
            return p
    return None


def _rulebook_path(cls: type[Game]) -> Path | None:
    p = _ROOT / "rulebooks" / cls.rulebook
    return p if cls.rulebook and p.exists() else None


# ---- the group ---------------------------------------------------------------------
class _LazyGroup(click.Group):
    """A group whose optional parts (arena, serve) are imported only when used."""

    lazy = {
        "arena": ("kingmaker.agents.cli", "arena"),
        "lab": ("kingmaker.lab.cli", "lab"),
        "serve": ("kingmaker.web.cli", "serve"),
        "train-expert": ("kingmaker.agents.train_expert", "command"),
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        cmd = super().get_command(ctx, name)
        if cmd is not None or name not in self.lazy:
            return cmd
        module, attr = self.lazy[name]
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as e:
            missing = e.name or module

            @click.command(name, help=f"(not available: {missing} is not installed)")
            def unavailable() -> None:
                console.print(f"[red]{name} needs {missing}[/red]; install the extra: pip install 'kingmaker[web]'")
                sys.exit(2)

            return unavailable
        return getattr(mod, attr)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="kingmaker")
def main() -> None:
    """Kingmaker: five crime-and-crown tabletop games, in the terminal and beyond."""


@main.command("list")
def list_cmd() -> None:
    """List the games with their player counts and options."""
    table = Table(title="Kingmaker games")
    for col in ("id", "name", "players", "options"):
        table.add_column(col)
    for gid in available_games():
        cls = game_class(gid)
        players = f"{cls.min_players}" if cls.min_players == cls.max_players else f"{cls.min_players}-{cls.max_players}"
        if cls.cooperative:
            players += " (co-op)"
        opts = "; ".join(f"{o.name}={'|'.join(map(_fmt, o.allowed))} (default {_fmt(o.default)})" for o in cls.options)
        table.add_row(gid, cls.name, players, opts or "-")
    console.print(table)


def _fmt(v: Any) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


@main.command()
@click.argument("game")
@click.option("--rulings-only", is_flag=True, help="Show only our rulings.")
def rules(game: str, rulings_only: bool) -> None:
    """Show a game's rulebook and our rulings."""
    try:
        cls = game_class(game)
    except GameError as e:
        _fail(e)
    book = _rulebook_path(cls)
    if not rulings_only:
        if book:
            console.print(Panel(book.read_text().strip(), title=f"{cls.name}: rulebook"))
        else:
            console.print(f"(the rulebook text for {cls.name} is not installed)")
    rul = _rulings_path(cls.id)
    if rul:
        console.print(Panel(rul.read_text().strip(), title=f"{cls.name}: rulings"))
    else:
        console.print(f"(no rulings file for {cls.name})")


@main.command()
@click.argument("game", required=False)
@click.option("--players", "-n", type=int, default=None, help="Number of players.")
@click.option("--seat", "seats", type=int, multiple=True, help="A seat played by a person here (repeat for hot-seat).")
@click.option("--bot", "bots", multiple=True, help="Bot for the other seats, in order (random, heuristic, ismcts:easy|normal|hard|expert, plan:hard...); "
              "default heuristic, which moves at once (the menu offers each game's recommended bot).")
@click.option("--seed", type=int, default=None, help="Seed of the match's chance stream.")
@click.option("--option", "-o", "opts", multiple=True, help="A game option, key=value (repeatable).")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Write the game record here at the end, or when you quit.")
@click.option("--resume", type=click.Path(dir_okay=False), default=None,
              help="Go on with the unfinished game saved in this record (its seats and bots unless given).")
def play(game: str | None, players: int | None, seats: tuple[int, ...], bots: tuple[str, ...], seed: int | None,
         opts: tuple[str, ...], save: str | None, resume: str | None) -> None:
    """Play a game in the terminal against bots, or hot-seat with friends.

    With --resume FILE, go on with a game saved by 'save' at a prompt, by quitting a game
    played with --save, or by --save at the end of an unfinished one; it is saved back to
    FILE (or to --save) when you quit or finish.
    """
    try:
        if resume:
            match, humans, specs = _resume_match(resume, game, players, seats, bots, seed, opts)
            save = save or resume
        else:
            if not game:
                raise GameError("name the game to play (kingmaker list shows them), or give --resume FILE")
            g = make(game, players=players, **_options(opts))
            humans = set(seats) if seats else {0}
            match, specs = _build_match(g, humans, bots, seed)
    except GameError as e:
        _fail(e)
    TerminalGame(match, humans=humans, save=save, bots=specs, resumed=bool(resume)).run()


def _build_match(g: Game, humans: set[int], bots: tuple[str, ...], seed: int | None,
                 record: Record | None = None) -> tuple[Match, list[str | None]]:
    """Returns the match (the record's, replayed, when given) and each seat's bot spec (None: a person)."""
    from .agents import make_agent

    for s in humans:
        if not 0 <= s < g.num_players:
            raise GameError(f"seat {s} does not exist; seats are 0 to {g.num_players - 1}")
    others = [p for p in range(g.num_players) if p not in humans]
    kinds = list(bots) or ["heuristic"]
    if len(kinds) == 1:
        kinds = kinds * len(others)
    if len(kinds) != len(others):
        raise GameError(f"{len(others)} bot seats need 1 or {len(others)} --bot values, got {len(kinds)}")
    agents: list[Any] = [None] * g.num_players
    specs: list[str | None] = [None] * g.num_players
    for p, kind in zip(others, kinds):
        agents[p] = make_agent(kind, g)
        specs[p] = kind
    if record is not None:
        return Match.from_record(record, agents, game=g), specs
    return Match(g, agents, seed=seed if seed is not None else random.randrange(10**9)), specs


def _resume_match(path: str, game: str | None, players: int | None, seats: tuple[int, ...], bots: tuple[str, ...],
                  seed: int | None, opts: tuple[str, ...]) -> tuple[Match, set[int], list[str | None]]:
    """The match of an unfinished record, with its people and bots (``play --resume``)."""
    rec = Record.load(path)
    if players is not None or seed is not None or opts:
        raise GameError("--resume goes on with the record's players, seed and options; "
                        "leave out --players, --seed and --option")
    if game and make(game).id != rec.game:
        raise GameError(f"{path} holds a game of {rec.game}, not {game}")
    if rec.result is not None:
        raise GameError(f"the game in {path} is over; watch it with: kingmaker replay {path}")
    g = rec.make_game()
    # What ``TerminalGame._save`` wrote: the people's seats and each seat's bot (None: a person).
    told, stored = rec.meta.get("humans"), rec.meta.get("seats")
    humans = set(seats) or (set(told) if isinstance(told, list) and told else {0})
    if not bots and isinstance(stored, list) and len(stored) == g.num_players:
        # the stored bots of the seats that are bots now, unless one was a person's
        bots = tuple(spec for p, spec in enumerate(stored) if p not in humans)
        if None in bots:
            bots = ()
    match, specs = _build_match(g, humans, bots, None, record=rec)
    return match, humans, specs


GROUP_ABOVE = 30  # a move list longer than this is shown grouped by its first word


class TerminalGame:
    """Runs a match in the terminal: bots move by themselves, people type moves.

    Between two of a person's decisions it shows every event since the previous
    one, as that person may see it (``match.log_for``), with a blank line
    between turns. A turn is a run of decisions by one player (or one
    simultaneous choice) with the chance events that follow them.
    """

    def __init__(self, match: Match, humans: set[int], save: str | None = None, inp=input,
                 bots: list[str | None] | None = None, resumed: bool = False) -> None:
        self.match = match
        self.game = match.game
        self.humans = humans
        self.save = save
        self.input = inp
        # Each seat's bot spec (None: a person), kept in saved records for --resume.
        self.bots = bots
        self.resumed = resumed
        self.last_viewer: int | None = None
        # Per observer (each person, and None for the spectator's final screen): how much
        # of their log was shown, and where in it each turn begins.
        self.observers: list[int | None] = [*sorted(humans), None]
        self.seen_log: dict[int | None, int] = {}
        self.turn_starts: dict[int | None, set[int]] = {o: set() for o in self.observers}
        self._last_turn: Any = None
        self._last_was_chance = False

    def run(self) -> None:
        m = self.match
        console.print(f"[bold]{self.game.name}[/bold], {self.game.num_players} players, seed {m.seed}. "
                      f"You: {', '.join(f'player {h}' for h in sorted(self.humans))}. Type 'help' at a prompt.")
        if self.resumed:  # what came before is in 'log'; the news starts here
            console.print(f"Resumed after {len(m.log)} recorded actions; 'log' tells the story so far.")
            for o in self.observers:
                self.seen_log[o] = len(m.log_for(o))
        while not m.is_over():
            cp = m.current_player
            if cp == CHANCE:
                m.step_chance()
                self._last_was_chance = True
                continue
            acting = m.acting_players
            human_turn = [p for p in acting if p in self.humans]
            bot_turn = [p for p in acting if p not in self.humans]
            if bot_turn:
                self._mark_turn(cp, bot_turn[0])
                m.step()
                continue
            if not human_turn:  # pragma: no cover - defensive
                break
            if not self.human_move(human_turn[0]):
                return
        self.finish()

    # ---- the story ---------------------------------------------------------------
    def _mark_turn(self, cp: int, player: int) -> None:
        """Notes where a new turn begins in every observer's log, before a decision is applied."""
        key = "simultaneous" if cp == SIMULTANEOUS else player
        new = key != self._last_turn or (cp == SIMULTANEOUS and self._last_was_chance)
        if new and self._last_turn is not None:
            for o in self.observers:
                self.turn_starts[o].add(len(self.match.log_for(o)))
        self._last_turn = key
        self._last_was_chance = False

    def _story(self, observer: int | None, start: int, end: int | None = None) -> Text:
        """Returns the observer's log lines from ``start`` on, a blank line between turns."""
        log = self.match.log_for(observer)
        marks = self.turn_starts[observer]
        lines: list[str] = []
        for i in range(start, len(log) if end is None else end):
            if i in marks and lines:
                lines.append("")
            lines.append(log[i])
        return Text("\n".join(lines), style="dim")

    def _news(self, observer: int | None) -> None:
        """Prints every event since the observer last saw the log, however many."""
        start = self.seen_log.get(observer, 0)
        self.seen_log[observer] = len(self.match.log_for(observer))
        story = self._story(observer, start)
        if story.plain:
            console.print(story)

    def _handover(self, player: int) -> None:
        if len(self.humans) > 1 and self.last_viewer != player:
            console.clear()
            console.print(Panel(f"Pass the terminal to player {player}. Others, look away.\nPress Enter when ready.",
                                title="Hand-over"))
            self.input("")
            console.clear()
        self.last_viewer = player

    def show(self, player: int) -> None:
        view = self.match.view(player)
        console.print(Panel(render_view(self.game, view), title=f"{self.game.name}: player {player}'s view"))

    def show_moves(self, names: list[str]) -> None:
        """Prints the numbered moves; a long list is grouped by the notation's first word."""
        if len(names) <= GROUP_ABOVE:
            table = Table(show_header=False, box=None)
            for i, name in enumerate(names, 1):
                table.add_row(Text(f"{i:>3}", style="cyan"), Text(name))
            console.print(table)
            return
        console.print(Text(f"{len(names)} moves, grouped; type a number or the whole notation "
                           "(e.g. '" + names[0] + "')", style="dim"))
        for line in group_moves(names, console.width):
            console.print(Text(line))

    def _menu(self, player: int, legal: list[int], names: list[str]) -> bool:
        """Shows the moves or the game's typing hint; returns True when the hint is shown."""
        hint = self.game.move_prompt(self.match.state, player)
        if hint and len(legal) > 1:
            console.print(Text(f"Type your move: {hint}. ({len(legal)} possible moves; 'moves' lists them.)"))
            return True
        self.show_moves(names)
        return False

    def human_move(self, player: int) -> bool:
        m = self.match
        self._handover(player)
        self._news(player)
        self.seen_log[None] = len(m.log_for(None))  # the final screen of a hot-seat game starts here
        self.show(player)
        simultaneous = m.current_player == SIMULTANEOUS
        listed = True
        while True:
            legal = m.legal_actions(player)
            names = [self.game.action_to_str(m.state, a) for a in legal]
            if listed:
                hinted = self._menu(player, legal, names)
            listed = True
            hint = " (secret)" if simultaneous else ""
            try:
                text = self.input(f"player {player}{hint}> ").strip()
            except EOFError:
                console.print("\ninput closed; the game stops here.")
                return False
            if not text:
                continue
            low = text.lower()
            if low in ("help", "?"):
                console.print("Type a move's number or its notation. Commands: board, moves, log, save FILE, quit.")
                listed = False
                continue
            if low == "board":
                self.show(player)
                continue
            if low == "moves":
                self.show_moves(names)
                listed = False
                continue
            if low == "log":
                story = self._story(player, 0)
                console.print(story if story.plain else Text("(nothing yet)"))
                continue
            if low in ("quit", "exit"):
                if self.save:
                    self._save(self.save)
                    console.print(f"Game stopped; go on with: kingmaker play --resume {self.save}")
                else:
                    console.print("Game abandoned (type 'save FILE' first to keep it, or play with --save).")
                return False
            if low.startswith("save"):
                path = text[4:].strip() or self.save or "kingmaker-game.json"
                self._save(path)
                continue
            try:
                if text.isdigit() and not (hinted and _parses(self.game, m.state, text, player)):
                    k = int(text)
                    if not 1 <= k <= len(legal):
                        console.print(Text(f"no move {k}: choose 1 to {len(legal)}", style="red"))
                        listed = False
                        continue
                    action: int | str = legal[k - 1]
                else:
                    action = text
                self._mark_turn(m.current_player, player)
                m.play(action, player)
            except GameError as e:
                console.print(Text(str(e), style="red"))
                listed = False
                continue
            return True

    def finish(self) -> None:
        """The final screen: the last moves, the final position, who won and why, the figures."""
        m = self.match
        # One person: their own story since their last decision; hot-seat: the spectator's.
        viewer = next(iter(self.humans)) if len(self.humans) == 1 else None
        console.print(Text("Final moves:", style="bold"))
        self._news(viewer)
        console.print(Panel(render_view(self.game, m.view(None)), title="Final position"))
        console.print(Text("Result: " + outcome_text(self.game, m.state), style="bold"))
        console.print(figures_table(self.game, m.state, m.returns()))
        if self.save:
            self._save(self.save)

    def _save(self, path: str) -> None:
        """Writes the record, with who sits where (for ``play --resume``); a failure is reported."""
        try:
            meta: dict[str, Any] = {"humans": sorted(self.humans)}
            if self.bots is not None:
                meta["seats"] = list(self.bots)
            self.match.record(**meta).save(path)
        except OSError as e:
            console.print(Text(f"could not save to {path}: {e.strerror or e}", style="red"))
            return
        console.print(f"record saved to {path}")


def _parses(game: Game, state: Any, text: str, player: int) -> bool:
    try:
        game.parse_action(state, text, player)
    except GameError:
        return False
    return True


def group_moves(names: list[str], width: int = 80) -> list[str]:
    """Returns lines showing numbered moves grouped by the first word of their notation.

    Each group is a heading (``ascend (12):``) and its moves in columns, each
    move as its number and the rest of its notation.
    """
    groups: dict[str, list[str]] = {}
    for i, name in enumerate(names, 1):
        head, _, rest = name.partition(" ")
        groups.setdefault(head, []).append(f"{i:>3} {rest or head}")
    lines: list[str] = []
    for head, cells in groups.items():
        lines.append(f"{head} ({len(cells)}):")
        cell_w = max(len(c) for c in cells) + 2
        per_row = max(1, (max(width, 20) - 2) // cell_w)
        for r in range(0, len(cells), per_row):
            lines.append("  " + "".join(c.ljust(cell_w) for c in cells[r : r + per_row]).rstrip())
    return lines


def outcome_text(game: Game, state: Any) -> str:
    """Returns the game's sentence on who won and why, ending with a full stop."""
    text = str(game.outcome(state).get("text") or "the game is over")
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!")) else text + "."


def figures_table(game: Game, state: Any, returns: tuple[float, ...]) -> Table:
    """Returns a small table of the game's per-seat figures at the end, with the returns.

    One row per figure and one column per seat, so that many figures still fit.
    """
    figs = game.figures(state)
    table = Table(title="Figures", title_justify="left")
    table.add_column("", no_wrap=True)
    for p in range(game.num_players):
        table.add_column(f"player {p}", justify="right", no_wrap=True)
    for name, vals in figs.items():
        table.add_row(name.replace("_", " "), *(_num(vals[p]) for p in range(game.num_players)))
    table.add_row("return", *(f"{r:g}" for r in returns))
    return table


def _num(v: Any) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", type=int, default=None, help="Replay from this seat's point of view (default: spectator).")
@click.option("--step", is_flag=True, help="Step through the game with Enter.")
def replay(file: str, seat: int | None, step: bool) -> None:
    """Replay a saved game record, from a seat's point of view or a spectator's."""
    try:
        rec = Record.load(file)
        game = rec.make_game()
        states = list(rec.states(game))
    except GameError as e:
        _fail(e)
    final = states[-1]
    for i, ((p, a), s) in enumerate(zip(rec.actions, states)):
        line = game.observe_action(s, a, None if p < 0 else p, seat)
        if line is not None:
            console.print(Text(f"{i + 1:>4}. {line}"))
        if step:
            console.print(Panel(render_view(game, game.view(states[i + 1], seat))))
            if input("Enter for the next move, q to stop: ").strip().lower() == "q":
                return
    console.print(Panel(render_view(game, game.view(final, seat)), title="Final position"))
    if game.is_terminal(final):
        console.print(Text("Result: " + outcome_text(game, final), style="bold"))
        console.print(figures_table(game, final, tuple(game.returns(final))))
    else:
        console.print("(the record ends before the game does)")


@main.command()
@click.argument("games", nargs=-1)
@click.option("--seconds", type=float, default=1.0, help="Seconds per run (three runs per game and player count).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--agents", is_flag=True, help="Benchmark the search agents instead of random play.")
def bench(games: tuple[str, ...], seconds: float, as_json: bool, agents: bool) -> None:
    """Measure random-play speed (games and decisions per second) on one core."""
    from .bench import machine, rows_as_dicts, run_bench

    ids = list(games) or None
    try:
        if ids:
            ids = [game_class(g).id for g in ids]
    except GameError as e:
        _fail(e)
    if agents:
        try:
            from .agents.bench import agent_bench, format_agent_bench
        except ModuleNotFoundError:
            console.print("the agent benchmark is not available in this build")
            sys.exit(2)
        rows = agent_bench(ids or available_games(), seconds)
        console.print_json(json.dumps(rows)) if as_json else console.print(format_agent_bench(rows))
        return
    rows = run_bench(ids, seconds)
    if as_json:
        print(json.dumps({"machine": machine(), "seconds": seconds, "rows": rows_as_dicts(rows)}, indent=1))
        return
    table = Table(title=f"Random play, one core, median of 3 runs of {seconds:g} s")
    for col in ("game", "players", "games/s", "decisions/s", "actions/s", "mean length"):
        table.add_column(col, justify="right" if col != "game" else "left")
    for r in rows:
        table.add_row(r.game, str(r.players), f"{r.games_per_s:,.0f}", f"{r.decisions_per_s:,.0f}",
                      f"{r.actions_per_s:,.0f}", f"{r.mean_length:.0f}")
    console.print(table)
    m = machine()
    console.print(f"[dim]{m['cpu']}, {m['implementation']} {m['python']}[/dim]")


@main.command()
def menu() -> None:
    """Pick a game, the players and the bots, then play in the terminal."""
    ids = available_games()
    console.print(Panel("Welcome to Kingmaker.", title="Kingmaker"))
    for i, gid in enumerate(ids, 1):
        cls = game_class(gid)
        console.print(f"  {i}. {cls.name} ({cls.min_players}-{cls.max_players} players) - {cls.summary}")
    gid = ids[_ask_int("Game", 1, len(ids), 1) - 1]
    cls = game_class(gid)
    n = cls.min_players if cls.min_players == cls.max_players else _ask_int(
        "Players", cls.min_players, cls.max_players, min(cls.max_players, max(cls.min_players, 3)))
    humans_n = _ask_int("How many people at this terminal", 1, n, 1)
    from .agents import agent_kinds, make_agent, recommended_bot
    from .agents.expert import expert_players

    search = "team" if cls.cooperative else "ismcts"
    # (the turn planner only where the game's heuristic has styles to choose among)
    kinds = [k for k in agent_kinds() if k not in ("ismcts", "team") and (k != "plan" or cls.heuristic_styles)]
    if search in agent_kinds():
        levels = ("easy", "normal", "hard") + (("expert",) if n in expert_players(cls) else ())
        kinds += [f"{search}:{level}" for level in levels]
    # the game's recommended bot (agents.recommended_bot)
    default_bot = next((b for b in (recommended_bot(cls), f"{search}:normal")
                        if b in kinds or b.partition(":")[0] in kinds), "heuristic")
    bot = default_bot
    if humans_n < n:
        probe = make(gid, players=n)  # the game with its default options
        while True:
            bot = click.prompt(f"Bot for the other seats ({', '.join(kinds)})", default=default_bot).strip()
            try:  # a bad spec is asked again
                make_agent(bot, probe)
                break
            except GameError as e:
                console.print(Text(f"{e} (choose one of: {', '.join(kinds)})", style="red"))
    options = {}
    for o in cls.options:
        while True:
            raw = click.prompt(f"Option {o.name} ({'|'.join(map(_fmt, o.allowed))})", default=_fmt(o.default))
            try:
                options[o.name] = o.coerce(raw)
                break
            except GameError as e:
                console.print(Text(str(e), style="red"))
    try:
        g = make(gid, players=n, **options)
        match, specs = _build_match(g, set(range(humans_n)), (bot,), None)
    except GameError as e:
        _fail(e)
    TerminalGame(match, humans=set(range(humans_n)), bots=specs).run()


def _ask_int(label: str, lo: int, hi: int, default: int) -> int:
    while True:
        v = click.prompt(f"{label} ({lo}-{hi})", default=default, type=int)
        if lo <= v <= hi:
            return v
        console.print(f"[red]choose a number from {lo} to {hi}[/red]")


if __name__ == "__main__":  # pragma: no cover
    main()
