"""A progress line for the long calls (gen, train, avi) when the caller
gives no callback of their own: on stderr, rewritten in place, in a
terminal and in Jupyter (whose stderr shows carriage returns the same way).
heurnet.set_progress(False) turns it off everywhere, progress=False per
call; by default it is on when stderr is a terminal or a notebook."""

import sys
import time
from typing import Callable, Optional

_enabled: Optional[bool] = None  # None: decided by where stderr goes


def set_progress(enabled: Optional[bool]) -> None:
    """Show progress lines on long calls (True), never (False), or when
    stderr is a terminal or a Jupyter notebook (None, the default)."""
    global _enabled
    if enabled is not None and not isinstance(enabled, bool):
        raise TypeError("set_progress: expected True, False or None, not %r" % (enabled,))
    _enabled = enabled


def _interactive() -> bool:
    if "ipykernel" in sys.modules:
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class _Line:
    """progress(done, total, extra) as one line on stderr, at most ten
    updates a second, ended when done reaches total."""

    def __init__(self, what):
        self.what = what
        self.last = 0.0

    def __call__(self, done, total, extra):
        now = time.monotonic()
        end = total and done >= total
        if not end and now - self.last < 0.1:
            return
        self.last = now
        share = " (%.1f%%)" % (100.0 * done / total) if total else ""
        sys.stderr.write("\r%s %d/%d%s %s\033[K" % (self.what, done, total, share, extra or ""))
        if end:
            sys.stderr.write("\n")
        sys.stderr.flush()


def choose(progress, what: str) -> Optional[Callable]:
    """The callback a long call uses: the caller's, none for False, else a
    progress line when progress lines are on."""
    if progress is False:
        return None
    if progress is not None and progress is not True:
        return progress
    on = _enabled if _enabled is not None else _interactive()
    return _Line(what) if (on or progress is True) else None
