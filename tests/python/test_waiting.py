import math
import time

import pytest

from runpad.waiting import interruptible_sleep


class FakeClock:
    """A clock that moves only when the sleep waits, by as long as it asked to wait."""

    def __init__(self):
        self.now = 100.0
        self.waits = []

    def __call__(self):
        return self.now

    def wait(self, ms):
        self.waits.append(ms)
        self.now += ms / 1000


def make_sleep(clock):
    return interruptible_sleep(clock.wait, clock=clock)


def test_a_sleep_waits_once_for_its_whole_length():
    clock = FakeClock()
    make_sleep(clock)(2.5)
    assert clock.waits == [2500.0]


def test_a_long_sleep_waits_in_pieces_until_its_end():
    clock = FakeClock()
    make_sleep(clock)(150)
    assert clock.waits == [60_000.0, 60_000.0, 30_000.0]
    assert clock.now == 250.0


def test_a_wait_cut_short_is_resumed_for_the_time_left():
    # A wait returns early when the interrupt buffer changes; the sleep waits for what is left.
    clock = FakeClock()
    calls = []

    def short_wait(ms):
        calls.append(ms)
        clock.now += min(ms, 400) / 1000

    interruptible_sleep(short_wait, clock=clock)(1)
    assert [round(ms) for ms in calls] == [1000, 600, 200]


def test_zero_waits_for_nothing():
    clock = FakeClock()
    make_sleep(clock)(0)
    assert clock.waits == []


def test_the_argument_is_checked_as_time_sleep_checks_it():
    sleep = make_sleep(FakeClock())
    with pytest.raises(ValueError, match="non-negative"):
        sleep(-1)
    with pytest.raises(TypeError):
        sleep("1")
    with pytest.raises(ValueError):
        sleep(math.nan)


def test_an_interrupt_raised_by_the_wait_ends_the_sleep():
    def interrupted(_ms):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interruptible_sleep(interrupted)(5)


def test_it_keeps_time_sleeps_name_and_help():
    sleep = make_sleep(FakeClock())
    assert sleep.__name__ == "sleep" and sleep.__doc__ == time.sleep.__doc__
