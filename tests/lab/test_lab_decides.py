"""A study's ``[decides]`` rule: fixed before the games, read by ``lab report`` and ``lab run``.

The rule reads only a cell's first planned games and only once all of them are in; the
verdicts are checked against the rates and deal-by-deal counts computed here from the rows.
"""

from __future__ import annotations

from math import comb
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("pyarrow")

from kingmaker.lab.analysis import headline_share, win_shares  # noqa: E402
from kingmaker.lab.backends import SerialBackend  # noqa: E402
from kingmaker.lab.cli import lab  # noqa: E402
from kingmaker.lab.decide import verdict_of  # noqa: E402
from kingmaker.lab.report import write_report  # noqa: E402
from kingmaker.lab.runner import run_study  # noqa: E402
from kingmaker.lab.stats import wilson  # noqa: E402
from kingmaker.lab.store import load_run, read_rows  # noqa: E402
from kingmaker.lab.study import StudyError, load_study, parse_study  # noqa: E402

KK = """
game = "kings-kilt"
players = [{players}]
agents = [{agents}]
games = {games}
seed = 3
{decides}
"""


def _run(tmp_path: Path, name: str, text: str, games: int | None = None) -> Path:
    p = tmp_path / f"{name}.toml"
    p.write_text(text)
    study = load_study(p)
    out = tmp_path / name
    run_study(study if games is None else study.with_games(games), out, SerialBackend())
    if games is not None:  # other than the plan's count played: the study file is the plan
        _restamp(study, out)
    return out


def _restamp(study, out: Path) -> None:
    """Writes the whole study (its planned games) into a results directory holding fewer."""
    import json

    meta = json.loads((out / "study.json").read_text())
    meta["study"] = study.to_dict()
    (out / "study.json").write_text(json.dumps(meta))


def _first_agent_rates(out: Path) -> dict[str, tuple[float, int]]:
    study, _ = load_run(out)
    table, _ = read_rows((out / "parts").glob("*.parquet"))
    by: dict[str, list] = {}
    for r in table.to_pylist():
        if r["index"] < study.games:
            won, n = headline_share(r, win_shares(r, False, 1.0), study, False)
            w, k = by.get(r["cell_key"], (0.0, 0))
            by[r["cell_key"]] = (w + won, k + n)
    return by


DEC = '[decides]\nwritten = "2026-12-07 05:40 UTC"\n'


def test_a_threshold_rule_gives_met_or_not_met_by_the_headline_rate(tmp_path):
    out = _run(tmp_path, "hr", KK.format(players="2, 3", agents='"heuristic", "random"', games=12,
                                         decides=DEC + "at_least = 0.6\n"))
    v = verdict_of(out)
    rates = _first_agent_rates(out)
    for cell in v["cells"]:
        w, n = rates[cell["key"]]
        assert cell["rate"] == pytest.approx(w / n) and cell["counted"] == 12 == cell["planned"]
        assert cell["ci95"] == pytest.approx(wilson(w, n))
        assert cell["status"] == ("met" if w / n >= 0.6 else "not met")
    assert v["status"] == ("met" if all(c["status"] == "met" for c in v["cells"]) else "not met")
    # the heuristic beats random play at two players: the rule is met there
    assert v["cells"][0]["status"] == "met"
    # the same games read by a bar they cannot reach: not met
    p = tmp_path / "hr.toml"
    p.write_text(p.read_text().replace("at_least = 0.6", "at_least = 1.0"))
    _restamp(load_study(p), out)
    assert verdict_of(out)["status"] == ("met" if all(w == n for w, n in rates.values()) else "not met")


def test_the_lower_end_rule_and_fair_share_multiples(tmp_path):
    out = _run(tmp_path, "three", KK.format(players="3", agents='"heuristic", "random"', games=12,
                                            decides=DEC + "lower_above = 1.2\nfair_share = true\n"))
    v = verdict_of(out)
    [cell] = v["cells"]
    assert cell["threshold"] == pytest.approx(0.4)
    assert cell["status"] == ("met" if cell["ci95"][0] > 0.4 else "not met")
    assert "1.2 times the fair share" in v["rule"]


def test_a_cell_short_of_its_planned_games_is_pending_whatever_its_rate(tmp_path):
    out = _run(tmp_path, "part", KK.format(players="2", agents='"heuristic", "random"', games=20,
                                           decides=DEC + "played = 6\nat_least = 0.01\n"), games=6)
    v = verdict_of(out)
    assert v["status"] == "pending" and v["cells"][0]["counted"] == 6 and v["played"] == 6
    res = CliRunner().invoke(lab, ["report", str(out), "--no-plots"])
    assert res.exit_code == 0, res.output
    assert "decides: pending (6 of 20 games counted" in res.output
    text = (out / "report.md").read_text()
    assert "## Verdict: pending" in text and "written 2026-12-07 05:40 UTC with 6 games stored" in text


