#!/usr/bin/env bash
# The benchmark environment: this package (editable) beside pydantic-ai-harness, the anchor we measure
# against. Kept apart from .venv so the anchor never becomes a dependency of the library or its tests.
# The anchor pins pydantic-ai-slim==2.62.0, so benchmarks also prove we run on our oldest supported release.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=bench/.venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
if [ ! -f "$VENV/.installed" ] || [ pyproject.toml -nt "$VENV/.installed" ]; then
  "$VENV/bin/python" -m pip install --quiet --upgrade pip
  "$VENV/bin/python" -m pip install --quiet -e '.[fast]' 'pydantic-ai-harness==0.62.0' 'opentelemetry-sdk' 'moto[server]' 's3fs' 'fsspec'
  touch "$VENV/.installed"
fi
echo "$VENV/bin/python"
