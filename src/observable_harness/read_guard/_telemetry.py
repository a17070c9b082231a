"""How the read guard reports: one `bounded.guard` span per decision, refusals counted by tool and reason."""

from __future__ import annotations

from collections.abc import Callable, Generator
from contextlib import contextmanager

from opentelemetry.trace import Span
from opentelemetry.util.types import AttributeValue

from ..telemetry import current, guarded, names
from ._decision import GuardDecision

__all__ = ['guard_span']


def _record_guard(current_span: Span, tool: str, decision: GuardDecision) -> None:
    attributes: dict[str, AttributeValue] = {
        names.BOUNDED_GUARD_DECISION: 'refuse' if decision.refused else 'allow',
        names.BOUNDED_GUARD_REASON: decision.reason,
        names.LOGFIRE_MSG: f'guard {tool}: {"refused" if decision.refused else "allowed"} ({decision.reason})',
    }
    if decision.lines is not None:
        attributes[names.BOUNDED_GUARD_LINES] = decision.lines
        attributes[names.LOGFIRE_MSG] = f'{attributes[names.LOGFIRE_MSG]}, {decision.lines:,} lines'
    current_span.set_attributes(attributes)
    if decision.refused:
        current().counter(names.BOUNDED_GUARD_REFUSALS).add(1, tool, decision.reason)


@contextmanager
def guard_span(tool: str, tool_call_id: str) -> Generator[Callable[[GuardDecision], None]]:
    """Span `bounded.guard` around one guard decision; call the yielded function with the decision."""
    attributes: dict[str, AttributeValue] = {names.GEN_AI_TOOL_NAME: tool, names.GEN_AI_TOOL_CALL_ID: tool_call_id}
    with current().span(names.SPAN_GUARD, attributes) as current_span:

        def record(decision: GuardDecision) -> None:
            with guarded('a guard decision'):
                _record_guard(current_span, tool, decision)

        yield record
