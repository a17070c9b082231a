"""The telemetry catalog: every span name, attribute key and metric this project emits.

Nothing outside this module spells a telemetry name as a string literal. Dashboards, alert rules and
tests read the same constants, so a rename is one edit here and a failing test everywhere else.

Values carried under these keys are pointers (handles), sizes, counts, hashes (`"<algorithm>:<hex>"`)
and low-cardinality names, never tool output, reminder text or read-back patterns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

INSTRUMENTATION_SCOPE = 'observable_harness'
"""Name of the tracer and meter, so backends can filter this library's telemetry."""

# --- Span names ------------------------------------------------------------------------------

SPAN_REDUCE = 'tool_output.reduce'
SPAN_SUMMARIZE = 'tool_output.summarize'
SPAN_READ = 'tool_output.read'
SPAN_PRUNE = 'tool_output.prune'
SPAN_REMINDERS_INJECT = 'system_reminders.inject'
SPAN_REMINDERS_GENERATE = 'system_reminders.generate'
SPAN_CONDENSE = 'bounded.condense'
SPAN_OFFLOAD = 'bounded.offload'
SPAN_GUARD = 'bounded.guard'
SPAN_RETAIN = 'bounded.retain'

# --- Attribute keys --------------------------------------------------------------------------

LOGFIRE_MSG = 'logfire.msg'
"""One-line human summary built only from allowed values; Logfire shows it as the span's message."""

# OpenTelemetry GenAI semantic conventions, where one exists.
GEN_AI_TOOL_NAME = 'gen_ai.tool.name'
GEN_AI_TOOL_CALL_ID = 'gen_ai.tool.call.id'
GEN_AI_REQUEST_MODEL = 'gen_ai.request.model'
GEN_AI_USAGE_INPUT_TOKENS = 'gen_ai.usage.input_tokens'
GEN_AI_USAGE_OUTPUT_TOKENS = 'gen_ai.usage.output_tokens'

TOOL_OUTPUT_UNIT = 'tool_output.unit'
TOOL_OUTPUT_SIZE = 'tool_output.size'
TOOL_OUTPUT_SIZE_UNIT = 'tool_output.size_unit'
TOOL_OUTPUT_ORIGINAL_BYTES = 'tool_output.original_bytes'
TOOL_OUTPUT_BAND_OVER = 'tool_output.band_over'
TOOL_OUTPUT_ACTION = 'tool_output.action'
TOOL_OUTPUT_OUTCOME = 'tool_output.outcome'
TOOL_OUTPUT_FALLBACK = 'tool_output.fallback'
TOOL_OUTPUT_FALLBACK_CHAIN = 'tool_output.fallback_chain'
TOOL_OUTPUT_FALLBACK_REASON = 'tool_output.fallback_reason'
TOOL_OUTPUT_HANDLE = 'tool_output.handle'
TOOL_OUTPUT_CONTENT_HASH = 'tool_output.content_hash'
TOOL_OUTPUT_OUTPUT_CHARS = 'tool_output.output_chars'
TOOL_OUTPUT_BYTES_SAVED = 'tool_output.bytes_saved'

TOOL_OUTPUT_READ_OFFSET = 'tool_output.read.offset'
TOOL_OUTPUT_READ_LIMIT = 'tool_output.read.limit'
TOOL_OUTPUT_READ_FROM_END = 'tool_output.read.from_end'
TOOL_OUTPUT_READ_LINES = 'tool_output.read.lines'
TOOL_OUTPUT_READ_OUTCOME = 'tool_output.read.outcome'
TOOL_OUTPUT_READ_PATTERN_CHARS = 'tool_output.read.pattern_chars'
"""Length of the literal `pattern` a read filtered by (0 without one); the pattern itself is never recorded."""

TOOL_OUTPUT_PRUNE_FILES = 'tool_output.prune.files'
TOOL_OUTPUT_PRUNE_BYTES = 'tool_output.prune.bytes'
TOOL_OUTPUT_PRUNE_ERRORS = 'tool_output.prune.errors'
TOOL_OUTPUT_STORE = 'tool_output.store'
"""Store class name (`LocalFileStore`, `ObjectStore`, ...) on prune spans."""

