"""The tuners' Parameter control-file objects, their checked specs, and how engine parameters are shown."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ringmaster.errors import (
    ControlFileError,
    Interrupt,
    callback_error,
    describe_user_exception,
    raised_in_control_file,
)
from ringmaster.settings import (
    ControlFileObject,
    Setting,
    interpret_any,
    interpret_callable,
    interpret_float,
    interpret_identifier,
    interpret_optional,
    interpret_positive_float,
    interpret_positive_int,
    interpret_sequence,
    interpret_str,
    load_settings,
)
from ringmaster.tuning.scales import (
    EXPLICIT,
    LINEAR,
    LOG,
    Scale,
    distinct_values,
    interpret_scale,
    value_count,
)
from ringmaster.tuning.tree import AxisCentres


class McParameter(ControlFileObject):
    """mc_tuner's Parameter(code, scale=..., split=..., format=...)."""

    kind = "Parameter"
    positional = ("code",)
    allowed_arguments = ("code", "scale", "split", "format")


class CeParameter(ControlFileObject):
    """ce_tuner's Parameter(code, initial_mean=..., initial_variance=..., transform=..., format=...)."""

    kind = "Parameter"
    positional = ("code",)
    allowed_arguments = ("code", "initial_mean", "initial_variance", "transform", "format")


class ContinuousParameter(ControlFileObject):
    """spsa_tuner's and bayes_tuner's Parameter(code, scale=..., start=..., c_end=..., r_end=..., format=...).

    split is accepted and unused, so that an mc_tuner control file works unchanged.
    """

    kind = "Parameter"
    positional = ("code",)
    allowed_arguments = ("code", "scale", "start", "c_end", "r_end", "format", "split")


@dataclass(frozen=True)
class ParameterSpec:
    """A checked Parameter.

    convert -- optimiser parameter -> engine parameter (mc: the scale; ce: the transform)
    split   -- mc_tuner only (None for ce_tuner)
    initial_mean, initial_variance -- ce_tuner only
    start   -- spsa_tuner and bayes_tuner: the starting point in [0, 1] (optimiser units)
    c_end, r_end -- spsa_tuner: the final perturbation (optimiser units) and learning rate
                    (0.0: spsa.default_c_end for the number of parameters, spsa.default_r_end
                    for the run's length)
    line    -- the control file's line of its Parameter, where known
    """

    code: str
    convert: Callable[[float], Any]
    format: str
    split: int | None = None
    initial_mean: float = 0.0
    initial_variance: float = 0.0
    start: float = 0.5
    c_end: float = 0.0
    r_end: float = 0.0
    line: int | None = None


MC_PARAMETER_SETTINGS = [
    Setting("code", interpret_identifier),
    Setting("scale", interpret_scale),
    Setting("split", interpret_positive_int),
    Setting("format", interpret_str, default=None),
]

CE_PARAMETER_SETTINGS = [
    Setting("code", interpret_identifier),
    Setting("initial_mean", interpret_float),
    Setting("initial_variance", interpret_float),
    Setting("transform", interpret_callable, default=float),
    Setting("format", interpret_str, default=None),
]


CONTINUOUS_PARAMETER_SETTINGS = [
    Setting("code", interpret_identifier),
    Setting("scale", interpret_scale),
    Setting("start", interpret_any, default=None),
    Setting("c_end", interpret_optional(interpret_positive_float), default=None),
    Setting("r_end", interpret_optional(interpret_positive_float), default=None),
    Setting("format", interpret_str, default=None),
    Setting("split", interpret_optional(interpret_positive_int), default=None),
]

# In optimiser units, where a scale has no range to measure c_end by: a twentieth.
DEGENERATE_C_END = 0.05


def _check_format(code: str, fmt: str | None, sample: Any) -> str:
    """The format to use (default 'code: %s'); raises ValueError if it can't show sample."""
    fmt = f"{code}: %s" if fmt is None else fmt
    try:
        fmt % (sample,)
    except Exception:  # noqa: BLE001 (user code may raise anything)
        raise ValueError("'format': invalid format string") from None
    return fmt


def _apply(fn: Callable[[float], Any], value: float, what: str) -> Any:
    try:
        return fn(value)
    except Interrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 (user code may raise anything)
        raise ValueError(f"error from {what} (applied to {value}): "
                         f"{describe_user_exception(exc)}") from None


