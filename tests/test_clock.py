"""The clock arithmetic of timed games (INTERFACES.md §7), with the time passed in."""

from __future__ import annotations

from typing import Any

import pytest

from binscrabble.clock import DAY_MS, Clock, ClockError, ClockRules


@pytest.mark.parametrize(
    ("given", "problem"),
    [
        ("live", "must be an object"),
        ({"kind": "blitz"}, "'kind' is 'untimed', 'live' or 'correspondence'"),
        ({"kind": "live"}, "needs 'seconds'"),
        ({"kind": "live", "seconds": 4}, "'seconds' is 5 to 86400, not 4"),
        ({"kind": "live", "seconds": 86_401}, "not 86401"),
        ({"kind": "live", "seconds": 60, "increment": 601}, "'increment' is 0 to 600"),
        ({"kind": "live", "seconds": 60, "overtime": -1}, "'overtime' is 0 to 600"),
        ({"kind": "live", "seconds": "60"}, "not '60'"),
        ({"kind": "live", "seconds": True}, "not True"),
        ({"kind": "live", "seconds": 60, "days": 2}, "takes 'seconds', 'increment', 'overtime'"),
        ({"kind": "correspondence", "days": 15}, "'days' is 1 to 14, not 15"),
        ({"kind": "correspondence", "days": 0}, "not 0"),
        ({"kind": "untimed", "seconds": 5}, "takes no other setting"),
    ],
)
def test_a_clock_that_cannot_be_is_refused_with_a_sentence(given: Any, problem: str) -> None:
    with pytest.raises(ClockError, match=problem.replace("(", r"\(")):
        ClockRules.from_mapping(given)


def test_clocks_that_can_be() -> None:
    assert ClockRules.from_mapping(None) is None
    assert ClockRules.from_mapping({"kind": "untimed"}) is None
    live = ClockRules.from_mapping({"kind": "live", "seconds": 5})
    assert live == ClockRules("live", seconds=5)
    assert live.to_mapping() == {"kind": "live", "seconds": 5, "increment": 0, "overtime": 0}
    days = ClockRules.from_mapping({"kind": "correspondence", "days": 14})
    assert days is not None and days.to_mapping() == {"kind": "correspondence", "days": 14}


def test_a_live_clock_runs_for_the_seat_to_move_and_adds_the_increment() -> None:
    clock = Clock(ClockRules("live", seconds=60, increment=2), seats=3, start=1_000)
    assert clock.remaining(11_000) == [50_000, 60_000, 60_000] and clock.running == 0
    clock.turn_ended(21_000, next_seat=1)
    assert clock.remaining(21_000) == [42_000, 60_000, 60_000]
    assert clock.deadline() == 81_000
    clock.turn_ended(30_000, next_seat=2, moved=False)  # seat 1 left: no increment
    assert clock.remaining(40_000) == [42_000, 51_000, 50_000]
    assert not clock.expired(89_999) and clock.expired(90_000)
    clock.turn_ended(50_000, next_seat=None)
    assert clock.running is None and clock.deadline() is None
    assert clock.remaining(10**9) == clock.remaining(50_000)


def test_overtime_costs_ten_points_for_each_minute_started() -> None:
    clock = Clock(ClockRules("live", seconds=5, overtime=600), seats=2, start=0)
    assert clock.deadline() == 605_000
    clock.turn_ended(5_001, next_seat=1)  # one millisecond into overtime: one minute
    assert clock.penalties() == [10, 0]
    clock.turn_ended(5_001, next_seat=0)
    clock.turn_ended(65_002, next_seat=1)  # deeper: 60.002 s over, two minutes started
    assert clock.remaining(65_002)[0] == -60_002
    assert clock.penalties() == [20, 0]
    # The running seat's overtime so far counts when asked as of a time.
    assert clock.penalties(now=65_002 + 5_000 + 120_000) == [20, 20]


def test_a_correspondence_clock_gives_each_move_its_days() -> None:
    clock = Clock(ClockRules("correspondence", days=2), seats=2, start=0)
    assert clock.deadline() == 2 * DAY_MS
    clock.turn_ended(DAY_MS, next_seat=1)
    assert clock.remaining(DAY_MS + 5) == [2 * DAY_MS, 2 * DAY_MS - 5]
    assert clock.deadline() == 3 * DAY_MS and clock.penalties() == [0, 0]