SYSTEM_REMINDERS_REQUEST = 'system_reminders.request'
SYSTEM_REMINDERS_COUNT = 'system_reminders.count'
SYSTEM_REMINDERS_NAMES = 'system_reminders.names'
SYSTEM_REMINDERS_CHARS = 'system_reminders.chars'
SYSTEM_REMINDERS_CONTENT_HASH = 'system_reminders.content_hash'
SYSTEM_REMINDERS_CACHE_POINT = 'system_reminders.cache_point'
SYSTEM_REMINDERS_CACHE_POINT_REASON = 'system_reminders.cache_point_reason'
SYSTEM_REMINDERS_FALLBACK = 'system_reminders.fallback'
SYSTEM_REMINDERS_FALLBACK_REASON = 'system_reminders.fallback_reason'

BOUNDED_LEVEL = 'bounded.level'
BOUNDED_KEEP = 'bounded.keep'
BOUNDED_LINES_IN = 'bounded.lines_in'
BOUNDED_LINES_OUT = 'bounded.lines_out'
BOUNDED_KEPT = 'bounded.kept'
"""Per line class, lines kept, as `class=count` pairs (a count, never a line)."""
BOUNDED_COLLAPSED = 'bounded.collapsed'
BOUNDED_DROPPED = 'bounded.dropped'
BOUNDED_CUT = 'bounded.cut'
"""Per line class, lines removed by the positional cut, as `class=count` pairs."""
BOUNDED_POSITIONAL_CUT = 'bounded.positional_cut'
BOUNDED_CHARS_IN = 'bounded.chars_in'
BOUNDED_CHARS_OUT = 'bounded.chars_out'
BOUNDED_SHORTENED = 'bounded.shortened'
"""Lines longer than the line cap whose middle was cut."""
BOUNDED_REDACTIONS = 'bounded.redactions'
BOUNDED_GUARD_DECISION = 'bounded.guard.decision'
BOUNDED_GUARD_REASON = 'bounded.guard.reason'
BOUNDED_GUARD_LINES = 'bounded.guard.lines'
BOUNDED_RETENTION_POLICY = 'bounded.retention.policy'
BOUNDED_RETENTION_KEPT = 'bounded.retention.kept'
BOUNDED_RETENTION_REASON = 'bounded.retention.reason'
"""Why the original was kept (`exit_status`, `error_lines`, `always`) or not (`no_failure`, `never`, `store_failed`)."""
BOUNDED_SUMMARY_WORDS = 'bounded.summary_words'
BOUNDED_OFFLOAD_KIND = 'bounded.offload.kind'
"""The detected kind of an offloaded output (`test_run`, `compiler`, `listing`, ...): a fixed vocabulary."""
BOUNDED_OFFLOAD_SUMMARIZER = 'bounded.offload.summarizer'
"""`deterministic`, `custom`, or `deterministic_fallback` when a custom summarizer failed."""

# --- Metrics ---------------------------------------------------------------------------------

MetricKind = Literal['counter', 'histogram', 'gauge']

SizeUnit = Literal['chars', 'tokens']
"""What a size is counted in: characters, or (estimated or exact) tokens."""

SIZE_BUCKETS: tuple[float, ...] = tuple(float(256 * 2**i) for i in range(15))
"""Log-spaced (x2) boundaries from 256 to 4,194,304: fine enough to place a band threshold within a
factor of two of any measured percentile, which is what calibration needs."""

DURATION_BUCKETS: tuple[float, ...] = (
    0.00001,
    0.000025,
    0.00005,
    0.0001,
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)
"""From 10 us (a passthrough) to 10 s (a summarize call against a slow model)."""

COST_BUCKETS: tuple[float, ...] = (*(float(f'{m}e{e}') for e in range(-4, 2) for m in (1, 2, 5)), 100.0)
"""USD per run, 1-2-5 steps from $0.0001 (a short run on a small model) to $100 (a long run on a large one)."""

