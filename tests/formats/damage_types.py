"""The shape of a damage-table row (`damage_rows.py`)."""

from __future__ import annotations

Expected = tuple[str, list[tuple[str, str]], str, set[str]]
"""(text in, calls as (name, arguments), text kept, notice codes that must be among the notices)."""
