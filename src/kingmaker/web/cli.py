"""``kingmaker serve``: the web server (the core's CLI adds this command)."""

from __future__ import annotations

import os

import click

__all__ = ["serve"]


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--db",
    default=None,
    metavar="URL",
    help="postgresql://user@host/db, sqlite:///path, or a file path; "
    "default: a SQLite file in the user's data folder.",
)
@click.option("--bot-delay", default=0.4, show_default=True, type=float, help="Seconds a bot waits before moving.")
@click.option("--bot-workers", default=None, type=int,
              help="Worker processes for bots (default: the number of CPUs, at most 4; 0: threads).")
@click.option("--bot-cpu-seconds", default=10.0, show_default=True, type=float,
              help="CPU time a bot may think per move; then it plays a random legal move.")
@click.option("--bot-queue", default=200, show_default=True, type=int,
              help="Bot moves that may wait for a worker before new games with bots are refused (server/busy).")
@click.option("--custom-bots", is_flag=True, default=False,
              help="Accept any agent spec (e.g. ismcts:hard/iterations=5000), not only the named levels.")
@click.option("--replay-workers", default=1, show_default=True, type=int, help="Worker processes that build replays.")
def serve(host: str, port: int, db: str | None, bot_delay: float, bot_workers: int | None, bot_cpu_seconds: float,
          bot_queue: int, custom_bots: bool, replay_workers: int) -> None:
    """Play in the browser: lobby, seats, bots, replays."""
    try:
        import uvicorn

        from .app import create_app
        from .storage import default_db_path
    except ImportError as e:  # pragma: no cover - the [web] extra is missing
        raise click.ClickException(f"the web server needs the [web] extra: pip install 'kingmaker[web]' ({e})") from e
    if bot_workers is None:
        bot_workers = max(1, min(4, os.cpu_count() or 1))
    app = create_app(db, bot_delay=bot_delay, bot_workers=bot_workers, bot_cpu_seconds=bot_cpu_seconds,
                     bot_queue=bot_queue, custom_bots=custom_bots, replay_workers=replay_workers)
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    where = db or f"sqlite:///{default_db_path()}"
    click.echo(f"Kingmaker is being served at http://{shown}:{port}/  (storage: {_safe(where)})")
    click.echo("Open that address in a browser; press Ctrl+C to stop.")
    # No per-message deflate: it costs more CPU than it saves on loopback and LANs.
    # Client messages are small: a 64 KiB frame limit keeps a socket from sending megabytes.
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_per_message_deflate=False,
                ws_max_size=64 * 1024, **fast_stack())


def fast_stack() -> dict[str, str]:
    """uvicorn's fastest parts that are installed (``uvicorn[standard]``), and a calmer garbage collector.

    uvloop's event loop, httptools' HTTP parser and the sans-I/O ``websockets`` protocol
    (measured: about 12% less server CPU per move than the older ``websockets`` protocol;
    ``wsproto`` is pure Python). Every object created so far (modules, the app) is frozen
    out of the cyclic collector, and the youngest generation is collected every 10,000
    allocations instead of 700: the collector took 7% of the server's CPU in the load
    test (benchmarks/web.md).
    """
    import gc
    import importlib.util

    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
    have = importlib.util.find_spec
    return {"loop": "uvloop" if have("uvloop") else "asyncio",
            "http": "httptools" if have("httptools") else "h11",
            "ws": "websockets-sansio" if have("websockets") else "auto"}


def _safe(url: str) -> str:
    """Hides a password in a database URL."""
    if "://" in url and "@" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        if ":" in creds:
            creds = creds.split(":", 1)[0] + ":***"
        return f"{scheme}://{creds}@{host}"
    return url
