"""The load test's open loop (``--rate``), issue 14 §5 ("report moves/s and p50/p99 before and after").

The latency of two servers is compared at the same offered load: the client's schedule
(``_Pacer``) must hand out evenly spaced send slots, first ready first served, and keep
owing the slots that pass while no move is ready, so that a server that falls behind shows
it in the latency counted from the slot.
"""

from __future__ import annotations

import pytest

from kingmaker.web.loadtest import _Pacer, main


def test_slots_are_evenly_spaced_and_given_first_ready_first_served():
    p = _Pacer(10.0, t0=100.0)  # a slot every 0.1 s
    for seat in "abc":
        p.add(seat)
    assert p.due(100.0) == [("a", 100.0)]  # one slot at a time, never a burst
    assert p.due(100.05) == []  # b is ready, but its slot has not come
    assert p.next_slot() == pytest.approx(100.1)
    assert p.due(100.1) == [("b", pytest.approx(100.1))]
    assert p.due(100.2) == [("c", pytest.approx(100.2))]
    assert p.behind(100.2) == 0.0


def test_a_slot_that_passes_with_no_move_ready_stays_owed():
    p = _Pacer(10.0, t0=0.0)
    p.add("a")
    assert p.due(0.0) == [("a", 0.0)]
    # nothing is ready during 0.1-0.35 s (the server has not answered): the slots at 0.1,
    # 0.2 and 0.3 are owed, not dropped
    assert p.due(0.35) == []
    assert p.behind(0.35) == pytest.approx(0.25)
    p.add("b")
    p.add("c")
    # the two moves ready go at once, each charged its owed slot (latency counted from it)
    assert p.due(0.36) == [("b", pytest.approx(0.1)), ("c", pytest.approx(0.2))]
    assert p.behind(0.36) == pytest.approx(0.06)
    p.add("d")
    assert p.due(0.36) == [("d", pytest.approx(0.3))]
    assert p.behind(0.36) == 0.0


def test_a_move_no_longer_ready_leaves_the_queue_without_taking_a_slot():
    p = _Pacer(10.0, t0=0.0)
    for seat in "abc":
        p.add(seat)
    assert p.due(0.15, ok=lambda seat: seat != "a") == [("b", 0.0), ("c", pytest.approx(0.1))]


def test_the_rate_must_be_positive():
    with pytest.raises(ValueError, match="positive"):
        _Pacer(0.0, t0=0.0)
    with pytest.raises(SystemExit):
        main(["--rate", "-5"])


def test_the_open_loop_reports_the_offered_and_achieved_rate(capsys):
    res = main(["--games", "3", "--players", "2", "--rate", "40", "--warmup", "0.3", "--duration", "1.5"])
    assert res["errors"] == 0 and res["stalled"] == 0
    assert res["offered_rate"] == 40.0 and 0 < res["achieved_rate"] <= 60
    assert res["measured_moves"] > 0 and res["sched_p50_ms"] is not None and res["p99_ms"] >= res["p50_ms"]
    assert res["slots_used"] >= res["moves"] > 0
    assert '"achieved_rate"' in capsys.readouterr().out
