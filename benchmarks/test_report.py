"""The report's paired ratio: turn by turn, round by round, and only where the two
implementations were timed in the same turns."""

from __future__ import annotations

from benchmarks.report import paired_ratio


def _rec(times, round_reps, in_turns=True):
    return {"times_s": times, "round_reps": round_reps, "in_turns": in_turns}


def test_paired_ratio_compares_within_each_turn():
    # the machine's state moves between turns (x1, x3, x2); okl takes 1.25x the peer's time
    # in every turn
    peer = _rec([1.0, 3.0, 2.0], [3])
    okl = _rec([1.25, 3.75, 2.5], [3])
    assert abs(paired_ratio(okl, peer) - 0.8) < 1e-12
    # okl is faster in two turns of three; the peer's one lucky call (1.0, where okl took
    # 1.1) is what the two best times compare (1.0 / 1.1 = 0.91): the turns say 1 / 0.9
    okl = _rec([1.1, 1.8, 1.8], [3])
    assert abs(paired_ratio(okl, _rec([1.0, 2.0, 2.0], [3])) - 2.0 / 1.8) < 1e-12


def test_paired_ratio_aligns_rounds_of_unequal_repetitions():
    # round 1: okl 3 turns, peer 2 (its budget ran out): the third okl time has no partner;
    # round 2 starts after each one's own first-round times
    okl = _rec([2.0, 2.0, 99.0, 4.0, 4.0], [3, 2])
    peer = _rec([1.0, 1.0, 2.0, 2.0], [2, 2])
    assert paired_ratio(okl, peer) == 0.5


def test_paired_ratio_needs_both_timed_in_turns():
    okl = _rec([1.0, 2.0], [2])
    assert paired_ratio(okl, _rec([1.0, 2.0], [2], in_turns=False)) is None  # a GPU row
    assert paired_ratio(okl, {"times_s": [1.0, 2.0]}) is None  # a file from before
    assert paired_ratio(okl, _rec([1.0, 2.0, 1.0], [1, 2])) is None  # rounds disagree
