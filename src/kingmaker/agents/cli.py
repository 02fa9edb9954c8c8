"""``kingmaker arena``: the click command the main CLI mounts.

    kingmaker arena kings-kilt --players 2 --agents ismcts:normal,heuristic \\
        --games 100 --jobs 2 --seed 1 --save runs/kk --option family_deal=one-per-clan
"""

from __future__ import annotations

import json

import click

from ..core.errors import GameError
from .arena import format_summary, run_arena, summarize

__all__ = ["arena"]


def _options(pairs: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{pair!r} is not key=value", param_hint="--option")
        out[key.strip()] = value.strip()
    return out


@click.command("arena")
@click.argument("game")
@click.option("--players", "-p", type=int, default=None, help="Seats (default: the game's minimum).")
@click.option(
    "--agents",
    "-a",
    default="ismcts:normal,random",
    show_default=True,
    help="One agent spec per seat, comma-separated (random, heuristic, ismcts:easy|normal|hard|expert, "
    "team:...; overrides as ismcts:normal/iterations=500). A short list repeats its last spec.",
)
@click.option("--games", "-g", type=int, default=20, show_default=True, help="Games to play.")
@click.option("--jobs", "-j", type=int, default=1, show_default=True, help="Worker processes (or local Ray CPUs).")
@click.option("--ray", "use_ray", is_flag=True, help="Run on a local Ray instance (see docs/lab.md).")
@click.option("--ray-address", default=None, metavar="ADDR", help="Run on the Ray cluster at ADDR.")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="Arena seed.")
@click.option("--save", type=click.Path(file_okay=False), default=None, help="Directory for the game records.")
@click.option("--option", "-o", "option", multiple=True, metavar="KEY=VALUE", help="A game option (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def arena(
    game: str,
    players: int | None,
    agents: str,
    games: int,
    jobs: int,
    use_ray: bool,
    ray_address: str | None,
    seed: int,
    save: str | None,
    option: tuple[str, ...],
    as_json: bool,
    quiet: bool,
) -> None:
    """Plays GAME many times between agents, seats rotated, and prints win rates and ratings."""
    options = _options(option)
    from ..lab.backends import make_backend

    backend = None
    try:
        if use_ray or ray_address:
            backend = make_backend(jobs=jobs, ray=use_ray, ray_address=ray_address)
        kw = dict(jobs=jobs, seed=seed, save=save, options=options, backend=backend)
        if quiet or as_json:
            result = run_arena(game, players, agents, games, **kw)
        else:
            from ..lab.runner import progress_bar

            with progress_bar() as progress:
                tasks: list = []  # the bar's task, added once run_arena has checked its input
                result = run_arena(game, players, agents, games, **kw,
                                   on_start=lambda: tasks.append(progress.add_task(f"{game}", total=games)),
                                   on_game=lambda _data: progress.advance(tasks[0]))
    except GameError as e:
        raise click.ClickException(e.message) from None
    finally:
        if backend is not None:
            backend.close()
    summary = summarize(result)
    if as_json:
        click.echo(json.dumps(summary, indent=1))
    else:
        click.echo(format_summary(summary))
        if save:
            click.echo(f"\nrecords saved in {save}")
