"""Bounded tool output: building blocks (filled in below)."""
from __future__ import annotations

from .condense import condense
from .levels import DAILY, LEVELS, LONG_SESSION, PRODUCTION, Fate, Level, get_level
from .lines import LineClass, classify_lines
