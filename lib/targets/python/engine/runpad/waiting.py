"""`time.sleep` that waits instead of spinning.

In the browser, CPython's sleep is a busy loop: a cell that sleeps keeps a core at 100 % for as
long as it sleeps (a progress bar that sleeps between steps, a polling loop). The worker hands
the kernel a function that blocks the thread on the interrupt buffer (`Atomics.wait`) for a
number of milliseconds, and returns at once when the page asks for an interrupt; the sleep below
waits with it, and the interrupt is then raised by the interpreter's own periodic check, as for
any other running code. Before a sleep of FLUSH_BEFORE_S or more, the text the run has printed so
far is sent (`before_wait`): a loop that prints a tick and sleeps shows each tick as it comes.
"""

import time

# Waits are cut into pieces this long: a wait is not interrupted by anything but the buffer.
_LONGEST_WAIT_S = 60.0


# A sleep this long sends the printed text first; a shorter one leaves it to the next write.
FLUSH_BEFORE_S = 0.1


def interruptible_sleep(wait, *, real_sleep=time.sleep, clock=time.monotonic, before_wait=None):
    """A `time.sleep` that blocks in `wait(milliseconds)` until its time is up."""

    def sleep(seconds, /):
        # time.sleep's own checks of the argument (its type, NaN), without sleeping.
        real_sleep(0 * seconds)
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        if before_wait is not None and seconds >= FLUSH_BEFORE_S:
            before_wait()
        deadline = clock() + seconds
        while (left := deadline - clock()) > 0:
            wait(min(left, _LONGEST_WAIT_S) * 1000)

    sleep.__doc__ = real_sleep.__doc__
    sleep.__name__ = real_sleep.__name__
    return sleep


def install(wait):
    """Replaces time.sleep for the interpreter's life (the module is shared by every import)."""
    from .streams import flush_current_run

    time.sleep = interruptible_sleep(wait, before_wait=flush_current_run)
