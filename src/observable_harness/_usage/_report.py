"""Recording model usage and its price once per response, however many of our capabilities see the response.

`ToolOutputLimits` and `SystemReminders` both call in from `after_model_request`; on one agent both see the
same `ModelResponse`, and the first call records it while the second gets the same `ResponseCost` back
without pricing it again. Runs are told apart by `ctx.run_id`: the cost of a run is the sum of its responses,
recorded once when the run ends.

Only model and provider names, tool names and numbers reach telemetry. Nothing here raises into a run.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic_ai.messages import ModelResponse
from pydantic_ai.tools import RunContext

from ..telemetry import current, guarded, names
from ._pricing import ResponseCost, TokenSplit, price_response

__all__ = ['agent_label', 'record_avoided', 'record_reminded_input', 'record_response', 'record_run_end']

_MAX_OPEN_RUNS = 4096
"""Runs that raise never reach `after_run`; beyond this many open runs, the oldest are forgotten."""


class _SeenResponses:
    """The `ResponseCost` of each live response already recorded, keyed by identity (responses are unhashable)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[int, tuple[weakref.ref[ModelResponse], ResponseCost]] = {}

    def get(self, response: ModelResponse) -> ResponseCost | None:
        with self._lock:
            entry = self._entries.get(id(response))
        if entry is not None and entry[0]() is response:
            return entry[1]
        return None

    def add(self, response: ModelResponse, cost: ResponseCost) -> tuple[ResponseCost, bool]:
        """Keep `cost` for `response` and say so; if another caller got there first, return its cost instead."""
        key = id(response)
        entries = self._entries

        def forget(_: weakref.ref[ModelResponse]) -> None:
            with self._lock:
                entry = entries.get(key)
                if entry is not None and entry[0]() is None:
                    del entries[key]

        with self._lock:
            entry = entries.get(key)
            if entry is not None and entry[0]() is response:
                return entry[1], False
            entries[key] = (weakref.ref(response, forget), cost)
        return cost, True


@dataclass
class _OpenRun:
    cost: float = 0.0
    unpriced: int = 0


_seen = _SeenResponses()
_reminded_lock = threading.Lock()
_reminded: weakref.WeakValueDictionary[int, ModelResponse] = weakref.WeakValueDictionary()
_runs_lock = threading.Lock()
_runs: OrderedDict[str, _OpenRun] = OrderedDict()


def agent_label(ctx: RunContext[Any]) -> str:
    """The agent's name as a telemetry label (`unnamed` for an agent without one)."""
    agent = ctx.agent
    return agent.name if agent is not None and agent.name else 'unnamed'


def record_response(response: ModelResponse, run_id: str | None) -> ResponseCost | None:
    """Count `response`'s tokens by how they are billed and its price, once; return its `ResponseCost`.

    `None` only when telemetry itself failed.
    """
    known = _seen.get(response)
    if known is not None:
        return known
    with guarded('a model response usage'):
        cost, first = _seen.add(response, price_response(response))
        if not first:  # another thread recorded it while this one was pricing
            return cost
        instrumentation = current()
        tokens = instrumentation.counter(names.USAGE_TOKENS)
        for kind, count in cost.split.by_type():
            if count:
                tokens.add(count, cost.model, cost.provider, kind)
        instrumentation.counter(names.USAGE_RESPONSES).add(1, cost.model, cost.provider, cost.outcome)
        if cost.priced:
            spent = instrumentation.counter(names.USAGE_COST)
            spent.add(cost.input_usd, cost.model, cost.provider, 'input')
            spent.add(cost.output_usd, cost.model, cost.provider, 'output')
        if run_id is not None:
            _add_to_run(run_id, cost)
        return cost
    return None


def _add_to_run(run_id: str, cost: ResponseCost) -> None:
    with _runs_lock:
        run = _runs.get(run_id)
        if run is None:
            run = _runs[run_id] = _OpenRun()
            while len(_runs) > _MAX_OPEN_RUNS:
                _runs.popitem(last=False)
        if cost.priced:
            run.cost += cost.total_usd
        else:
            run.unpriced += 1


def record_run_end(run_id: str | None, agent: str) -> None:
    """At the end of a run: its cost, when every response of it was priced (once, whoever calls first)."""
    if run_id is None:
        return
    with _runs_lock:
        run = _runs.pop(run_id, None)
    if run is None or run.unpriced:
        return  # recorded already, or a run with an unpriced response has no known cost
    with guarded('a run cost'):
        current().histogram(names.USAGE_RUN_COST).record(run.cost, agent)


def record_avoided(cost: ResponseCost, avoided_by_tool: Iterable[tuple[str, int]]) -> None:
    """Price the tokens each tool's reductions kept out of this response's request, as a range."""
    if not cost.priced:
        return
    with guarded('avoided re-send costs'):
        counter = current().counter(names.COST_AVOIDED)
        for tool, tokens in avoided_by_tool:
            avoided = cost.avoided(tokens)
            if avoided is None:
                continue
            counter.add(avoided.lower, tool, cost.model, 'lower')
            counter.add(avoided.upper, tool, cost.model, 'upper')
            if avoided.expected is not None:
                counter.add(avoided.expected, tool, cost.model, 'expected')


def record_reminded_input(response: ModelResponse, *, reminded: bool) -> None:
    """Input tokens of a response in a run with SystemReminders, by whether its request carried a reminder."""
    key = id(response)
    with _reminded_lock:
        if _reminded.get(key) is response:
            return
        _reminded[key] = response
    with guarded('reminder cache tokens'):
        split = TokenSplit.of(response.usage)
        model = response.model_name or 'unknown'
        counter = current().counter(names.REMINDERS_INPUT_TOKENS)
        for kind, count in split.by_type():
            if count and kind != 'output':
                counter.add(count, model, reminded, kind)
