"""The US dollar value of an amount stated in euros, reais or yen, as a range: the treaties' yearly limits are in
US$ (BR-ES 18(1) US$ 3,000, PT-BR 21(2) US$ 10,000) and the rules hold no exchange rate of a day. An amount
decides a limit only when it falls on one side of it at every rate since 1999 (the euro's first year); else the
limit stays open, as when no amount is stated.

The bounds are the extreme daily reference rates of 1999-2025, rounded outward: EUR 0.82 (October 2000) to 1.60
(July 2008) US$; BRL 0.15 (December 2024, R$ 6.3 per US$) to 0.85 (January 1999); JPY 0.0061 (July 2024, 162 yen
per US$) to 0.0134 (October 2011, 75 yen per US$)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Currency = Literal["EUR", "BRL", "JPY"]
CURRENCIES: tuple[Currency, ...] = ("EUR", "BRL", "JPY")
USD_PER_UNIT: dict[Currency, tuple[float, float]] = {"EUR": (0.82, 1.60), "BRL": (0.15, 0.85), "JPY": (0.0061, 0.0134)}


@dataclass(frozen=True)
class Money:
    """A yearly amount as the question states it, in a currency other than the US dollar."""
    value: float
    currency: Currency

    def usd_range(self) -> tuple[float, float]:
        low, high = USD_PER_UNIT[self.currency]
        return self.value * low, self.value * high


def within_usd(limit: float, usd: float | None, amount: Money | None) -> bool | None:
    """Is the yearly amount at most `limit` US$? A dollar amount decides; one in another currency decides only
    when its whole range is on one side of the limit; else None (not known)."""
    if usd is not None:
        return usd <= limit
    if amount is None:
        return None
    low, high = amount.usd_range()
    return True if high <= limit else False if low > limit else None
