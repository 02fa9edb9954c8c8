"""The env-speed benchmark's loop and table (issue 13 section 3, benchmarks/rl.md).

No timing is asserted: the loop must play whole games through the env's masks (every
rulebook's legal moves) and the table must compare each row with leduc and connect four
of the same run.
"""

from __future__ import annotations

from kingmaker.rl.bench import _pz_runner, format_envs
from kingmaker.rl.pettingzoo import env


def test_runner_plays_whole_games_and_resumes() -> None:
    r = _pz_runner(lambda: env("kings-kilt", players=2))
    r.run(0.0)  # at least one whole game, however short the turn
    first = r.result()
    assert first["games"] >= 1 and first["steps"] > 10
    r.run(0.0)
    second = r.result()
    assert second["games"] == first["games"] + 1 and second["steps"] > first["steps"]
    assert second["cpu"] >= first["cpu"] > 0


def test_table_gives_ratios_to_leduc_and_connect_four() -> None:
    rows = [
        {"env": "leduc_holdem_v4", "api": "PettingZoo classic", "steps_per_s": 3000.0, "games": 9},
        {"env": "connect_four_v3", "api": "PettingZoo classic", "steps_per_s": 9000.0, "games": 9},
        {"env": "kings-kilt (2p)", "api": "kingmaker PettingZoo AEC", "steps_per_s": 16500.0, "games": 9,
         "costs_us": {"engine": 7.0, "tensor": 5.0, "array": 1.0, "mask": 4.0}},
    ]
    table = format_envs(rows).splitlines()
    assert table[-1] == "| kings-kilt (2p) | kingmaker PettingZoo AEC | 16,500 | 5.5 | 1.83 | 9 | 7 / 5 / 1 / 4 |"
    assert table[2].startswith("| leduc_holdem_v4 | PettingZoo classic | 3,000 | 1.0 | 0.33 |")
