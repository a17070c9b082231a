"""What ships around the library (SPEC OPS): Grafana dashboards and Prometheus alert rules, generated
from the telemetry catalog (`dashboards`, `alerts`, `queries`).
"""

from __future__ import annotations