USD = '{USD}'
"""The unit of every money metric. UCUM has no currency, so the currency is a UCUM annotation (a dimensionless
count of US dollars, a valid unit that OpenTelemetry backends keep as written) and the instrument's name says
`usd`: the Prometheus exposition drops annotations, so the series reads `..._usd_total`, never `..._USD_total`."""


@dataclass(frozen=True, slots=True)
class MetricSpec:
    """One instrument: its OpenTelemetry name and what the Prometheus exposition calls it."""

    name: str
    """OpenTelemetry instrument name (dotted)."""
    kind: MetricKind
    unit: str
    """UCUM unit; `{...}` annotations are dropped by the Prometheus exposition. Money is `USD` (`{USD}`)."""
    description: str
    labels: tuple[str, ...]
    """Every label key the instrument may carry; all low-cardinality."""
    exposed: str
    """The series name in the Prometheus exposition (for histograms, the base of `_bucket`/`_sum`/`_count`)."""
    buckets: tuple[float, ...] = field(default=())


def _counter(name: str, unit: str, description: str, labels: tuple[str, ...], exposed: str) -> MetricSpec:
    return MetricSpec(name, 'counter', unit, description, labels, exposed)


DECISIONS = _counter(
    'tool_output.decisions',
    '{decision}',
    'Tool-output decisions: one per measured unit, passthrough included.',
    ('tool', 'action', 'outcome', 'fallback'),
    'tool_output_decisions_total',
)
SIZE_CHARS = MetricSpec(
    'tool_output.size.chars',
    'histogram',
    '{char}',
    'Measured size of tool-output units, in characters (capabilities that measure in characters).',
    ('tool',),
    'tool_output_size_chars',
    SIZE_BUCKETS,
)
SIZE_TOKENS = MetricSpec(
    'tool_output.size.tokens',
    'histogram',
    '{token}',
    'Measured size of tool-output units, in tokens (capabilities with over_tokens or a tokenizer).',
    ('tool',),
    'tool_output_size_tokens',
    SIZE_BUCKETS,
)
BYTES_SAVED = _counter(
    'tool_output.saved',
    'By',
    'UTF-8 bytes kept out of the context window by reductions.',
    ('tool', 'outcome'),
    'tool_output_saved_bytes_total',
)
TOKENS_SAVED = _counter(
    'tool_output.tokens_saved',
    '{token}',
    'Estimated tokens kept out of the context window by reductions (~4 characters per token).',
    ('tool', 'outcome'),
    'tool_output_tokens_saved_total',
)
RESEND_TOKENS_AVOIDED = _counter(
    'tool_output.resend_tokens_avoided',
    '{token}',
    'Estimated tokens that earlier reductions kept out of each later model request of the same run.',
    ('tool',),
    'tool_output_resend_tokens_avoided_total',
)
FALLBACKS = _counter(
    'tool_output.fallbacks',
    '{fallback}',
    'Actions that could not run and handed over to their `then` action.',
    ('tool', 'from_action', 'to_action', 'reason'),
    'tool_output_fallbacks_total',
)
SPILL_BYTES = _counter(
    'tool_output.spill.bytes',
    'By',
    'Bytes written to the overflow store.',
    ('tool', 'store'),
    'tool_output_spill_bytes_total',
)
SPILL_FAILURES = _counter(
    'tool_output.spill.failures',
    '{failure}',
    'Writes to the overflow store that raised.',
    ('reason', 'store'),
    'tool_output_spill_failures_total',
)
READS = _counter(
    'tool_output.reads',
    '{read}',
    'read_tool_result calls by outcome (hit, miss, denied, invalid).',
    ('outcome',),
    'tool_output_reads_total',
)
SUMMARIZE_TOKENS = _counter(
    'tool_output.summarize.tokens',
    '{token}',
    'Tokens spent by Summarize model requests.',
    ('model', 'type'),
    'tool_output_summarize_tokens_total',
)
PRUNED_FILES = _counter(
    'tool_output.store.pruned_files',
    '{file}',
    'Files (or objects) deleted by age pruning.',
    ('store',),
    'tool_output_store_pruned_files_total',
)
PRUNED_BYTES = _counter(
    'tool_output.store.pruned',
    'By',
    'Bytes freed by age pruning.',
    ('store',),
    'tool_output_store_pruned_bytes_total',
)
PRUNE_FAILURES = _counter(
    'tool_output.store.prune_failures',
    '{failure}',
    'Errors met while pruning (each file that could not be listed or deleted counts once).',
    ('store', 'reason'),
    'tool_output_store_prune_failures_total',
)
REDUCE_DURATION = MetricSpec(
    'tool_output.reduce.duration',
    'histogram',
    's',
    'Wall time of one reduction, fallbacks and store writes included.',
    ('tool', 'action'),
    'tool_output_reduce_duration_seconds',
    DURATION_BUCKETS,
)
BAND_THRESHOLD_CHARS = MetricSpec(
    'tool_output.band.threshold.chars',
    'gauge',
    '{char}',
    'Configured band thresholds (`over`) in characters, per agent and tool, to draw over the measured sizes.',
    ('tool', 'action', 'agent'),
    'tool_output_band_threshold_chars',
)
BAND_THRESHOLD_TOKENS = MetricSpec(
    'tool_output.band.threshold.tokens',
    'gauge',
    '{token}',
    'Configured band thresholds (`over`) in tokens, per agent and tool, to draw over the measured sizes.',
    ('tool', 'action', 'agent'),
    'tool_output_band_threshold_tokens',
)
REMINDERS_FIRED = _counter(
    'system_reminders.fired',
    '{reminder}',
    'Reminders injected into a model request.',
    ('reminder', 'kind'),
    'system_reminders_fired_total',
)
REMINDERS_CACHE_POINTS = _counter(
    'system_reminders.cache_points',
    '{injection}',
    'Injections by whether a CachePoint was placed before the reminder, and why.',
    ('placed', 'reason'),
    'system_reminders_cache_points_total',
)
REMINDERS_GENERATE_TOKENS = _counter(
    'system_reminders.generate.tokens',
    '{token}',
    'Tokens spent by LLMReminder generation requests.',
    ('model', 'type'),
    'system_reminders_generate_tokens_total',
)
REMINDERS_GENERATIONS = _counter(
    'system_reminders.generations',
    '{generation}',
    'LLMReminder generations, by model and whether they fell back: the fallback rate counts from these, so an '
    'LLMReminder called from a dynamic reminder of your own is counted too.',
    ('model', 'fallback'),
    'system_reminders_generations_total',
)
REMINDERS_GENERATE_FALLBACKS = _counter(
    'system_reminders.generate.fallbacks',
    '{fallback}',
    'LLMReminder generations that fell back to GoalReanchor text.',
    ('reason',),
    'system_reminders_generate_fallbacks_total',
)
COST_AVOIDED = _counter(
    'tool_output.cost_avoided_usd',
    USD,
    'What the re-sends that reductions kept out of each model request would have cost, priced per tool and model '
    'with genai-prices as a range: `estimate` is `lower` (every avoided token a cache read), `upper` (every one at '
    "the input price) or `expected` (split as the response's own input was between cache reads and full price).",
    ('tool', 'model', 'estimate'),
    'tool_output_cost_avoided_usd_total',
)
USAGE_TOKENS = _counter(
    'model_usage.tokens',
    '{token}',
    'Tokens the provider reported for each model response of a run with these capabilities, by how they are billed: '
    '`uncached_input` (full input price), `cache_read`, `cache_write` (all three together are the input) and '
    '`output`.',
    ('model', 'provider', 'type'),
    'model_usage_tokens_total',
)
USAGE_RESPONSES = _counter(
    'model_usage.responses',
    '{response}',
    'Model responses of runs with these capabilities, by pricing outcome: `priced`, or why not (`no_model`, '
    '`unknown_model`: genai-prices does not know it, `invalid_usage`, `error`).',
    ('model', 'provider', 'pricing'),
    'model_usage_responses_total',
)
USAGE_COST = _counter(
    'model_usage.cost_usd',
    USD,
    'What model responses of runs with these capabilities cost, priced with genai-prices (its bundled snapshot '
    'unless the application updates it), by input (cache reads and writes included) and output.',
    ('model', 'provider', 'direction'),
    'model_usage_cost_usd_total',
)
USAGE_RUN_COST = MetricSpec(
    'model_usage.run_cost_usd',
    'histogram',
    USD,
    'Cost of each finished run with these capabilities whose every model response was priced.',
    ('agent',),
    'model_usage_run_cost_usd',
    COST_BUCKETS,
)
REMINDERS_INPUT_TOKENS = _counter(
    'system_reminders.input_tokens',
    '{token}',
    'Input tokens of model responses in runs with SystemReminders, by whether the request carried a reminder and '
    'how they were billed (`uncached_input`, `cache_read`, `cache_write`): the prompt cache with and without one.',
    ('model', 'reminded', 'type'),
    'system_reminders_input_tokens_total',
)
BOUNDED_LINES = _counter(
    'bounded.lines',
    '{line}',
    'Lines seen by condensing, by line class and fate (kept, collapsed, dropped, cut by position).',
    ('level', 'line_class', 'fate'),
    'bounded_lines_total',
)
BOUNDED_GUARD_REFUSALS = _counter(
    'bounded.guard.refusals',
    '{refusal}',
    'Tool calls the read guard refused before they ran.',
    ('tool', 'reason'),
    'bounded_guard_refusals_total',
)
BOUNDED_REDACTIONS_TOTAL = _counter(
    'bounded.redactions',
    '{redaction}',
    'Secrets scrubbed before a write, by kind of secret.',
    ('kind',),
    'bounded_redactions_total',
)
BOUNDED_RETENTION_WRITES = _counter(
    'bounded.retention.writes',
    '{write}',
    'Command-output originals retained, by policy and why.',
    ('policy', 'reason'),
    'bounded_retention_writes_total',
)

