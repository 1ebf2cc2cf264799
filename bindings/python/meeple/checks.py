"""Numbers from callers and command lines, checked before they reach C++ (where a float would be truncated,
a negative seed wrapped, or pybind11 would answer "incompatible function arguments") or a loop (a batch of
0 never ends, a NaN penalty fits nothing).

An integer is a Python int or a numpy integer (a scalar, or an array of no dimensions); bool is not one,
although Python counts it as an int, and neither is a float that happens to be whole, a string of digits,
or anything else. A real number is an int or a float that is finite: not NaN, not an infinity.
"""
from __future__ import annotations

import argparse
import math
import numbers

import numpy as np

MAX_SEED = 2**63 - 1  # records keep seeds as signed 64-bit numbers


def integer(name: str, value, low: int | None = None, high: int | None = None) -> int:
    """`value` as a Python int: TypeError naming `name` and the value if it is not an integer, ValueError
    if it is outside low..high (either bound may be None)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {shown(value)} ({type(value).__name__})")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low} to {high}" if low is not None and high is not None else \
            f"at least {low}" if low is not None else f"at most {high}"
        raise ValueError(f"{name} must be {bounds}, got {value}")
    return value


def real_number(name: str, value, low: float | None = None, high: float | None = None) -> float:
    """`value` as a float: ValueError naming `name` unless it is a finite int or float from low to high
    (either bound may be None)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {shown(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low} to {high}" if low is not None and high is not None else \
            f"at least {low}" if low is not None else f"at most {high}"
        raise ValueError(f"{name} must be {bounds}, got {value}")
    return float(value)


def shown(value, limit: int = 80) -> str:
    """repr of a value, cut to `limit` characters: a message quotes what was wrong, not all of it."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# argparse types of the command lines (python -m meeple, python -m meeple.openspiel)

def number(low: int, high: int | None = None):
    """An argparse type: an integer from low to high (None: no upper bound)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"must be {low} to {high}, got {value}" if high is not None else
                                             f"must be at least {low}, got {value}")
        return value
    parse.__name__ = "integer"
    return parse


def real(low: float | None = None, high: float | None = None):
    """An argparse type: a finite number from low to high (None: unbounded); not nan or inf."""
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not math.isfinite(value) or (low is not None and value < low) or (high is not None and value > high):
            bounds = f"{low} to {high}" if low is not None and high is not None else \
                f"at least {low}" if low is not None else "finite"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {text}")
        return value
    parse.__name__ = "number"
    return parse
