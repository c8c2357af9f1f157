"""Random but exact document content: parties, dates, line items and the totals they sum to."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from fieldwise.datasets.generate import _words as words

__all__ = ["Invoice", "LineItem", "Party", "Receipt", "make_invoice", "make_receipt"]

_CENT = Decimal("0.01")
_TAX_RATES = {
    "Germany": Decimal("0.19"),
    "Austria": Decimal("0.20"),
    "France": Decimal("0.20"),
    "Netherlands": Decimal("0.21"),
    "United Kingdom": Decimal("0.20"),
    "United States": Decimal("0.0825"),
}
_CURRENCY = {"United Kingdom": "GBP", "United States": "USD"}
_EPOCH = dt.date(2025, 1, 1)
_COUNTRY_CODES = {
    "Germany": "DE",
    "Austria": "AT",
    "France": "FR",
    "Netherlands": "NL",
    "United Kingdom": "GB",
    "United States": "US",
}


@dataclass(frozen=True)
class Party:
    """A company or person with a postal address."""

    name: str
    street: str
    city: str
    country: str
    vat_id: str


@dataclass(frozen=True)
class LineItem:
    """One table row; ``amount`` is exactly ``quantity * unit_price`` rounded to cents."""

    description: str
    quantity: Decimal
    unit_price: Decimal
    amount: Decimal


@dataclass(frozen=True)
class Invoice:
    """Everything printed on an invoice; :meth:`ground_truth` is what must be extracted."""

    number: str
    issue_date: dt.date
    due_date: dt.date | None
    vendor: Party
    customer: Party
    currency: str
    items: tuple[LineItem, ...]
    tax_rate: Decimal
    subtotal: Decimal
    tax: Decimal
    total: Decimal
    po_number: str | None
    iban: str
    services: bool
    notes: tuple[str, ...]

    def ground_truth(self) -> dict[str, Any]:
        """The exact expected values, in the shape of ``ground_truth.jsonl``."""
        truth: dict[str, Any] = {
            "invoice_number": self.number,
            "invoice_date": self.issue_date.isoformat(),
        }
        if self.due_date is not None:
            truth["due_date"] = self.due_date.isoformat()
        truth |= {
            "vendor_name": self.vendor.name,
            "customer_name": self.customer.name,
            "currency": self.currency,
            "subtotal": _number(self.subtotal),
            "tax": _number(self.tax),
            "total": _number(self.total),
        }
        if self.po_number is not None:
            truth["po_number"] = self.po_number
        truth["line_items"] = [
            {
                "description": item.description,
                "quantity": _number(item.quantity),
                "unit_price": _number(item.unit_price),
                "amount": _number(item.amount),
            }
            for item in self.items
        ]
        return truth


@dataclass(frozen=True)
class Receipt:
    """A till receipt: merchant, date, items and total."""

    merchant: str
    address: str
    date: dt.date
    time: str
    currency: str
    items: tuple[LineItem, ...]
    total: Decimal
    tax_rate: Decimal

    def ground_truth(self) -> dict[str, Any]:
        """The exact expected values, in the shape of ``ground_truth.jsonl``."""
        return {
            "merchant_name": self.merchant,
            "date": self.date.isoformat(),
            "currency": self.currency,
            "total": _number(self.total),
            "line_items": [
                {
                    "description": item.description,
                    "quantity": _number(item.quantity),
                    "amount": _number(item.amount),
                }
                for item in self.items
            ],
        }


def make_invoice(rng: random.Random, max_items: int = 15) -> Invoice:
    """A random invoice whose sums are exact to the cent."""
    vendor = _party(rng, company=True)
    customer = _party(rng, company=rng.random() < 0.85)
    currency = _CURRENCY.get(vendor.country, "EUR")
    services = rng.random() < 0.35
    count = (
        rng.choice((1, 2, 3, 4, 5, 6, 8, 10, 12, 15))
        if max_items >= 15
        else rng.randint(1, max_items)
    )
    pool = words.SERVICES if services else words.PRODUCTS
    items = []
    for description in rng.sample(pool, min(count, len(pool))):
        if services:
            quantity = Decimal(rng.choice(("1", "2", "4", "7.5", "8", "12", "16", "3.5")))
            unit = Decimal(rng.randrange(4500, 18000, 500)) / 100
        else:
            quantity = Decimal(rng.choice((1, 1, 2, 3, 5, 10, 12, 20, 25, 50)))
            # Bulk quantities come with small unit prices, as on real orders.
            top = 250000 if quantity <= 3 else 9000
            unit = Decimal(rng.randrange(150, top)) / 100
        items.append(
            LineItem(description, quantity, unit, (quantity * unit).quantize(_CENT, ROUND_HALF_UP))
        )
    rate = _TAX_RATES[vendor.country]
    subtotal = sum((item.amount for item in items), Decimal(0))
    tax = (subtotal * rate).quantize(_CENT, ROUND_HALF_UP)
    issue = _EPOCH + dt.timedelta(days=rng.randrange(0, 540))
    due = (
        issue + dt.timedelta(days=rng.choice((14, 30, 30, 45, 60))) if rng.random() < 0.75 else None
    )
    return Invoice(
        number=_invoice_number(rng, issue),
        issue_date=issue,
        due_date=due,
        vendor=vendor,
        customer=customer,
        currency=currency,
        items=tuple(items),
        tax_rate=rate,
        subtotal=subtotal,
        tax=tax,
        total=subtotal + tax,
        po_number=_po_number(rng) if rng.random() < 0.45 else None,
        iban=f"DE{rng.randrange(10, 99)} {rng.randrange(1000, 9999)} {rng.randrange(1000, 9999)} "
        f"{rng.randrange(1000, 9999)} {rng.randrange(1000, 9999)} {rng.randrange(10, 99)}",
        services=services,
        notes=tuple(rng.sample(words.TERMS, rng.choice((0, 0, 1, 2, 3, 5, 8, 12)))),
    )


def make_receipt(rng: random.Random) -> Receipt:
    """A random till receipt (tax included in the prices, as on most receipts)."""
    city, _, country = rng.choice(words.CITIES)
    items = []
    for name, price in rng.sample(words.RECEIPT_ITEMS, rng.randint(1, 8)):
        quantity = Decimal(rng.choice((1, 1, 1, 2, 3)))
        unit = Decimal(price)
        items.append(
            LineItem(name, quantity, unit, (quantity * unit).quantize(_CENT, ROUND_HALF_UP))
        )
    return Receipt(
        merchant=rng.choice(words.MERCHANTS),
        address=f"{rng.randint(1, 180)} {rng.choice(words.STREETS)} "
        f"{rng.choice(words.STREET_TYPES)}, {city}",
        date=_EPOCH + dt.timedelta(days=rng.randrange(0, 540)),
        time=f"{rng.randint(7, 21):02d}:{rng.randint(0, 59):02d}",
        currency=_CURRENCY.get(country, "EUR"),
        items=tuple(items),
        total=sum((item.amount for item in items), Decimal(0)),
        tax_rate=_TAX_RATES[country],
    )


def _party(rng: random.Random, *, company: bool) -> Party:
    city, postcode, country = rng.choice(words.CITIES)
    if company:
        name = f"{rng.choice(words.COMPANY_CORES)} {rng.choice(words.COMPANY_SUFFIXES)}"
    else:
        name = f"{rng.choice(words.FIRST_NAMES)} {rng.choice(words.LAST_NAMES)}"
    street = f"{rng.randint(1, 240)} {rng.choice(words.STREETS)} {rng.choice(words.STREET_TYPES)}"
    prefix = _COUNTRY_CODES[country]
    return Party(
        name, street, f"{postcode} {city}", country, f"{prefix}{rng.randrange(10**8, 10**9)}"
    )


def _invoice_number(rng: random.Random, issue: dt.date) -> str:
    style = rng.randrange(5)
    serial = rng.randrange(1, 99999)
    if style == 0:
        return f"INV-{issue.year}-{serial:05d}"
    if style == 1:
        return f"{issue.year}{serial:05d}"
    if style == 2:
        return f"RE-{serial:06d}"
    if style == 3:
        return f"A{issue.strftime('%y%m')}-{serial % 1000:03d}"
    return f"F{serial:07d}"


def _po_number(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return f"PO-{rng.randrange(10000, 99999)}"
    return f"45{rng.randrange(10**7, 10**8)}"


def _number(value: Decimal) -> int | float:
    # Whole numbers stay ints so the JSON reads "3", not "3.0"; amounts keep their cents.
    if value == value.to_integral_value():
        return int(value)
    return float(value)
