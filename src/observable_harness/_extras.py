"""What to install for a feature that lives in an extra, said in the error the missing import raises."""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager

__all__ = ['MissingExtra', 'needs_extra']


class MissingExtra(ImportError):
    """A feature was used whose optional dependencies are not installed; the message names the extra."""


@contextmanager
def needs_extra(extra: str, feature: str) -> Generator[None]:
    """Turn a missing optional dependency imported inside the block into an error naming `extra`.

    ```python
    from observable_harness._extras import MissingExtra, needs_extra

    try:
        with needs_extra('telemetry', 'the local metrics endpoint'):
            import a_module_nobody_installed  # noqa: F401
    except MissingExtra as error:
        assert "pip install 'observable-harness[telemetry]'" in str(error)
    ```
    """
    try:
        yield
    except ModuleNotFoundError as error:
        raise MissingExtra(
            f'{feature} needs the {extra!r} extra ({error.name} is not installed): '
            f"pip install 'observable-harness[{extra}]'"
        ) from error
