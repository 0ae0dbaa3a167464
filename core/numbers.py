"""Numbers as a person or a JSON file expects them."""

from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator


def plain_number(value):
    """A Decimal or float as an int when whole, a Decimal otherwise as a float; anything else
    (None, int, a fractional float) as it is. Money and amounts are stored as Decimal, but the
    rule math takes int or float, and a file should say 3, not 3.0 or "3.00"."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def decimal_limit(field) -> Decimal:
    """The first amount a model's DecimalField cannot hold (SQLite would store it anyway, and
    fail to read it back)."""
    return Decimal(10) ** (field.max_digits - field.decimal_places)


def fits(value: Decimal, field) -> bool:
    """A finite amount the DecimalField holds exactly: below its limit, at most its decimals."""
    step = Decimal(1).scaleb(-field.decimal_places)
    return value.is_finite() and abs(value) < decimal_limit(field) and value == value.quantize(step)


def largest(field):
    """The largest value a model field's validators allow (None: no such validator)."""
    limits = [v.limit_value for v in field.validators if isinstance(v, MaxValueValidator)]
    return min(limits, default=None)


def smallest(field, default=None):
    """The smallest value a model field's validators allow (default: no such validator)."""
    limits = [v.limit_value for v in field.validators if isinstance(v, MinValueValidator)]
    return max(limits, default=default)
