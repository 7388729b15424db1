"""Scales: functions from an optimiser parameter in [0, 1) to an engine parameter (LINEAR, LOG, EXPLICIT)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

from ringmaster.settings import caller_line


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
      line  -- the control file's line that built it, or None
    """

    kind = "scale"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.error: str | None = None
        self.line = caller_line()
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

    def position(self, value: Any) -> float:
        """The optimiser parameter in [0, 1] this scale maps to value (the inverse).

        Raises ValueError if value is not one the scale can give.
        """
        raise NotImplementedError

    def unrounded(self, f: float) -> float:
        """The scale's value at f before an integer scale rounds it."""
        raise NotImplementedError

    def __repr__(self) -> str:
        args, kwargs = self._args
        words = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
        return f"{self.kind}({', '.join(words)})"


def _inside(f: float) -> float:
    if not -1e-9 <= f <= 1.0 + 1e-9:
        raise ValueError("outside the scale's range")
    return min(max(f, 0.0), 1.0)


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
        if not math.isfinite(self.upper_bound - self.lower_bound):
            raise ValueError("the bounds are too far apart (their difference overflows)")
        self.integer = bool(integer)

    def unrounded(self, f: float) -> float:
        return f * (self.upper_bound - self.lower_bound) + self.lower_bound

    def _apply(self, f: float) -> Any:
        result = self.unrounded(f)
        return round_half_up(result) if self.integer else result

    def position(self, value: Any) -> float:
        value = _bound(value, "value")
        if self.upper_bound == self.lower_bound:
            raise ValueError("the scale's bounds are equal")
        return _inside((value - self.lower_bound) / (self.upper_bound - self.lower_bound))


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
        if not math.isfinite(upper / lower):
            raise ValueError("the bounds are too far apart (their ratio overflows)")
        self.rate = math.log(upper / lower)
        self.integer = bool(integer)

    def unrounded(self, f: float) -> float:
        return math.exp(self.rate * f) * self.lower_bound

    def _apply(self, f: float) -> Any:
        result = self.unrounded(f)
        return round_half_up(result) if self.integer else result

    def position(self, value: Any) -> float:
        value = _bound(value, "value")
        if self.rate == 0.0:
            raise ValueError("the scale's bounds are equal")
        if value == 0.0 or (value < 0) != (self.lower_bound < 0):
            raise ValueError("outside the scale's range")
        return _inside(math.log(value / self.lower_bound) / self.rate)


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

    def position(self, value: Any) -> float:
        """The centre of the value's division (its first occurrence)."""
        if value not in self.values:
            raise ValueError("not one of the scale's values")
        return (self.values.index(value) + 0.5) / len(self.values)


def is_categorical(scale: Any) -> bool:
    """An EXPLICIT list holding a value that is no number ('light', 'heavy'): a list of choices,
    whose first and last are no ends of a range."""
    return isinstance(scale, EXPLICIT) and not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in scale.values)


def value_count(scale: Any) -> int | None:
    """How many values a scale can give, where few enough for a tree's cells to outnumber them: an
    EXPLICIT list's length, or the integers between an integer LINEAR or LOG scale's rounded bounds
    (both ends included); None for a scale of real numbers, or a function."""
    if isinstance(scale, EXPLICIT):
        return len(scale.values)
    if isinstance(scale, (LINEAR, LOG)) and scale.error is None and scale.integer:
        return abs(round_half_up(scale.upper_bound) - round_half_up(scale.lower_bound)) + 1
    return None


# The most points distinct_values compares one by one (more would take seconds): more than mc_tuner's
# most candidates, so that a first level's split is always checked exactly.
EXACT_LIMIT = 2 ** 17


def distinct_values(scale: Any, points: Sequence[float]) -> bool:
    """True if the scale gives each of these points, in increasing order, a value of its own.

    For an EXPLICIT list, whose values have divisions of equal width, that is: no more points than
    values (points at cell centres, as a tree's are). An integer LINEAR or LOG scale is monotone, so
    only neighbours are compared, those at the ends first (a LOG scale's values crowd at one end);
    beyond EXACT_LIMIT points, neighbours at each end must be 2 apart before rounding (the gaps
    between them grow or shrink along the range, so none is less). Other scales: always True.
    """
    count = value_count(scale)
    if count is None:
        return True
    if len(points) > count:
        return False
    if isinstance(scale, EXPLICIT) or len(points) < 2:
        return True
    last = len(points) - 1
    if len(points) > EXACT_LIMIT:
        return min(abs(scale.unrounded(points[1]) - scale.unrounded(points[0])),
                   abs(scale.unrounded(points[last]) - scale.unrounded(points[last - 1]))) >= 2.0
    ends = min(last, 32)
    if any(scale(points[i]) == scale(points[i + 1])
           for low in range(ends) for i in (low, last - 1 - low)):
        return False
    return all(a != b for a, b in itertools.pairwise(map(scale, points)))


def stochastic_value(scale: Any, f: float, u: float) -> Any:
    """The engine value at f, an integer scale rounding down or up at random (u uniform in [0, 1)).

    LINEAR and LOG with integer=True give floor(x + u) of the unrounded value x, so
    its mean over u is x (OpenBench's rounding); EXPLICIT picks one of the two
    values whose division centres are nearest f, the nearer the likelier. Other
    scales give scale(f).
    """
    f = min(max(f, 0.0), 1.0)
    if isinstance(scale, EXPLICIT):
        n = len(scale.values)
        index = math.floor(f * n - 0.5 + u)
        return scale.values[min(max(index, 0), n - 1)]
    if isinstance(scale, (LINEAR, LOG)) and scale.integer:
        return math.floor(scale.unrounded(f) + u)
    return scale(f)


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