def test_games_past_the_plan_are_not_counted(tmp_path):
    out = _run(tmp_path, "more", KK.format(players="2", agents='"heuristic", "random"', games=10,
                                           decides=DEC + "at_least = 0.5\n"), games=16)
    [cell] = verdict_of(out)["cells"]
    assert cell["counted"] == 10 and cell["rate"] == pytest.approx(_first_agent_rates(out)["players=2"][0] / 10)


def _sign_p(k: int, n: int) -> float:
    return min(1.0, 2 * sum(comb(n, i) for i in range(min(k, n - k) + 1)) / 2**n) if n else 1.0


def test_a_paired_rule_counts_the_deals_each_way_and_runs_the_sign_test(tmp_path):
    base = _run(tmp_path, "rr", KK.format(players="2", agents='"random"', games=24, decides=""))
    out = _run(tmp_path, "hr", KK.format(players="2", agents='"heuristic", "random"', games=24,
                                         decides=DEC + f'better_than = "{base}"\np_below = 0.05\n'))
    [cell] = verdict_of(out)["cells"]
    a, b = read_rows((out / "parts").glob("*.parquet"))[0].to_pylist(), read_rows((base / "parts").glob("*.parquet"))[0].to_pylist()
    sa, _ = load_run(out)
    sb, _ = load_run(base)
    va = {r["index"]: headline_share(r, win_shares(r, False, 1.0), sa, False) for r in a}
    vb = {r["index"]: headline_share(r, win_shares(r, False, 1.0), sb, False) for r in b}
    better = sum(1 for i in va if va[i][0] / va[i][1] > vb[i][0] / vb[i][1])
    worse = sum(1 for i in va if va[i][0] / va[i][1] < vb[i][0] / vb[i][1])
    assert (cell["deals"], cell["better"], cell["worse"]) == (24, better, worse)
    assert cell["p"] == pytest.approx(_sign_p(better, better + worse))
    assert cell["status"] == ("met" if better > worse and cell["p"] < 0.05 else "not met")
    assert cell["status"] == "met"  # the heuristic is better than random play on most deals


def test_a_paired_rule_without_its_other_run_gives_no_verdict_and_says_why(tmp_path):
    out = _run(tmp_path, "hr", KK.format(players="2", agents='"heuristic", "random"', games=8,
                                         decides=DEC + 'better_than = "nowhere/at-all"\n'))
    v = verdict_of(out)
    assert v["status"] == "no verdict" and "nowhere/at-all cannot be read" in v["reason"]
    other = _run(tmp_path, "rr", KK.format(players="2", agents='"random"', games=8, decides="").replace(
        "seed = 3", "seed = 4"))
    p = tmp_path / "hr.toml"
    p.write_text(p.read_text().replace("nowhere/at-all", str(other)))
    _restamp(load_study(p), out)
    v = verdict_of(out)
    assert v["status"] == "no verdict" and "not played on these deals" in v["reason"]


def test_a_study_without_a_rule_has_no_verdict_and_its_report_no_section(tmp_path):
    out = _run(tmp_path, "plain", KK.format(players="2", agents='"heuristic", "random"', games=4, decides=""))
    assert verdict_of(out) is None
    _, a = write_report(out, plots=False)
    assert a["verdict"] is None and "Verdict" not in (out / "report.md").read_text()


@pytest.mark.parametrize("table, field", [
    ('at_least = 0.5', "decides.written"),
    ('written = ""\nat_least = 0.5', "decides.written"),
    ('written = "x"', "decides"),
    ('written = "x"\nat_least = 0.5\nlower_above = 0.5', "decides"),
    ('written = "x"\nat_least = 1.5', "decides.at_least"),
    ('written = "x"\nat_least = "half"', "decides.at_least"),
    ('written = "x"\nat_least = 0.5\nplayed = -1', "decides.played"),
    ('written = "x"\nat_least = 0.5\np_below = 0.05', "decides.p_below"),
    ('written = "x"\nbetter_than = "d"\nfair_share = true', "decides.fair_share"),
    ('written = "x"\nat_least = 0.5\nwhen = "now"', "decides.when"),
])
def test_a_bad_rule_names_its_key_and_what_is_accepted(table, field):
    data = {"game": "kings-kilt", "players": 2, "decides": dict(_toml(table))}
    with pytest.raises(StudyError) as e:
        parse_study(data)
    assert e.value.field == field and field in str(e.value)


def _toml(text: str) -> dict:
    import tomllib

    return tomllib.loads(text)


def test_the_rule_survives_the_results_directory(tmp_path):
    out = _run(tmp_path, "keep", KK.format(players="2", agents='"heuristic", "random"', games=4,
                                           decides=DEC + "played = 0\nlower_above = 0.5\n"))
    study, _ = load_run(out)
    assert study.decides == load_study(tmp_path / "keep.toml").decides
    assert study.decides.lower_above == 0.5 and study.decides.written == "2026-12-07 05:40 UTC"
    # the rule fixes no game: adding one keeps the study's fingerprint, so the games stay
    assert study.fingerprint() == load_study(tmp_path / "keep.toml").fingerprint()
    res = CliRunner().invoke(lab, ["show", str(tmp_path / "keep.toml")])
    assert res.exit_code == 0 and "decides (written 2026-12-07 05:40 UTC, with 0 games stored): " \
        "the 95% interval's lower end above 50.0% in every cell" in res.output


