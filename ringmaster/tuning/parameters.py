"""The tuners' Parameter control-file objects, their checked specs, and how engine parameters are shown."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ringmaster.errors import ControlFileError
from ringmaster.settings import (
    ControlFileObject,
    Setting,
    interpret_callable,
    interpret_float,
    interpret_identifier,
    interpret_positive_int,
    interpret_sequence,
    interpret_str,
    load_settings,
)
from ringmaster.tuning.scales import interpret_scale


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


@dataclass(frozen=True)
class ParameterSpec:
    """A checked Parameter.

    convert -- optimiser parameter -> engine parameter (mc: the scale; ce: the transform)
    split   -- mc_tuner only (None for ce_tuner)
    initial_mean, initial_variance -- ce_tuner only
    """

    code: str
    convert: Callable[[float], Any]
    format: str
    split: int | None = None
    initial_mean: float = 0.0
    initial_variance: float = 0.0


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
    except Exception as exc:  # noqa: BLE001 (user code may raise anything)
        raise ValueError(f"error from {what} (applied to {value}): "
                         f"{type(exc).__name__}: {exc}") from None


def mc_parameter_spec(settings: dict[str, Any]) -> ParameterSpec:
    """Check an mc_tuner Parameter's settings: the scale must work at every first-generation centre."""
    split = settings["split"]
    samples = [_apply(settings["scale"], (i + 0.5) / split, "scale") for i in range(split)]
    fmt = _check_format(settings["code"], settings["format"], samples[0])
    return ParameterSpec(code=settings["code"], convert=settings["scale"], format=fmt, split=split)


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
        settings = load_settings(settings_table, item.settings, context)
        if (settings.get("split") or 0) > MAX_CANDIDATES:
            raise ControlFileError(f"{context}: 'split' is {settings['split']}, more than the "
                                   f"{MAX_CANDIDATES} candidates a tuner may have",
                                   line=item.line)
        try:
            spec = make_spec(settings)
        except ValueError as exc:
            raise ControlFileError(f"{context}: {exc}", line=item.line) from None
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


def convert_parameters(specs: list[ParameterSpec], optimiser_parameters: list[float]) -> tuple:
    """Engine parameters for a point of optimiser space. Raises ValueError naming the parameter."""
    result = []
    for spec, value in zip(specs, optimiser_parameters):
        try:
            result.append(spec.convert(value))
        except Exception as exc:  # noqa: BLE001 (user code may raise anything)
            raise ValueError(f"error from scale for {spec.code} (applied to {value}): "
                             f"{type(exc).__name__}: {exc}") from None
    return tuple(result)


def format_engine_parameters(specs: list[ParameterSpec], engine_parameters: tuple) -> str:
    """'I: 0.01; F: 365.17'; a value the format can't show appears as '[code?value]'."""
    words = []
    for spec, value in zip(specs, engine_parameters):
        try:
            words.append(spec.format % (value,))
        except Exception:  # noqa: BLE001 (user code may raise anything)
            words.append(f"[{spec.code}?{value}]")
    return "; ".join(words)
