"""Ringmaster: a Gomill-style competition manager and tuner for engines that speak GTP."""

__version__ = "0.1.0"
