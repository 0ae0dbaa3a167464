"""Numbers as a person or a JSON file expects them."""

from decimal import Decimal


def plain_number(value):
    """A Decimal or float as an int when whole, a Decimal otherwise as a float; anything else
    (None, int, a fractional float) as it is. Money and amounts are stored as Decimal, but the
    rule math takes int or float, and a file should say 3, not 3.0 or "3.00"."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
