"""The balance lab (issue 15): studies reproduce, resume, merge, run alike on every backend, report.

The studies are tiny (a few dozen King's Kilt games): these tests check the
machinery, not the games' balance.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("pyarrow")

import kingmaker  # noqa: E402
from kingmaker.lab.backends import PoolBackend, SerialBackend  # noqa: E402
from kingmaker.lab.cli import lab  # noqa: E402
from kingmaker.lab.play import play_row  # noqa: E402
from kingmaker.lab.runner import run_study  # noqa: E402
from kingmaker.lab.store import Store, StoreError, merge_runs, read_rows  # noqa: E402
from kingmaker.lab.study import cell_seed, load_study, parse_study  # noqa: E402

STUDY = """
title = "test"
game = "kings-kilt"
players = [2, 3]
agents = ["heuristic", "random"]
games = 12
seed = 5
chunk = 4
[grid]
family_deal = ["rulebook", "one-per-clan"]
"""


def _study(tmp_path: Path, text: str = STUDY, name: str = "s.toml"):
    p = tmp_path / name
    p.write_text(text)
    return load_study(p)


def _rows(out: Path) -> list[dict]:
    table, _ = read_rows((out / "parts").glob("*.parquet"))
    return [] if table is None else table.to_pylist()


def test_a_study_reproduces_exactly_whatever_the_chunking(tmp_path):
    study = _study(tmp_path)
    run_study(study, tmp_path / "a", SerialBackend())
    from dataclasses import replace

    run_study(replace(study, chunk=5), tmp_path / "b", SerialBackend())
    a, b = _rows(tmp_path / "a"), _rows(tmp_path / "b")
    assert len(a) == 4 * 12 and a == b
    # Any one game is reproducible from (study, cell, index) alone.
    cell = study.cells()[3]
    row = next(r for r in a if r["cell"] == 3 and r["index"] == 7)
    game = kingmaker.make(study.game, players=cell.players, **cell.options)
    again = play_row(game, 3, cell.key, 7, row["seats"], cell_seed(study.seed, cell, 7))
    assert again == row
    assert row["seats"] in (["heuristic", "random", "random"], ["random", "heuristic", "random"],
                            ["random", "random", "heuristic"])


def test_rows_hold_outcome_reason_figures_and_options(tmp_path):
    study = _study(tmp_path)
    run_study(study, tmp_path / "a", SerialBackend())
    rows = _rows(tmp_path / "a")
    game = kingmaker.make("kings-kilt", players=2)
    for r in rows:
        assert r["reason"] and len(r["returns"]) == r["players"] == len(r["seats"])
        assert set(r["winners"]) <= set(range(r["players"]))
        assert r["opt_family_deal"] in ("rulebook", "one-per-clan")
        for name in game.info.figures:
            assert len(r[f"fig_{name}"]) == r["players"]


def test_rerunning_reuses_stored_games_and_more_games_adds_only_new_ones(tmp_path):
    study = _study(tmp_path)
    first = run_study(study, tmp_path / "a", SerialBackend())
    assert first.played == 48
    again = run_study(study, tmp_path / "a", SerialBackend())
    assert again.played == 0 and again.stored == 48
    more = run_study(study.with_games(15), tmp_path / "a", SerialBackend())
    assert more.played == 4 * 3 and more.stored == 60
    run_study(study.with_games(15), tmp_path / "whole", SerialBackend())
    assert _rows(tmp_path / "a") == _rows(tmp_path / "whole")


def test_a_results_directory_refuses_another_studys_games(tmp_path):
    study = _study(tmp_path)
    run_study(study, tmp_path / "a", SerialBackend())
    with pytest.raises(StoreError, match="seed"):
        run_study(study.with_games(seed=6), tmp_path / "a", SerialBackend())
    assert len(_rows(tmp_path / "a")) == 48  # unchanged


def test_resume_after_a_kill_gives_the_whole_run(tmp_path):
    text = STUDY.replace("games = 12", "games = 400").replace("players = [2, 3]", "players = [2]")
    path = tmp_path / "big.toml"
    path.write_text(text)
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "kingmaker.cli", "lab", "run", str(path), "--out", str(out), "--jobs", "1",
           "--quiet", "--flush-every", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            if len(list((out / "parts").glob("*.parquet"))) >= 3:
                break
            time.sleep(0.02)
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    stored = len(_rows(out))
    assert 0 < stored < 800
    study = load_study(path)
    res = run_study(study, out, SerialBackend())
    assert res.played == 800 - stored
    run_study(study, tmp_path / "whole", PoolBackend(2))
    assert _rows(out) == _rows(tmp_path / "whole")


def _burn(seconds: float) -> None:
    """Spends ``seconds`` of this process's own CPU time."""
    while time.process_time() < seconds:
        pass


