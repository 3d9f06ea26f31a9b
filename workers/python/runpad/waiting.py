"""`time.sleep` that waits instead of spinning.

In the browser, CPython's sleep is a busy loop: a cell that sleeps keeps a core at 100 % for as
long as it sleeps (a progress bar that sleeps between steps, a polling loop). The worker hands
the kernel a function that blocks the thread on the interrupt buffer (`Atomics.wait`) for a
number of milliseconds, and returns at once when the page asks for an interrupt; the sleep below
waits with it, and the interrupt is then raised by the interpreter's own periodic check, as for
any other running code.
"""

import time

# Waits are cut into pieces this long: a wait is not interrupted by anything but the buffer.
_LONGEST_WAIT_S = 60.0


def interruptible_sleep(wait, *, real_sleep=time.sleep, clock=time.monotonic):
    """A `time.sleep` that blocks in `wait(milliseconds)` until its time is up."""

    def sleep(seconds, /):
        # time.sleep's own checks of the argument (its type, NaN), without sleeping.
        real_sleep(0 * seconds)
        if seconds < 0:
            raise ValueError("sleep length must be non-negative")
        deadline = clock() + seconds
        while (left := deadline - clock()) > 0:
            wait(min(left, _LONGEST_WAIT_S) * 1000)

    sleep.__doc__ = real_sleep.__doc__
    sleep.__name__ = real_sleep.__name__
    return sleep


def install(wait):
    """Replaces time.sleep for the interpreter's life (the module is shared by every import)."""
    time.sleep = interruptible_sleep(wait)