def mc_parameter_spec(settings: dict[str, Any]) -> ParameterSpec:
    """Check an mc_tuner Parameter's settings: the scale must work at every first-generation centre,
    and an EXPLICIT list give each a value of its own (an integer scale: first_level_twins)."""
    split = settings["split"]
    scale = settings["scale"]
    if isinstance(scale, EXPLICIT) and split > len(scale.values):
        # The cells beyond the list's length would repeat its values: twin candidates, which the
        # bandit splits its games between as if they differed.
        raise ValueError(f"'split' is {split}, more than the {len(scale.values)} values of its EXPLICIT "
                         f"scale, so that some candidates would be twins; use split={len(scale.values)}")
    samples = [_apply(settings["scale"], (i + 0.5) / split, "scale") for i in range(split)]
    fmt = _check_format(settings["code"], settings["format"], samples[0])
    return ParameterSpec(code=settings["code"], convert=settings["scale"], format=fmt, split=split)


def first_level_twins(spec: ParameterSpec) -> tuple[int, int] | None:
    """(how many different values, the largest split that gives each its own) where an mc_tuner
    Parameter's integer scale gives two first-generation candidates (cell centres) the same value,
    twins; None if it gives each its own.

    Refused for a new event only (twins_refusal): older ringmasters allowed it, and their events carry
    on in it.
    """
    scale, split = spec.convert, spec.split or 1
    if distinct_values(scale, AxisCentres(split, 1)):
        return None
    values = len({scale(f) for f in AxisCentres(split, 1)})
    largest = next(k for k in range(min(split - 1, value_count(scale) or 1), 0, -1)
                   if distinct_values(scale, AxisCentres(k, 1)))
    return values, largest


def twins_refusal(spec: ParameterSpec, values: int, largest: int) -> str:
    """The refusal of a split first_level_twins found, naming the split to use."""
    plural = "s" if values > 1 else ""
    return (f"parameter {spec.code}: 'split' is {spec.split}, but its integer scale has only {values} "
            f"different value{plural} at the centres of its {spec.split} divisions, so that some "
            f"candidates would be twins; use split={largest}")


def ce_parameter_spec(settings: dict[str, Any]) -> ParameterSpec:
    """Check a ce_tuner Parameter's settings: the transform must work on the initial mean."""
    if settings["initial_variance"] < 0.0:
        raise ValueError("'initial_variance': must be nonnegative")
    sample = _apply(settings["transform"], settings["initial_mean"], "transform")
    fmt = _check_format(settings["code"], settings["format"], sample)
    return ParameterSpec(code=settings["code"], convert=settings["transform"], format=fmt,
                         initial_mean=settings["initial_mean"],
                         initial_variance=settings["initial_variance"])


# More candidates than this can't each be given a game, and building them would take
# the machine's memory: the product of the splits is bounded.
MAX_CANDIDATES = 100_000


def _start_position(scale: Callable[[float], Any], start: Any) -> float:
    if start is None:
        return 0.5
    if not isinstance(scale, Scale):
        raise ValueError("'start': needs a LINEAR, LOG or EXPLICIT scale (a function can't be inverted)")
    try:
        return scale.position(start)
    except ValueError as exc:
        raise ValueError(f"'start': {start!r}: {exc}") from None


def _c_end_position(scale: Callable[[float], Any], start: float, c_end: float | None) -> float:
    """c_end in optimiser units: LINEAR, engine units; LOG, engine units at the start value;
    EXPLICIT, positions in the list; a function, optimiser units."""
    if c_end is None:
        return 0.0    # the default, which depends on the number of parameters
    if isinstance(scale, LINEAR):
        width = abs(scale.upper_bound - scale.lower_bound)
        return c_end / width if width else DEGENERATE_C_END
    if isinstance(scale, LOG):
        value = scale.unrounded(start)
        return abs(math.log1p(c_end / value) / scale.rate) if scale.rate else DEGENERATE_C_END
    if isinstance(scale, EXPLICIT):
        return c_end / len(scale.values)
    return c_end