@pytest.mark.skipif(sys.platform == "win32", reason="no fork, no children's rusage")
def test_a_chunks_cpu_time_counts_the_children_its_searches_fork():
    import multiprocessing

    from kingmaker.lab.play import cpu_time

    before = cpu_time()
    child = multiprocessing.get_context("fork").Process(target=_burn, args=(0.3,))
    child.start()
    child.join()
    assert child.exitcode == 0
    assert cpu_time() - before >= 0.29  # the child's 0.3 s, which process_time() alone misses


def _slow_task(folder: str, name: str, seconds: float) -> str:
    """A pool task: marks that it started (with its pid), sleeps, marks that it ended."""
    # Written whole, then renamed: a test that sees the file reads the pid (a busy machine
    # once let it read an empty file between its creation and the write).
    Path(folder, f"{name}.started.part").write_text(str(os.getpid()))
    os.replace(Path(folder, f"{name}.started.part"), Path(folder, f"{name}.started"))
    time.sleep(seconds)
    Path(folder, f"{name}.ended").write_text("")
    return name


def test_an_abandoned_pool_stops_its_running_tasks_instead_of_waiting(tmp_path):
    pool = PoolBackend(2)
    results = pool.map_unordered(_slow_task, [(str(tmp_path), "quick", 0.0), (str(tmp_path), "slow", 60.0)])
    assert next(results) == "quick"
    deadline = time.monotonic() + 60
    while not (tmp_path / "slow.started").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    pid = int((tmp_path / "slow.started").read_text())
    pool.abandon()  # close() would wait the slow task's minute out
    assert not (tmp_path / "slow.ended").exists()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the worker was stopped and reaped
    pool.close()  # nothing left to release


