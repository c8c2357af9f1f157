"""``fieldwise.compare`` loads each public name from the module its ``TYPE_CHECKING`` imports
name, on first use: ``__all__`` and those imports must list the same names."""

from __future__ import annotations

import importlib
import subprocess
import sys

import fieldwise.compare


def test_every_public_name_loads_from_its_home() -> None:
    homes = fieldwise.compare._homes()
    assert sorted(homes) == sorted(fieldwise.compare.__all__)
    for name, home in homes.items():
        assert getattr(fieldwise.compare, name) is getattr(importlib.import_module(home), name)


def test_a_parser_loads_without_pandas() -> None:
    code = (
        "import sys, fieldwise.compare as c; c.parse_number('1'); c.FieldSpec;"
        "print('pandas' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
