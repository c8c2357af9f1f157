"""Line items by a column classifier: generated invoices (reportlab, text layer) whose tables
have headers in seven languages and columns in different orders, with their items known by
construction."""

from __future__ import annotations

import hashlib
import io
import random
from dataclasses import dataclass
from typing import Any

import pytest

from fieldwise.service.engines.extraction import extract, validate_config
from fieldwise.service.engines.parsing import ParsedDocument, parse_document
from fieldwise.service.engines.training import (
    TrainingExample,
    TrainParams,
    extract_with_model,
    load_model,
    train_model,
)
from fieldwise.service.engines.training.line_items import LineModel, classify

HEADERS = {
    "en": ("Description", "Qty", "Unit price", "Amount", "Pos"),
    "de": ("Bezeichnung", "Menge", "Einzelpreis", "Betrag", "Pos."),
    "fr": ("Désignation", "Quantité", "Prix unitaire", "Montant", "N°"),
    "es": ("Descripción", "Cantidad", "Precio unitario", "Importe", "Línea"),
    "nl": ("Omschrijving", "Aantal", "Stukprijs", "Bedrag", "Nr"),
    "it": ("Descrizione", "Quantità", "Prezzo unitario", "Importo", "Riga"),
    "pt": ("Descrição", "Quantidade", "Preço unitário", "Valor", "Nº"),
}
COLUMNS = ("description", "quantity", "unit_price", "amount", "position")
WIDTH = {"description": 170, "quantity": 85, "unit_price": 95, "amount": 80, "position": 40}
GOODS = (
    "Cordless drill 18V", "Packing tape brown", "Monitor arm dual", "Copy paper A4",
    "Safety gloves size L", "Network switch", "Desk lamp LED", "Cable ties 300 mm",
)  # fmt: skip
#: The array field as a trained version gets it from a dataset: labels are the column names.
FIELDS: list[dict[str, Any]] = [
    {
        "name": "line_items",
        "type": "array",
        "columns": {
            "description": ["description"],
            "quantity": ["quantity"],
            "unit_price": ["unit price"],
            "amount": ["amount"],
        },
        "column_types": {"quantity": "number", "unit_price": "currency", "amount": "currency"},
    }
]
PARAMS = TrainParams(max_iter=60, seed=7)


@dataclass(frozen=True)
class Invoice:
    language: str
    order: tuple[str, ...]
    items: tuple[tuple[str, int, float], ...]

    @property
    def truth(self) -> dict[str, Any]:
        return {
            "line_items": [
                {"description": d, "quantity": q, "unit_price": p, "amount": round(q * p, 2)}
                for d, q, p in self.items
            ]
        }


def _money(value: float, language: str) -> str:
    text = f"{value:,.2f}"
    if language == "en":
        return text
    return text.replace(",", " ").replace(".", ",").replace(" ", ".")


def render(invoice: Invoice, *, table: bool = True) -> bytes:
    """One page: a title, the table (columns in ``invoice.order``), a total well below."""
    from reportlab.pdfgen import canvas

    buf = io.BytesIO()
    c = canvas.Canvas(buf, pagesize=(595, 842), invariant=1)
    c.setFont("Helvetica", 10)
    c.drawString(60, 790, "Northwind Supplies")
    c.drawString(60, 760, "Invoice INV-20931")
    y = 700
    if table:
        header = dict(zip(COLUMNS, HEADERS[invoice.language], strict=True))
        xs, x = {}, 60.0
        for column in invoice.order:
            xs[column] = x
            x += WIDTH[column]
        for column in invoice.order:
            c.drawString(xs[column], y, header[column])
        for n, (name, qty, price) in enumerate(invoice.items, start=1):
            y -= 16
            cells = {
                "description": name,
                "quantity": str(qty),
                "unit_price": _money(price, invoice.language),
                "amount": _money(round(qty * price, 2), invoice.language),
                "position": str(n),
            }
            for column in invoice.order:
                c.drawString(xs[column], y, cells[column])
    total = sum(round(q * p, 2) for _, q, p in invoice.items)
    c.drawString(300, y - 60, f"Total {_money(total, invoice.language)}")
    c.showPage()
    c.save()
    return buf.getvalue()


def invoice(language: str, order: tuple[str, ...], seed: int) -> Invoice:
    rng = random.Random(seed)
    names = rng.sample(GOODS, rng.randint(2, 5))
    items = tuple((n, rng.randint(1, 40), round(rng.uniform(2, 900), 2)) for n in names)
    return Invoice(language, order, items)


