"""Fixtures for the web tests: services (PostgreSQL, chromium) and real servers in subprocesses.

scripts/test-services.sh installs and starts PostgreSQL and chromium and writes
/tmp/kingmaker-test-services.env; the environment variables KINGMAKER_TEST_PG_URL and
KINGMAKER_TEST_CHROMIUM override it. When a service is missing the tests fail: they
never skip, so that CI really runs them.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ENV_FILE = Path("/tmp/kingmaker-test-services.env")
ROOT = Path(__file__).resolve().parents[2]

# All web tests in one xdist worker: they start servers and a browser and share services.
pytestmark = pytest.mark.xdist_group("web")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/web/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.xdist_group("web"))


def _service_env() -> dict[str, str]:
    out: dict[str, str] = {}
    if ENV_FILE.exists():
        for line in ENV_FILE.read_text().splitlines():
            if "=" in line and not line.startswith("#"):
                k, v = line.split("=", 1)
                out[k.strip()] = v.strip()
    for k in ("KINGMAKER_TEST_PG_URL", "KINGMAKER_TEST_CHROMIUM"):
        if os.environ.get(k):
            out[k] = os.environ[k]
    return out


@pytest.fixture(scope="session")
def pg_url() -> str:
    url = _service_env().get("KINGMAKER_TEST_PG_URL")
    if not url:
        pytest.fail(
            "no PostgreSQL for the web tests: run scripts/test-services.sh (make test does) "
            "or set KINGMAKER_TEST_PG_URL",
            pytrace=False,
        )
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=5).close()
    except Exception as e:  # noqa: BLE001 - say what failed, loudly
        pytest.fail(f"PostgreSQL at {url} does not answer ({e}); run scripts/test-services.sh", pytrace=False)
    return url


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = _service_env().get("KINGMAKER_TEST_CHROMIUM", "/usr/bin/chromium")
    if not os.access(path, os.X_OK):
        pytest.fail(f"no chromium at {path}: run scripts/test-services.sh (make test does)", pytrace=False)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A real ``python -m kingmaker.web`` process on loopback; restartable on the same database."""

    def __init__(self, db: str, bot_delay: float = 0.0, args: tuple[str, ...] = (),
                 env: dict[str, str] | None = None) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.args = tuple(args)
        self.env = dict(env or {})
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.log = Path(f"/tmp/kingmaker-web-test-{self.port}.log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = dict(os.environ) | self.env
        env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kingmaker.web", "--port", str(self.port), "--db", self.db,
             "--bot-delay", str(self.bot_delay), *self.args],
            stdout=self.log.open("ab"), stderr=subprocess.STDOUT, env=env, cwd=ROOT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=1) as r:
                    if json.loads(r.read())["ok"]:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start in 30 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill(self) -> None:
        """Stops the server abruptly (no clean shutdown), as a crash would."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def restart(self) -> Server:
        self.stop()
        return self.start()


@pytest.fixture
def make_server(tmp_path):
    servers: list[Server] = []

    def make(db: str | None = None, bot_delay: float = 0.0, args: tuple[str, ...] = (),
             env: dict[str, str] | None = None) -> Server:
        s = Server(db or str(tmp_path / f"web{len(servers)}.sqlite3"), bot_delay, args, env)
        servers.append(s)
        return s.start()

    yield make
    for s in servers:
        s.stop()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory):
    s = Server(str(tmp_path_factory.mktemp("web") / "shared.sqlite3")).start()
    yield s
    s.stop()
