"""How the tuners write an engine parameter's value (short, or plain for JSON) and a record."""

from __future__ import annotations

from typing import Any

from ringmaster.stats.win_rates import wilson_interval


def plain_value(value: Any) -> Any:
    """A JSON number or string for an engine parameter value."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return value


def short_value(value: Any) -> str:
    """An engine parameter value, short: '0.0291', '12', 'on'."""
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def describe_record(won: float, games: int) -> str:
    """'12/20 0.600 [0.387, 0.781]': wins, games, win rate and its 95% interval."""
    if games == 0:
        return "0/0 games"
    low, high = wilson_interval(won, games)
    won_s = f"{won:g}"
    return f"{won_s}/{games} {won / games:.3f} [{low:.3f}, {high:.3f}]"
