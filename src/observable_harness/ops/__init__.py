"""What ships around the library: the Grafana dashboards and Prometheus alert rules in
`dashboards/`, generated from the telemetry catalog.

`queries` builds the PromQL both use, `dashboards` the Grafana JSON (and the command that writes every
file), `alerts` the rule file. Nothing here touches the OpenTelemetry SDK.
"""

from __future__ import annotations

# Submodules are not imported here: `python -m observable_harness.ops.dashboards` (make dashboards)
# would otherwise find its module already imported and warn.
