"""Opt-in age pruning shared by the overflow stores: validation, `prune_now`, and the background schedule.

A store mixes in `AgePruning`, declares `cleanup_after` and `prune_interval` as its own dataclass
fields (so each keeps its constructor), implements `_prune(cutoff)` for its medium and `_location()`
for messages, and calls `_schedule_prune()` after each write. Everything else (one background pass
per interval on a daemon thread, the `tool_output.prune` span and counters, one warning per pass
that met errors, never raising into a run) is the same for every store and lives here.
"""

from __future__ import annotations

import contextlib
import threading
import time
import warnings
from datetime import timedelta

from ._records import PruneRecord
from ._telemetry import record_prune

__all__ = ['AgePruning', 'OverflowStoreWarning', 'PruneRecord', 'wall_clock']


class OverflowStoreWarning(UserWarning):
    """Something went wrong off the hot path (a prune could not delete a file) and the run went on."""


def wall_clock() -> float:
    """Seconds since the epoch that prune cutoffs are computed from (a seam for tests that age a store)."""
    return time.time()


class AgePruning:
    """Background age pruning for a store dataclass; see the module docstring for what a store provides.

    A plain mixin rather than a dataclass, so it adds no constructor arguments and its bookkeeping
    takes no part in a store's `repr` or equality.
    """

    cleanup_after: timedelta | None
    prune_interval: timedelta
    _prune_lock: threading.Lock
    _prune_thread: threading.Thread | None
    _last_prune_start: float | None

    def _init_pruning(self) -> None:
        """Check the settings and set up the schedule; call from the store's `__post_init__`."""
        if self.cleanup_after is not None and self.cleanup_after <= timedelta(0):
            raise ValueError(
                f'cleanup_after must be a positive timedelta, got {self.cleanup_after!r}; '
                'use None to keep files forever'
            )
        if self.prune_interval < timedelta(0):
            raise ValueError(f'prune_interval must not be negative, got {self.prune_interval!r}')
        self._prune_lock = threading.Lock()
        self._prune_thread = None
        self._last_prune_start = None

    def _prune(self, cutoff: float) -> PruneRecord:
        """Delete what was last modified before `cutoff` (epoch seconds); never raise for what is met."""
        raise NotImplementedError

    def _location(self) -> str:
        """Where the store keeps its data, for warnings (never holding credentials)."""
        raise NotImplementedError

    def prune_now(self, older_than: timedelta | None = None) -> PruneRecord:
        """Delete stored payloads whose modification time is older than `older_than` (default `cleanup_after`).

        Synchronous: for tests and cron-like use. Never raises for what it meets in the store: failures
        are counted in the returned record and telemetry, and reported once with `OverflowStoreWarning`.
        Empty directories that have not changed since the cutoff go too, where the medium has them.
        Access times are not used: `noatime`/`relatime` mounts make them meaningless, and object
        stores do not keep them.
        """
        age = self.cleanup_after if older_than is None else older_than
        if age is None:
            raise ValueError('nothing to prune against: pass prune_now(older_than=timedelta(...)) or set cleanup_after')
        if age <= timedelta(0):
            raise ValueError(f'older_than must be a positive timedelta, got {age!r}')
        start_ns = time.time_ns()
        record = self._prune(wall_clock() - age.total_seconds())
        record_prune(record, start_ns)
        if record.errors:
            reasons = ', '.join(f'{name} x{count}' for name, count in sorted(record.failures.items()))
            warnings.warn(
                f'pruning the overflow store at {self._location()} met {record.errors} error(s) ({reasons}); the '
                'entries involved were kept. Check their permissions, or remove them by hand.',
                OverflowStoreWarning,
                stacklevel=2,
            )
        return record

    def _schedule_prune(self) -> None:
        if self.cleanup_after is None:
            return
        now = time.monotonic()
        with self._prune_lock:
            running = self._prune_thread is not None and self._prune_thread.is_alive()
            recent = (
                self._last_prune_start is not None
                and now - self._last_prune_start < self.prune_interval.total_seconds()
            )
            if running or recent:
                return
            self._last_prune_start = now
            thread = threading.Thread(target=self._prune_in_background, name='observable-harness-prune', daemon=True)
            self._prune_thread = thread
        try:
            thread.start()
        except RuntimeError as error:  # the interpreter is out of threads or shutting down
            self._warn_quietly(f'could not start the background prune of {self._location()} ({type(error).__name__})')

    def _prune_in_background(self) -> None:
        try:
            self.prune_now()
        except Exception as error:
            # prune_now only raises for a bad configuration or a warning filter set to "error";
            # neither may escape a daemon thread.
            self._warn_quietly(f'the background prune of {self._location()} failed ({type(error).__name__}: {error})')

    @staticmethod
    def _warn_quietly(message: str) -> None:
        # A warning filter set to "error" must not kill the thread either.
        with contextlib.suppress(Exception):
            warnings.warn(message, OverflowStoreWarning, stacklevel=2)