ALL_METRICS: tuple[MetricSpec, ...] = (
    DECISIONS,
    SIZE_CHARS,
    SIZE_TOKENS,
    BYTES_SAVED,
    TOKENS_SAVED,
    RESEND_TOKENS_AVOIDED,
    FALLBACKS,
    SPILL_BYTES,
    SPILL_FAILURES,
    READS,
    SUMMARIZE_TOKENS,
    PRUNED_FILES,
    PRUNED_BYTES,
    PRUNE_FAILURES,
    REDUCE_DURATION,
    BAND_THRESHOLD_CHARS,
    BAND_THRESHOLD_TOKENS,
    REMINDERS_FIRED,
    REMINDERS_CACHE_POINTS,
    REMINDERS_GENERATE_TOKENS,
    REMINDERS_GENERATIONS,
    REMINDERS_GENERATE_FALLBACKS,
    REMINDERS_INPUT_TOKENS,
    COST_AVOIDED,
    USAGE_TOKENS,
    USAGE_RESPONSES,
    USAGE_COST,
    USAGE_RUN_COST,
    BOUNDED_LINES,
    BOUNDED_GUARD_REFUSALS,
    BOUNDED_REDACTIONS_TOTAL,
    BOUNDED_RETENTION_WRITES,
)

SIZE_BY_UNIT: dict[SizeUnit, MetricSpec] = {'chars': SIZE_CHARS, 'tokens': SIZE_TOKENS}
"""The size histogram of each unit: one metric has one unit, so a `sum` never mixes characters and tokens."""
BAND_THRESHOLD_BY_UNIT: dict[SizeUnit, MetricSpec] = {'chars': BAND_THRESHOLD_CHARS, 'tokens': BAND_THRESHOLD_TOKENS}

ALL_SPANS: tuple[str, ...] = (
    SPAN_REDUCE,
    SPAN_SUMMARIZE,
    SPAN_READ,
    SPAN_PRUNE,
    SPAN_REMINDERS_INJECT,
    SPAN_REMINDERS_GENERATE,
    SPAN_CONDENSE,
    SPAN_OFFLOAD,
    SPAN_GUARD,
    SPAN_RETAIN,
)