def test_lab_run_prints_the_verdict_when_the_games_are_in(tmp_path):
    p = tmp_path / "cli.toml"
    p.write_text(KK.format(players="2", agents='"heuristic", "random"', games=6, decides=DEC + "at_least = 0.5\n"))
    res = CliRunner().invoke(lab, ["run", str(p), "-j", "1", "-q", "--out", str(tmp_path / "cli")])
    assert res.exit_code == 0, res.output
    v = verdict_of(tmp_path / "cli")
    assert f"decides: {v['status']}; the rule, written 2026-12-07 05:40 UTC with 0 games stored: " in res.output


def test_a_rule_changed_once_games_are_stored_is_kept_and_reported(tmp_path):
    p = tmp_path / "ch.toml"
    p.write_text(KK.format(players="2", agents='"heuristic", "random"', games=6, decides=DEC + "at_least = 0.5\n"))
    out = tmp_path / "ch"
    run_study(load_study(p), out, SerialBackend())  # the rule fixed before any game: no change
    run_study(load_study(p), out, SerialBackend())  # the same rule again: no change
    assert verdict_of(out)["changes"] == []
    p.write_text(p.read_text().replace("at_least = 0.5", "at_least = 0.3"))
    run_study(load_study(p), out, SerialBackend())  # nothing left to play; the rule is rewritten
    [ch] = verdict_of(out)["changes"]
    assert ch["games"] == 6 and ch["from"]["at_least"] == 0.5 and ch["to"]["at_least"] == 0.3
    _, meta = load_run(out)
    assert meta["rule_changes"] == [ch]
    res = CliRunner().invoke(lab, ["report", str(out), "--no-plots"])
    assert "(changed 1 time(s) once games were stored: see the report)" in res.output
    text = (out / "report.md").read_text()
    assert f"The rule changed at {ch['at']}, with 6 games stored: from 'the headline rate at least 50.0%" in text
    # dropping the rule is a change too, and the history stays in the directory
    p.write_text(KK.format(players="2", agents='"heuristic", "random"', games=6, decides=""))
    run_study(load_study(p), out, SerialBackend())
    _, meta = load_run(out)
    assert [c["to"] for c in meta["rule_changes"]] == [ch["to"], None]


def test_lab_verdicts_lists_every_results_directory_with_a_rule(tmp_path):
    _run(tmp_path, "ruled", KK.format(players="2", agents='"heuristic", "random"', games=4,
                                      decides=DEC + "at_least = 0.5\n"))
    _run(tmp_path, "plain", KK.format(players="2", agents='"heuristic", "random"', games=4, decides=""))
    res = CliRunner().invoke(lab, ["verdicts", str(tmp_path)])
    assert res.exit_code == 0, res.output
    status = verdict_of(tmp_path / "ruled")["status"]
    assert f"| {tmp_path / 'ruled'} | {status} | 4 of 4 | the headline rate at least 50.0% in every cell" in res.output
    assert "plain" not in res.output
    res = CliRunner().invoke(lab, ["verdicts", str(tmp_path / "plain")])
    assert res.exit_code == 0 and "no results directory with a [decides] rule there" in res.output
    import json

    res = CliRunner().invoke(lab, ["verdicts", str(tmp_path), "--json"])
    [v] = json.loads(res.output)
    assert v["dir"] == str(tmp_path / "ruled") and v["status"] == status


def test_fair_share_is_refused_in_a_cooperative_game():
    data = {"game": "gangs-of-green-city", "players": 2,
            "decides": {"written": "x", "at_least": 1.5, "fair_share": True}}
    with pytest.raises(StudyError) as e:
        parse_study(data)
    assert e.value.field == "decides.fair_share" and "co-operative" in str(e.value)


def test_a_paired_rule_whose_other_run_lacks_deals_gives_no_verdict(tmp_path):
    base = _run(tmp_path, "rr", KK.format(players="2", agents='"random"', games=5, decides=""))
    out = _run(tmp_path, "hr", KK.format(players="2", agents='"heuristic", "random"', games=8,
                                         decides=DEC + f'better_than = "{base}"\n'))
    v = verdict_of(out)
    assert v["status"] == "no verdict" and v["cells"][0]["deals"] == 5
    assert "holds 5 of the 8 counted deals of cell 'players=2'" in v["reason"]
    # by its name beside the results directory, when the path given does not exist from here
    p = tmp_path / "hr.toml"
    p.write_text(p.read_text().replace(str(base), "elsewhere/rr"))
    _restamp(load_study(p), out)
    assert verdict_of(out)["cells"][0]["deals"] == 5