def test_an_abandoned_pool_stops_workers_that_catch_sigterm_and_have_tasks_queued(tmp_path):
    def stop(signum, frame):  # the CLI's handler, which the forked workers inherit
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, stop)
    try:
        pool = PoolBackend(2)
        tasks = [(str(tmp_path), "quick", 0.0)] + [(str(tmp_path), f"slow{k}", 60.0) for k in range(4)]
        results = pool.map_unordered(_slow_task, tasks)
        assert next(results) == "quick"
        deadline = time.monotonic() + 60
        while len(list(tmp_path.glob("slow*.started"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        pool.abandon()
    finally:
        signal.signal(signal.SIGTERM, old)
    started = list(tmp_path.glob("slow*.started"))
    assert len(started) == 2  # the queued tasks never started
    for path in started:
        with pytest.raises(ProcessLookupError):
            os.kill(int(path.read_text()), 0)
    assert not list(tmp_path.glob("slow*.ended"))


def test_a_pool_left_by_an_exception_is_abandoned(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        with PoolBackend(2) as pool:
            tasks = [(str(tmp_path), "quick", 0.0), (str(tmp_path), "slow", 60.0)]
            results = pool.map_unordered(_slow_task, tasks)
            assert next(results) == "quick"
            deadline = time.monotonic() + 60
            while not (tmp_path / "slow.started").exists() and time.monotonic() < deadline:
                time.sleep(0.02)
            raise KeyboardInterrupt  # as Ctrl-C would, while the slow task runs
    pid = int((tmp_path / "slow.started").read_text())
    assert not (tmp_path / "slow.ended").exists()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    del results


def test_an_interrupted_run_abandons_its_own_pool_and_keeps_the_finished_games(tmp_path, monkeypatch):
    import kingmaker.lab.runner as runner

    calls = []

    class Spy(SerialBackend):
        def abandon(self) -> None:
            calls.append("abandon")
            super().abandon()

        def close(self) -> None:
            calls.append("close")

    monkeypatch.setattr(runner, "make_backend", lambda *a, **k: Spy())

    def stop(done: int, total: int) -> None:
        if done >= 8:
            raise KeyboardInterrupt

    study = _study(tmp_path)
    with pytest.raises(KeyboardInterrupt):
        run_study(study, tmp_path / "a", flush_every=3600, on_games=stop)
    assert calls[0] == "abandon"
    assert len(_rows(tmp_path / "a")) == 8  # the finished chunks were stored
    res = run_study(study, tmp_path / "a", SerialBackend())
    assert res.played == 40


def test_the_merge_of_two_partial_runs_equals_one_whole_run(tmp_path):
    study = _study(tmp_path)
    run_study(study, tmp_path / "one", SerialBackend(), part=(1, 2))
    run_study(study, tmp_path / "two", SerialBackend(), part=(2, 2))
    assert len(_rows(tmp_path / "one")) == len(_rows(tmp_path / "two")) == 24
    res = merge_runs(tmp_path / "merged", [tmp_path / "one", tmp_path / "two"])
    assert res == {"games": 48, "added": 48}
    run_study(study, tmp_path / "whole", SerialBackend())
    assert _rows(tmp_path / "merged") == _rows(tmp_path / "whole")
    # Merging again adds nothing; the merged directory resumes like any other.
    assert merge_runs(tmp_path / "merged", [tmp_path / "one"])["added"] == 0
    assert run_study(study, tmp_path / "merged", SerialBackend()).played == 0


def test_merge_refuses_runs_of_different_studies(tmp_path):
    a = _study(tmp_path)
    b = _study(tmp_path, STUDY.replace("seed = 5", "seed = 9"), "b.toml")
    run_study(a, tmp_path / "a", SerialBackend())
    run_study(b, tmp_path / "b", SerialBackend())
    with pytest.raises(StoreError, match="different studies"):
        merge_runs(tmp_path / "m", [tmp_path / "a", tmp_path / "b"])


@pytest.mark.slow
def test_the_local_pool_and_local_ray_give_identical_rows(tmp_path):
    pytest.importorskip("ray")
    from kingmaker.lab.backends import RayBackend

    study = _study(tmp_path)
    with PoolBackend(2) as pool:
        run_study(study, tmp_path / "pool", pool)
    with RayBackend(num_cpus=2) as ray_backend:
        assert ray_backend.workers == 2
        res = run_study(study, tmp_path / "ray", ray_backend)
    assert res.played == 48
    assert _rows(tmp_path / "pool") == _rows(tmp_path / "ray")


def test_the_report_renders_with_every_plot(tmp_path):
    study = _study(tmp_path)
    run_study(study, tmp_path / "a", SerialBackend())
    from kingmaker.lab.report import write_report

    path, a = write_report(tmp_path / "a", tmp_path / "rep" / "kk.md")
    text = path.read_text()
    expected = {"seats", "agents", "option", "length", "reasons"}
    if kingmaker.make("kings-kilt", players=2).info.figures:
        expected |= {"figures", "decides"}
    assert set(a["plots"]) == expected
    for name in expected:
        png = tmp_path / "rep" / f"kk-{name}.png"
        assert png.read_bytes()[:4] == b"\x89PNG"
        assert f"(kk-{name}.png)" in text
    assert "Seat win rates" in text and "Variants compared" in text and "heuristic win rate" in text
    html_path, _ = write_report(tmp_path / "a", tmp_path / "rep" / "kk.html")
    assert "<img src='kk-seats.png'" in html_path.read_text()


def test_a_cooperative_report_shows_the_team_and_loss_reasons(tmp_path):
    study = parse_study({"game": "gangs-of-green-city", "players": [2], "games": 4, "seed": 1,
                         "grid": {"escalations": [4, 6]}})
    run_study(study, tmp_path / "g", SerialBackend())
    from kingmaker.lab.report import write_report

    path, a = write_report(tmp_path / "g", tmp_path / "g" / "r.md")
    assert a["cooperative"] and all("team" in c for c in a["cells"])
    assert "Team win rate and loss reasons" in path.read_text()
    assert (tmp_path / "g" / "r-seats.png").exists() and (tmp_path / "g" / "r-reasons.png").exists()


def test_a_report_says_how_the_games_were_played_and_leaves_out_empty_sections(tmp_path):
    from kingmaker.lab.report import write_report

    search = parse_study({"game": "kings-kilt", "players": [2], "games": 2, "seed": 1,
                          "agents": ["ismcts:easy/seconds=none", "heuristic"]})
    run_study(search, tmp_path / "s", SerialBackend())
    text = write_report(tmp_path / "s", tmp_path / "s" / "r.md", plots=False)[0].read_text()
    assert "every seat through Match" in text and "on the true state" not in text
    assert "against the options" not in text  # no grid, no plot: no heading either
    fast = parse_study({"game": "kings-kilt", "players": [2], "games": 2, "seed": 1})
    run_study(fast, tmp_path / "f", SerialBackend())
    text = write_report(tmp_path / "f", tmp_path / "f" / "r.md", plots=False)[0].read_text()
    assert "heuristic/random on the true state (fast)" in text and "ms per game" in text


def test_a_reports_cpu_time_reads_in_seconds_for_long_games():
    from kingmaker.lab.report import _cpu_text

    assert _cpu_text(9572.0, 48) == "9,572 s (199.4 s per game)"
    assert _cpu_text(3.0, 1000) == "3 s (3.0 ms per game)"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("players = [2]", "game"),
        ('game = "chess"', "game"),
        ('game = "kings-kilt"\ngird = {family_deal = ["rulebook"]}', "gird"),
        ('game = "kings-kilt"\nplayers = [2, 7]', "players"),
        ('game = "kings-kilt"\nagents = ["genius"]', "agents"),
        ('game = "kings-kilt"\nagents = ["heuristic", "random", "random"]\nplayers = [2]', "agents"),
        ('game = "kings-kilt"\ngames = 0', "games"),
        ('game = "kings-kilt"\ngames = "many"', "games"),
        ('game = "kings-kilt"\nseed = 1.5', "seed"),
        ('game = "kings-kilt"\nfast = "yes"', "fast"),
        ('game = "kings-kilt"\n[grid]\nfamily_deal = ["rulebook", "by-lottery"]', "grid.family_deal"),
        ('game = "kings-kilt"\n[grid]\nguards = [6, 8]', "grid.guards"),
        ('game = "kings-kilt"\n[grid]\nfamily_deal = []', "grid.family_deal"),
        ('game = "kings-kilt"\n[options]\nfamily_deal = 3', "options.family_deal"),
        ('game = "kings-kilt"\n[options]\nfamily_deal = "rulebook"\n[grid]\nfamily_deal = ["rulebook"]',
         "grid.family_deal"),
    ],
)
def test_bad_study_files_name_the_field(tmp_path, text, field):
    from kingmaker.core.errors import GameError
    from kingmaker.lab.study import StudyError

    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(StudyError) as err:
        load_study(p)
    assert err.value.field == field
    assert f"field '{field}'" in str(err.value) and str(p) in str(err.value)
    assert isinstance(err.value, GameError) and err.value.code == "request/invalid"


def test_a_file_that_is_not_toml_says_so(tmp_path):
    from kingmaker.lab.study import StudyError

    p = tmp_path / "bad.toml"
    p.write_text("game = kings-kilt\n")
    with pytest.raises(StudyError, match="not valid TOML"):
        load_study(p)


def test_the_cli_runs_shows_reports_and_names_bad_fields(tmp_path):
    study_path = tmp_path / "s.toml"
    study_path.write_text(STUDY)
    runner = CliRunner()
    res = runner.invoke(lab, ["show", str(study_path)])
    assert res.exit_code == 0 and "cell 3: players=3 family_deal=one-per-clan" in res.output
    out = tmp_path / "out"
    res = runner.invoke(lab, ["run", str(study_path), "--out", str(out), "--jobs", "1", "--quiet", "--games", "3"])
    assert res.exit_code == 0, res.output
    assert "played 12 games" in res.output
    res = runner.invoke(lab, ["run", "--game", "kings-kilt", "--players", "2", "--grid", "family_deal=rulebook,x",
                              "--jobs", "1", "--out", str(tmp_path / "o2")])
    assert res.exit_code != 0 and "grid.family_deal" in res.output
    res = runner.invoke(lab, ["report", str(out), "--no-plots"])
    assert res.exit_code == 0 and (out / "report.md").exists()
    (tmp_path / "bad.toml").write_text('game = "kings-kilt"\nplayers = 9\n')
    res = runner.invoke(lab, ["run", str(tmp_path / "bad.toml")])
    assert res.exit_code != 0 and "field 'players'" in res.output


def test_the_main_cli_lists_the_lab_lazily():
    from kingmaker.cli import main

    res = CliRunner().invoke(main, ["--help"])
    assert res.exit_code == 0 and "lab" in res.output


def test_store_keeps_each_game_once_after_an_interrupted_compaction(tmp_path):
    study = _study(tmp_path)
    run_study(study, tmp_path / "a", SerialBackend())
    store = Store(tmp_path / "a", study)
    rows = _rows(tmp_path / "a")
    store.append(rows[:10], 0.0)  # a copy left behind, as by a kill mid-compaction
    assert _rows(tmp_path / "a") == rows


def test_the_arena_takes_the_same_backends():
    from kingmaker.agents.arena import run_arena

    def key(result):
        return [(g["index"], g["seed"], g["seats"], g["returns"], g["length"]) for g in result.games]

    serial = run_arena("kings-kilt", 2, "heuristic,random", 6, seed=3, backend=SerialBackend())
    with PoolBackend(2) as pool:
        pooled = run_arena("kings-kilt", 2, "heuristic,random", 6, seed=3, backend=pool)
    assert key(serial) == key(pooled) and len(serial.games) == 6


def test_verify_replays_stored_games_and_finds_a_changed_row(tmp_path):
    from kingmaker.lab.runner import verify_run

    study = _study(tmp_path)
    run_study(study, tmp_path / "a", SerialBackend())
    res = verify_run(tmp_path / "a", games=3, backend=SerialBackend())
    assert res == {"checked": 4 * 3, "differ": [], "same_code": True, "adopted": False}
    rows = _rows(tmp_path / "a")
    rows[5] = {**rows[5], "length": rows[5]["length"] + 1}  # as if the rules had changed
    for p in (tmp_path / "a" / "parts").glob("*.parquet"):
        p.unlink()
    Store(tmp_path / "a", study).append(rows)
    res = verify_run(tmp_path / "a", games=12, backend=SerialBackend())
    assert res["differ"] == [(rows[5]["cell"], rows[5]["index"])] and res["checked"] == 48


def _stamp(out: Path, code: str) -> None:
    """Makes ``out`` look as if other code had played its games."""
    import json

    meta = json.loads((out / "study.json").read_text())
    meta["code"] = code
    (out / "study.json").write_text(json.dumps(meta))


def test_verify_adopt_lets_a_study_go_on_after_a_change_that_plays_the_same_games(tmp_path):
    import json
    from dataclasses import replace

    from kingmaker.lab.runner import verify_run

    study = replace(_study(tmp_path), games=6)
    out = tmp_path / "a"
    run_study(study, out, SerialBackend())
    _stamp(out, "0000000000000000")  # as after a refactor of the agents: the hash differs
    with pytest.raises(StoreError, match="other code"):
        run_study(replace(study, games=12), out, SerialBackend())
    res = verify_run(out, games=2, backend=SerialBackend(), adopt=True)
    assert res == {"checked": 4 * 2, "differ": [], "same_code": False, "adopted": True}
    meta = json.loads((out / "study.json").read_text())
    assert meta["adopted"][0]["from"] == "0000000000000000" and meta["adopted"][0]["checked"] == 8
    assert meta["code"] == meta["adopted"][0]["to"] != "0000000000000000"
    run_study(replace(study, games=12), out, SerialBackend())  # goes on from the stored games
    assert json.loads((out / "study.json").read_text())["adopted"] == meta["adopted"]  # kept
    fresh = tmp_path / "b"
    run_study(replace(study, games=12), fresh, SerialBackend())
    assert _rows(out) == _rows(fresh) and len(_rows(out)) == 4 * 12


def test_verify_adopts_nothing_when_a_game_differs_or_none_was_replayed(tmp_path):
    import json

    from kingmaker.lab.runner import verify_run

    study = _study(tmp_path)
    out = tmp_path / "a"
    run_study(study, out, SerialBackend())
    rows = _rows(out)
    rows[0] = {**rows[0], "length": rows[0]["length"] + 1}  # as if the rules had changed
    for p in (out / "parts").glob("*.parquet"):
        p.unlink()
    Store(out, study).append(rows)
    _stamp(out, "1111111111111111")
    res = verify_run(out, games=1, backend=SerialBackend(), adopt=True)
    assert res["differ"] and res["adopted"] is False
    assert json.loads((out / "study.json").read_text())["code"] == "1111111111111111"
    res = CliRunner().invoke(lab, ["verify", str(out), "--games", "0", "--adopt", "--jobs", "1"])
    assert res.exit_code == 0 and "not adopted: no game was replayed" in res.output
    res = CliRunner().invoke(lab, ["verify", str(out), "--games", "1", "--adopt", "--jobs", "1"])
    assert res.exit_code != 0 and "differ from the stored rows" in res.output
    assert json.loads((out / "study.json").read_text())["code"] == "1111111111111111"


def test_verify_of_an_unfinished_study_replays_only_the_stored_games_it_checks(tmp_path):
    from dataclasses import replace

    from kingmaker.lab.runner import verify_run

    class Counting(SerialBackend):
        played = 0

        def map_unordered(self, fn, tasks):
            for res in super().map_unordered(fn, tasks):
                Counting.played += len(res["rows"])
                yield res

    study = _study(tmp_path)
    out = tmp_path / "a"
    run_study(replace(study, games=3), out, SerialBackend())  # 3 of the study's 12 games a cell
    Store(out, study)  # the study asks for 12 games a cell: the other 9 are not played yet
    res = verify_run(out, games=2, backend=Counting())
    assert res["checked"] == 4 * 2 and not res["differ"]
    assert Counting.played == 4 * 2  # not the 4 * 9 games the study still lacks


STUDIES = sorted((Path(__file__).resolve().parents[2] / "studies").glob("*/*.toml"))


@pytest.mark.parametrize("path", STUDIES, ids=[f"{p.parent.name}/{p.name}" for p in STUDIES])
def test_every_shipped_study_file_loads_and_names_agents_that_exist(path):
    from kingmaker.agents import make_agent

    study = load_study(path)
    assert study.game == path.parent.name and study.cells()
    for cell in study.cells():
        game = kingmaker.make(study.game, players=cell.players, **cell.options)
        for spec in study.agents:
            make_agent(spec, game)  # a misspelt level or setting raises GameError here


def test_the_shipped_studies_are_found():
    assert len(STUDIES) >= 10  # (the parametrised test above would pass on none)


def test_report_takes_a_study_file_for_its_default_results_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(STUDY.replace("players = [2, 3]", "players = [2]"))
    runner = CliRunner()
    res = runner.invoke(lab, ["report", "s.toml", "--no-plots"])
    assert res.exit_code != 0 and "no results in runs/lab/s yet" in res.output and "lab run s.toml" in res.output
    res = runner.invoke(lab, ["run", "s.toml", "--jobs", "1", "--quiet", "--games", "2"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(lab, ["report", "s.toml", "--no-plots"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "runs" / "lab" / "s" / "report.md").exists() and "4 games" in res.output


def test_verify_as_replays_a_spec_under_another_and_adopts_nothing(tmp_path):
    """``lab verify --as SPEC REPLAY``: a study whose agent spec has changed meaning since is
    replayed with the spec spelt out as it was; the rows' seats are named back before the
    comparison. Another agent under the name finds the games changed; a name the study does
    not have, or --as with --adopt, is refused."""
    from kingmaker.core.errors import BadRequestError
    from kingmaker.lab.runner import verify_run

    text = STUDY.replace('agents = ["heuristic", "random"]', 'agents = ["ismcts:easy/seconds=none", "random"]')
    text = text.replace("games = 12", "games = 2").replace("players = [2, 3]", "players = [2]")
    text = text.replace('[grid]\nfamily_deal = ["rulebook", "one-per-clan"]\n', "")
    study = _study(tmp_path, text)
    out = tmp_path / "a"
    run_study(study, out, SerialBackend())
    _stamp(out, "2222222222222222")
    same = {"ismcts:easy/seconds=none": "ismcts:easy/iterations=40/seconds=none"}  # easy's budget, spelt out
    res = verify_run(out, games=2, backend=SerialBackend(), adopt=True, specs=same)
    assert res == {"checked": 2, "differ": [], "same_code": False, "adopted": False}
    other = {"ismcts:easy/seconds=none": "ismcts:easy/iterations=5/seconds=none"}
    assert verify_run(out, games=2, backend=SerialBackend(), specs=other)["differ"]
    with pytest.raises(BadRequestError, match="no agent 'heuristic'"):
        verify_run(out, games=1, backend=SerialBackend(), specs={"heuristic": "random"})
    res = CliRunner().invoke(lab, ["verify", str(out), "--games", "1", "--jobs", "1",
                                   "--as", "ismcts:easy/seconds=none", "ismcts:easy/iterations=40/seconds=none"])
    assert res.exit_code == 0 and "1 replayed games equal" in res.output and "replayed as ismcts:easy" in res.output
    res = CliRunner().invoke(lab, ["verify", str(out), "--games", "1", "--jobs", "1", "--adopt", "--as", "random", "random"])
    assert res.exit_code != 0 and "adopts nothing" in res.output


def test_the_code_hash_covers_the_network_reader_only_where_agents_play(monkeypatch):
    """The hash covers what decides a game: with agents, kingmaker.rl.policy too (the expert's
    network reader, which sets tiny weights to 0); a study whose seats all play fast does not."""
    from kingmaker.lab import store

    read = []
    real = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda p: read.append(p.as_posix()) or real(p))
    store.code_hash("kings-kilt", agents=True)
    assert any(p.endswith("kingmaker/rl/policy.py") for p in read)
    assert any("/kingmaker/agents/" in p for p in read)
    read.clear()
    store.code_hash("kings-kilt", agents=False)
    assert not any(p.endswith("rl/policy.py") or "/kingmaker/agents/" in p for p in read)
