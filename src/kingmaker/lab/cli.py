"""``kingmaker lab``: run, report and merge studies (the click group the main CLI mounts).

    kingmaker lab run studies/kings-kilt/seats.toml --jobs 2
    kingmaker lab run --game kingpins --players 2,3,4 --grid abilities=true,false --games 500
    kingmaker lab run studies/kingpin/boards.toml --ray-address auto
    kingmaker lab report runs/lab/kings-kilt-seats --out docs/balance/kings-kilt/seats.md
    kingmaker lab merge runs/lab/kk runs/lab/kk-from-node-2
    kingmaker lab compare runs/lab/ggc-team runs/lab/ggc-heuristic-team
"""

from __future__ import annotations

import signal
from pathlib import Path

import click

from ..core.errors import GameError

__all__ = ["lab"]


def _pairs(values: tuple[str, ...], flag: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in values:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{pair!r} is not key=value", param_hint=flag)
        out[key.strip()] = value.strip()
    return out


def backend_options(f):
    """Adds --jobs, --ray, --ray-address and --ship-code (shared with ``kingmaker arena``)."""
    f = click.option("--ship-code", is_flag=True,
                     help="Send this kingmaker package to the Ray cluster's workers (nodes need only Ray).")(f)
    f = click.option("--ray-address", default=None, metavar="ADDR",
                     help="Run on the Ray cluster at ADDR (host:port, or 'auto' on a node of it).")(f)
    f = click.option("--ray", "use_ray", is_flag=True, help="Run on a local Ray instance (--jobs CPUs).")(f)
    return f


@click.group("lab")
def lab() -> None:
    """The balance lab: thousands of bot games per variant, with intervals and plots."""


@lab.command("run")
@click.argument("study_file", required=False, type=click.Path(dir_okay=False))
@click.option("--game", default=None, help="The game (instead of a study file).")
@click.option("--players", default=None, help="Player counts, comma-separated (e.g. 2,3,4).")
@click.option("--agents", default=None, help="Agent spec per seat, comma-separated (rotated).")
@click.option("--games", "-g", type=int, default=None, help="Games per cell (overrides the file).")
@click.option("--seed", "-s", type=int, default=None, help="The study's seed (overrides the file).")
@click.option("--option", "-o", multiple=True, metavar="KEY=VALUE", help="A fixed option (repeatable).")
@click.option("--grid", multiple=True, metavar="KEY=V1,V2", help="An option to vary (repeatable).")
@click.option("--slow", is_flag=True, help="Every seat acts through Match observations (no fast path).")
@click.option("--name", default=None, help="The study's name (default: the file's or the game's).")
@click.option("--out", default=None, type=click.Path(file_okay=False), help="Results directory (default runs/lab/NAME).")
@click.option("--jobs", "-j", type=int, default=None, help="Local worker processes (default: every core).")
@backend_options
@click.option("--fresh", is_flag=True, help="Forget the games stored in the results directory first.")
@click.option("--part", default=None, metavar="K/N",
              help="Play only share K of N of the games (one machine of N; join them with lab merge).")
@click.option("--report", "report_to", default=None, type=click.Path(dir_okay=False),
              help="Then write the report here (.md or .html).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.option("--flush-every", type=float, default=5.0, show_default=True, hidden=True)
def run_cmd(study_file, game, players, agents, games, seed, option, grid, slow, name, out, jobs, use_ray,
            ray_address, ship_code, fresh, part, report_to, quiet, flush_every) -> None:
    """Play a study's missing games (a TOML STUDY_FILE, or --game and flags)."""
    from .backends import make_backend
    from .runner import default_out, progress_bar, run_study
    from .study import load_study, study_from_flags

    try:
        if study_file:
            if game:
                raise click.UsageError("give a study file or --game, not both")
            study = load_study(study_file)
        elif game:
            plist = [int(x) for x in players.split(",")] if players else None
            gridmap = {k: [x.strip() for x in v.split(",")] for k, v in _pairs(grid, "--grid").items()}
            study = study_from_flags(game, plist, agents or "heuristic", games or 100, seed or 0,
                                     _pairs(option, "--option"), gridmap, fast=not slow, name=name)
        else:
            raise click.UsageError("give a study file or --game")
        study = study.with_games(games, seed)
        if name:
            from dataclasses import replace

            study = replace(study, name=name)
        share = None
        if part:
            k, sep, n = part.partition("/")
            if not sep or not k.strip().isdigit() or not n.strip().isdigit():
                raise click.BadParameter(f"{part!r}: write K/N, e.g. 1/2", param_hint="--part")
            share = (int(k), int(n))
        backend = make_backend(jobs=jobs, ray=use_ray, ray_address=ray_address, ship_code=ship_code)
    except ValueError as e:
        raise click.ClickException(str(e)) from None
    except GameError as e:
        raise click.ClickException(str(e)) from None

    def stop(signum, frame):  # a polite kill keeps the finished games
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    target = Path(out) if out else default_out(study)
    cells = len(study.cells())
    click.echo(f"{study.name}: {study.game}, {cells} cells x {study.games} games, on {backend.describe()} -> {target}")
    try:
        if quiet:
            res = run_study(study, target, backend, fresh=fresh, flush_every=flush_every, part=share)
        else:
            with progress_bar() as bar:
                task = bar.add_task(study.name, total=None)

                def tick(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                res = run_study(study, target, backend, fresh=fresh, flush_every=flush_every,
                                    on_games=tick, part=share)
    except KeyboardInterrupt:
        backend.abandon()  # the chunks in flight are dropped, not waited for
        click.echo("interrupted: the finished games are stored; run again to resume")
        raise SystemExit(130) from None
    except GameError as e:
        raise click.ClickException(str(e)) from None
    finally:
        backend.close()
    click.echo(f"played {res.played} games in {res.seconds:.1f} s ({res.games_per_second:.1f} games/s); "
               f"{res.stored} stored; {res.cpu:.0f} s CPU in all")
    if study.decides is not None and share is None:
        from .decide import verdict_line, verdict_of

        v = verdict_of(target)
        if v is not None:
            click.echo(verdict_line(v))
    if report_to:
        from .report import write_report

        path, _ = write_report(target, report_to)
        click.echo(f"report: {path}")


@lab.command("report")
@click.argument("results", type=click.Path(exists=True))
@click.option("--out", "dest", default=None, type=click.Path(dir_okay=False),
              help="The report file (default RESULTS/report.md; .html for HTML).")
@click.option("--html", "as_html", is_flag=True, help="Write HTML instead of Markdown.")
@click.option("--no-plots", is_flag=True, help="Tables only (no matplotlib).")
def report_cmd(results: str, dest: str | None, as_html: bool, no_plots: bool) -> None:
    """Write the Markdown or HTML report of a study's RESULTS directory, with PNG plots.

    RESULTS may also be a study file: its default results directory (runs/lab/NAME) is reported.
    """
    from .report import write_report

    if Path(results).is_file():
        from .runner import default_out
        from .study import load_study

        try:
            study = load_study(results)
        except GameError as e:
            raise click.ClickException(str(e)) from None
        target = default_out(study)
        if not (target / "study.json").exists():
            raise click.ClickException(f"{results}: no results in {target} yet; play it first "
                                       f"(kingmaker lab run {results}), or give the results directory "
                                       "it was run into (--out)")
        results = str(target)
    fmt = "html" if as_html or (dest or "").endswith(".html") else "md"
    if dest is None:
        dest = str(Path(results) / f"report.{fmt}")
    try:
        path, a = write_report(results, dest, fmt=fmt, plots=not no_plots)
    except GameError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"{path}: {a['games']} games, {len(a['cells'])} cells, {len(a['plots'])} plots")
    if a.get("verdict") is not None:
        from .decide import verdict_line

        click.echo(verdict_line(a["verdict"]))


@lab.command("merge")
@click.argument("dest", type=click.Path(file_okay=False))
@click.argument("sources", nargs=-1, required=True, type=click.Path(file_okay=False, exists=True))
@click.option("--force", is_flag=True, help="Merge runs played by different code.")
def merge_cmd(dest: str, sources: tuple[str, ...], force: bool) -> None:
    """Add the games of SOURCES (runs of one study, e.g. on other machines) to DEST."""
    from .store import merge_runs

    try:
        res = merge_runs(dest, [s for s in sources if Path(s).resolve() != Path(dest).resolve()], force=force)
    except GameError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"{dest}: {res['games']} games ({res['added']} new)")


@lab.command("verify")
@click.argument("results", type=click.Path(file_okay=False, exists=True))
@click.option("--games", "-g", type=int, default=20, show_default=True, help="Games replayed per cell.")
@click.option("--jobs", "-j", type=int, default=None, help="Local worker processes.")
@click.option("--adopt", is_flag=True,
              help="If the code changed but every replayed game equals its row, stamp the results with this "
                   "code, so that 'lab run' goes on from them.")
@click.option("--as", "as_specs", multiple=True, nargs=2, metavar="SPEC REPLAY",
              help="Replay the study's agent SPEC as REPLAY (a level whose meaning changed, spelt out as it was), "
                   "e.g. --as plan:hard plan:hard/styles=default+meet+meet2+fight; adopts nothing. Repeatable.")
def verify_cmd(results: str, games: int, jobs: int | None, adopt: bool, as_specs: tuple[tuple[str, str], ...]) -> None:
    """Replay the first games of each cell with this code and compare them with the stored rows."""
    from .backends import make_backend
    from .runner import verify_run

    specs = {old.strip(): new.strip() for old, new in as_specs}
    if adopt and specs:
        raise click.BadParameter("a replay under other specs adopts nothing: give --adopt or --as, not both",
                                 param_hint="--adopt")
    try:
        with make_backend(jobs=jobs) as backend:
            res = verify_run(results, games, backend, adopt=adopt, specs=specs)
    except GameError as e:
        raise click.ClickException(str(e)) from None
    code = "the same code" if res["same_code"] else "different code (hash changed)"
    if specs:
        code += "; replayed as " + ", ".join(f"{o} -> {n}" for o, n in specs.items())
    if res["differ"]:
        raise click.ClickException(f"{len(res['differ'])} of {res['checked']} replayed games differ from the stored "
                                   f"rows ({code}); first: cell {res['differ'][0][0]} game {res['differ'][0][1]}")
    click.echo(f"{res['checked']} replayed games equal the stored rows ({code})")
    if res["adopted"]:
        click.echo("adopted: the results now carry this code's hash, and 'lab run' goes on from them")
    elif adopt and not res["same_code"]:
        click.echo("not adopted: no game was replayed")


@lab.command("compare")
@click.argument("a", type=click.Path(file_okay=False, exists=True))
@click.argument("b", type=click.Path(file_okay=False, exists=True))
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
def compare_cmd(a: str, b: str, as_json: bool) -> None:
    """Compare two results directories deal by deal (studies with one seed deal the same games)."""
    from .compare import compare_runs, render_comparison

    try:
        c = compare_runs(a, b)
    except GameError as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        import json

        click.echo(json.dumps(c, indent=1))
    else:
        click.echo(render_comparison(c))


@lab.command("verdicts")
@click.argument("roots", nargs=-1, type=click.Path(file_okay=False, exists=True))
@click.option("--json", "as_json", is_flag=True, help="Print the verdicts as JSON.")
def verdicts_cmd(roots: tuple[str, ...], as_json: bool) -> None:
    """List the verdict of every results directory under ROOTS (default runs/lab) whose study has a
    [decides] rule: met, not met, pending or no verdict, with the games counted and the rule."""
    from .decide import verdict_of

    found = []
    for root in roots or ("runs/lab",):
        base = Path(root)
        dirs = [base] if (base / "study.json").exists() else sorted(p.parent for p in base.glob("*/study.json"))
        for d in dirs:
            try:
                v = verdict_of(d)
            except GameError as e:
                raise click.ClickException(str(e)) from None
            if v is not None:
                found.append({"dir": str(d), **v})
    if as_json:
        import json

        click.echo(json.dumps(found, indent=1))
        return
    if not found:
        click.echo("no results directory with a [decides] rule there")
        return
    click.echo("| results | verdict | games counted | the rule (written) |")
    click.echo("|---|---|---|---|")
    for v in found:
        counted = sum(c["counted"] for c in v["cells"])
        planned = sum(c["planned"] for c in v["cells"])
        changed = f"; changed {len(v['changes'])} time(s) once games were stored" if v["changes"] else ""
        click.echo(f"| {v['dir']} | {v['status']} | {counted} of {planned} | {v['rule']} ({v['written']}{changed}) |")


@lab.command("show")
@click.argument("study_file", type=click.Path(dir_okay=False))
def show_cmd(study_file: str) -> None:
    """Check a study file and list its cells."""
    from .study import load_study

    try:
        study = load_study(study_file)
    except GameError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"{study.name}: {study.game}, agents {', '.join(study.agents)}, {study.games} games per cell, "
               f"seed {study.seed}, fingerprint {study.fingerprint()}")
    for cell in study.cells():
        click.echo(f"  cell {cell.number}: {cell.key}")
    if study.decides is not None:
        d = study.decides
        click.echo(f"  decides (written {d.written}, with {d.played} games stored): {d.describe()}")
