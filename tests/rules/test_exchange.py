"""A yearly amount in euros, reais or yen against a US$ limit: decided only when its whole range of dollar
values since 1999 is on one side of the limit."""
from __future__ import annotations

import pytest

from rules.exchange import Money, within_usd


@pytest.mark.parametrize("usd, amount, expected", [
    (2400.0, None, True),                      # a dollar amount decides alone
    (12000.0, Money(10.0, "EUR"), False),      # the dollar amount wins over another one
    (None, Money(6000.0, "EUR"), True),        # at most US$ 9,600
    (None, Money(12500.0, "EUR"), False),      # at least US$ 10,250
    (None, Money(8000.0, "EUR"), None),        # US$ 6,560 to 12,800: either side
    (None, Money(11000.0, "BRL"), True),       # at most US$ 9,350
    (None, Money(1_000_000.0, "JPY"), None),   # US$ 6,100 to 13,400
    (None, Money(700_000.0, "JPY"), True),
    (None, None, None),
])
def test_within_usd(usd, amount, expected):
    assert within_usd(10000.0, usd, amount) is expected
