"""The leave table that tests pinning positions or decisions use instead of the package's.

Those positions and decisions were found with the second round's table (the package's table
since the ninth session); tests/data/leaves_round2.json is a copy of it, so that a new
shipped table does not move them.
"""

from __future__ import annotations

from pathlib import Path

from binscrabble.engine.leaves import LeaveTable

ROUND_TWO = LeaveTable.from_file(Path(__file__).resolve().parent / "data" / "leaves_round2.json")
