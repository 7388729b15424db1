"""Scales: functions from an optimiser parameter in [0, 1) to an engine parameter (LINEAR, LOG, EXPLICIT)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any


def round_half_up(x: float) -> int:
    """The nearest integer, halves rounded up (-1.7 gives -2, 2.5 gives 3)."""
    return math.floor(x + 0.5)


class Scale:
    """A predefined scale as a control file builds it.

    Bad arguments don't raise at once: the error is kept in .error and
    reported when the Parameter that uses the scale is checked, so the
    message can name the parameter.

    Public attributes:
      error -- None, or why the arguments are invalid
    """

    kind = "scale"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.error: str | None = None
        self._args = (args, kwargs)
        try:
            self._setup(*args, **kwargs)
        except (TypeError, ValueError, ZeroDivisionError, OverflowError) as exc:
            self.error = f"invalid parameters for {self.kind}: {exc}"

    def _setup(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError

    def __call__(self, f: float) -> Any:
        if self.error is not None:
            raise ValueError(self.error)
        return self._apply(f)

    def _apply(self, f: float) -> Any:
        raise NotImplementedError

    def __repr__(self) -> str:
        args, kwargs = self._args
        words = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
        return f"{self.kind}({', '.join(words)})"


def _bound(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} is not a number")  # noqa: TRY004 (interpreters raise ValueError)
    if not math.isfinite(value):
        raise ValueError(f"{name} is not finite")
    return float(value)


class LINEAR(Scale):
    """LINEAR(lower_bound, upper_bound, integer=False): f*(upper-lower) + lower."""

    kind = "LINEAR"

    def _setup(self, lower_bound: float, upper_bound: float, integer: bool = False) -> None:
        self.lower_bound = _bound(lower_bound, "lower bound")
        self.upper_bound = _bound(upper_bound, "upper bound")
        self.integer = bool(integer)

    def _apply(self, f: float) -> Any:
        result = f * (self.upper_bound - self.lower_bound) + self.lower_bound
        return round_half_up(result) if self.integer else result


class LOG(Scale):
    """LOG(lower_bound, upper_bound, integer=False): lower * (upper/lower)**f."""

    kind = "LOG"

    def _setup(self, lower_bound: float, upper_bound: float, integer: bool = False) -> None:
        lower = _bound(lower_bound, "lower bound")
        upper = _bound(upper_bound, "upper bound")
        if lower == 0.0:
            raise ValueError("lower bound is zero")
        if upper == 0.0:
            raise ValueError("upper bound is zero")
        if (lower < 0) != (upper < 0):
            raise ValueError("bounds have different signs")
        self.lower_bound = lower
        self.upper_bound = upper
        self.rate = math.log(upper / lower)
        self.integer = bool(integer)

    def _apply(self, f: float) -> Any:
        result = math.exp(self.rate * f) * self.lower_bound
        return round_half_up(result) if self.integer else result


class EXPLICIT(Scale):
    """EXPLICIT(values): the division of [0, 1) that f falls in picks the value."""

    kind = "EXPLICIT"

    def _setup(self, values: Sequence[Any]) -> None:
        if isinstance(values, (str, bytes, dict)) or not hasattr(values, "__iter__"):
            raise ValueError("not a list of values")
        self.values = tuple(values)
        if not self.values:
            raise ValueError("empty value list")

    def _apply(self, f: float) -> Any:
        index = min(max(int(len(self.values) * f), 0), len(self.values) - 1)
        return self.values[index]


def interpret_scale(value: Any) -> Callable[[float], Any]:
    """Setting interpreter for a Parameter's scale: a predefined scale or any callable."""
    if isinstance(value, Scale):
        if value.error is not None:
            raise ValueError(value.error)
        return value
    if not callable(value):
        raise ValueError("invalid callable")  # noqa: TRY004 (interpreters raise ValueError)
    return value


SCALE_GLOBALS = {"LINEAR": LINEAR, "LOG": LOG, "EXPLICIT": EXPLICIT}