def parsed(inv: Invoice, *, table: bool = True) -> ParsedDocument:
    return parse_document(render(inv, table=table), ocr=False)


TRAIN = [
    invoice("en", ("description", "quantity", "unit_price", "amount"), 1),
    invoice("de", ("position", "description", "quantity", "unit_price", "amount"), 2),
    invoice("en", ("position", "description", "unit_price", "quantity", "amount"), 3),
    invoice("de", ("description", "unit_price", "quantity", "amount"), 4),
    invoice("en", ("quantity", "description", "unit_price", "amount"), 5),
    invoice("de", ("description", "quantity", "unit_price", "amount"), 6),
    invoice("en", ("position", "quantity", "description", "unit_price", "amount"), 7),
    invoice("de", ("description", "unit_price", "quantity", "amount", "position"), 8),
]
#: Languages and column orders the training never saw.
HELD_OUT = [
    invoice("fr", ("description", "quantity", "unit_price", "amount"), 11),
    invoice("es", ("position", "description", "unit_price", "quantity", "amount"), 12),
    invoice("nl", ("quantity", "description", "amount", "unit_price"), 13),
    invoice("it", ("description", "amount", "quantity", "unit_price"), 14),
    invoice("pt", ("position", "quantity", "unit_price", "description", "amount"), 15),
]


@pytest.fixture(scope="module")
def examples() -> list[TrainingExample]:
    return [TrainingExample(parsed(inv), inv.truth) for inv in TRAIN]


@pytest.fixture(scope="module")
def blob(examples: list[TrainingExample]) -> bytes:
    return train_model(examples, FIELDS, PARAMS)


@pytest.mark.parametrize("inv", HELD_OUT, ids=[i.language for i in HELD_OUT])
def test_columns_are_assigned_in_unseen_languages_and_orders(blob: bytes, inv: Invoice) -> None:
    model = load_model(blob)
    doc = parsed(inv)
    spec = model.config.fields[0]
    found = classify(model.line_items["line_items"], doc, spec, model.config)
    assert found is not None  # the classifier answered, not the rule reader
    out = extract_with_model(model, doc)
    assert out["value"]["line_items"] == inv.truth["line_items"]
    first = out["metadata"]["line_items.0.amount"]
    assert 0.5 <= first["confidence"] <= 1
    assert first["page"] == 1


def test_the_column_classifier_is_in_the_reproducible_blob(
    examples: list[TrainingExample], blob: bytes
) -> None:
    again = train_model(examples, FIELDS, PARAMS)
    assert hashlib.sha256(again).hexdigest() == hashlib.sha256(blob).hexdigest()
    loaded = load_model(blob).line_items["line_items"]
    assert loaded.classifier is not None
    assert loaded.properties == ("description", "quantity", "unit_price", "amount")


def test_no_table_falls_back_to_the_rule_reader(blob: bytes) -> None:
    model = load_model(blob)
    doc = parsed(HELD_OUT[0], table=False)
    assert (
        classify(model.line_items["line_items"], doc, model.config.fields[0], model.config) is None
    )
    assert "line_items" not in extract_with_model(model, doc)["value"]
    assert extract_with_model(model, doc)["value"] == extract(doc, model.config)["value"]


def test_without_a_classifier_the_rule_reader_answers() -> None:
    # nothing to learn from (no line items in the truth): the rule reader reads the table,
    # exactly as the rules version with the same fields does
    english = [
        invoice("en", ("description", "quantity", "unit_price", "amount"), s) for s in (21, 22)
    ]
    examples = [TrainingExample(parsed(inv), {"line_items": []}) for inv in english]
    model = load_model(train_model(examples, FIELDS, PARAMS))
    assert model.line_items["line_items"] == LineModel(
        None, model.line_items["line_items"].properties
    )
    doc = parsed(invoice("en", ("description", "quantity", "unit_price", "amount"), 23))
    rules = extract(doc, validate_config({"fields": FIELDS}))
    assert rules["value"]["line_items"]  # the rule reader finds this English table
    trained = extract_with_model(model, doc)
    assert trained["value"]["line_items"] == rules["value"]["line_items"]
    assert trained["metadata"]["line_items"] == rules["metadata"]["line_items"]