def continuous_parameter_spec(settings: dict[str, Any]) -> ParameterSpec:
    """Check an spsa_tuner or bayes_tuner Parameter: start within the scale, the scale working there."""
    scale = settings["scale"]
    start = _start_position(scale, settings["start"])
    sample = _apply(scale, start, "scale")
    _apply(scale, 0.0, "scale")
    _apply(scale, 1.0, "scale")
    fmt = _check_format(settings["code"], settings["format"], sample)
    c_end = _c_end_position(scale, start, settings["c_end"])
    if settings["c_end"] is not None and not 0.0 < c_end <= 0.5:
        raise ValueError("'c_end': must be more than 0 and at most half the scale's range")
    return ParameterSpec(code=settings["code"], convert=scale, format=fmt, start=start, c_end=c_end,
                         r_end=settings["r_end"] or 0.0)


def load_parameters(value: Any, parameter_class: type[ControlFileObject],
                    settings_table: list[Setting],
                    make_spec: Callable[[dict[str, Any]], ParameterSpec]) -> list[ParameterSpec]:
    """Check the 'parameters' setting. Raises ControlFileError naming the parameter."""
    if value is None:
        raise ControlFileError("'parameters' not specified", setting="parameters")
    try:
        items = interpret_sequence(value)
    except ValueError as exc:
        raise ControlFileError(f"'parameters': {exc}", setting="parameters") from None
    if not items:
        raise ControlFileError("'parameters': empty list", setting="parameters")
    specs: list[ParameterSpec] = []
    for i, item in enumerate(items):
        if not isinstance(item, parameter_class):
            raise ControlFileError(f"'parameters': item {i}: not a Parameter", setting="parameters")
        code = item.settings.get("code")
        context = f"parameter {code if isinstance(code, str) else i}"
        settings = _load_parameter_settings(item, settings_table, context)
        if (settings.get("split") or 0) > MAX_CANDIDATES:
            raise ControlFileError(f"{context}: 'split' is {settings['split']}, more than the "
                                   f"{MAX_CANDIDATES} candidates a tuner may have",
                                   line=item.line)
        try:
            spec = make_spec(settings)
        except ValueError as exc:
            raise ControlFileError(f"{context}: {exc}", line=item.line) from None
        spec = dataclasses.replace(spec, line=item.line)
        if any(s.code == spec.code for s in specs):
            raise ControlFileError(f"duplicate parameter code: {spec.code}", setting="parameters")
        specs.append(spec)
    candidates = math.prod(spec.split or 1 for spec in specs)
    if candidates > MAX_CANDIDATES:
        raise ControlFileError(
            f"'parameters': the splits make {candidates} candidates, more than the "
            f"{MAX_CANDIDATES} a tuner may have; use smaller splits (max_depth refines "
            f"the best ones)", setting="parameters")
    return specs


def _load_parameter_settings(item: ControlFileObject, settings_table: list[Setting],
                             context: str) -> dict[str, Any]:
    """A Parameter's checked settings. Raises ControlFileError with the line of the Parameter,
    or of its scale when the scale's own arguments are bad (LOG(-1, 5))."""
    scale = item.settings.get("scale")
    if isinstance(scale, Scale) and scale.error is not None:
        raise ControlFileError(f"{context}: 'scale': {scale.error}", line=scale.line or item.line)
    try:
        return load_settings(settings_table, item.settings, context)
    except ControlFileError as exc:
        raise ControlFileError(str(exc), line=item.line) from None


def convert_parameters(specs: list[ParameterSpec], optimiser_parameters: list[float]) -> tuple:
    """Engine parameters for a point of optimiser space.

    Raises CallbackError naming the parameter, and the control file's line where its scale failed.
    """
    return tuple(apply_scale(spec, spec.convert, value) for spec, value in zip(specs, optimiser_parameters))


def apply_scale(spec: ParameterSpec, scale: Callable[[float], Any], value: float) -> Any:
    """scale(value) for spec's parameter. Raises CallbackError naming the parameter and the line."""
    try:
        return scale(value)
    except Interrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 (user code may raise anything)
        raise callback_error(f"scale for {spec.code} (applied to {value})",
                            describe_user_exception(exc), raised_in_control_file(exc)) from None


def format_engine_parameters(specs: list[ParameterSpec], engine_parameters: tuple) -> str:
    """'I: 0.01; F: 365.17'; a value the format can't show appears as '[code?value]'."""
    words = []
    for spec, value in zip(specs, engine_parameters):
        try:
            words.append(spec.format % (value,))
        except Exception:  # noqa: BLE001 (user code may raise anything)
            words.append(f"[{spec.code}?{value}]")
    return "; ".join(words)
