"""Numbers from callers, checked before they reach C++ (where a float would be truncated, a negative seed
wrapped, or pybind11 would answer "incompatible function arguments").

An integer is a Python int or a numpy integer (a scalar, or an array of no dimensions); bool is not one,
although Python counts it as an int, and neither is a float that happens to be whole, a string of digits,
or anything else.
"""
from __future__ import annotations

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


def shown(value, limit: int = 80) -> str:
    """repr of a value, cut to `limit` characters: a message quotes what was wrong, not all of it."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."
