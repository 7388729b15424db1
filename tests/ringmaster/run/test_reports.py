"""A run's reports: what show --json and FILE.html are given is standard JSON."""

from __future__ import annotations

import json
import math

from ringmaster.run.reports import finite


def test_a_float_that_is_not_finite_becomes_null_at_any_depth():
    report = {"elo": math.inf, "rows": [{"cpu": math.nan, "games": 3}, (1.5, -math.inf)],
              "name": "x", "ok": True}
    cleaned = finite(report)
    assert cleaned == {"elo": None, "rows": [{"cpu": None, "games": 3}, [1.5, None]],
                       "name": "x", "ok": True}
    json.dumps(cleaned, allow_nan=False)
