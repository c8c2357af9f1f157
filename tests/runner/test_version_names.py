"""The one reading of version names (:func:`fieldwise.runner.resolve_version`), on a processor
whose versions, in creation order, are v1 (rules, published before), v2 (rules, drafted), v3
(trained, drafted), v4 (trained, published before) and v5 (rules, the published default):
chosen so each alias names a different version."""

from __future__ import annotations

import pytest

from fieldwise._errors import RunnerError
from fieldwise.client import Version
from fieldwise.runner import resolve_version

WHEN = "2026-01-01T00:00:00Z"


def _version(number: int, status: str, engine: str = "rules") -> Version:
    return Version(
        id=f"ver_{number}",
        object="version",
        created_at=WHEN,
        updated_at=WHEN,
        processor_id="proc_1",
        number=number,
        status=status,
        config={"engine": engine},
    )


VERSIONS = [
    _version(1, "published"),
    _version(2, "drafted"),
    _version(3, "drafted", "trained"),
    _version(4, "published", "trained"),
    _version(5, "published"),
]
DEFAULT = "ver_5"


@pytest.mark.parametrize(
    ("wanted", "version_id", "aliases"),
    [
        ("published", "ver_5", ("published",)),
        ("latest-draft", "ver_3", ("latest-draft",)),
        ("trained:latest", "ver_4", ("trained:latest",)),
        ("v2", "ver_2", ()),
        ("v3", "ver_3", ("latest-draft",)),
        ("ver_1", "ver_1", ()),
    ],
)
def test_each_name_means_one_version(wanted: str, version_id: str, aliases: tuple[str]) -> None:
    ref = resolve_version("proc_1", DEFAULT, VERSIONS, wanted)
    assert (ref.requested, ref.version_id, ref.aliases) == (wanted, version_id, aliases)
    assert ref.name == f"v{version_id[-1]}"
    assert len(ref.config_hash) == 64


def test_outputs_name_versions_and_keep_ids_as_detail() -> None:
    typed = resolve_version("proc_1", DEFAULT, VERSIONS, "latest-draft")
    assert (typed.label, typed.described) == ("latest-draft", "latest-draft = v3 (ver_3)")
    by_id = resolve_version("proc_1", DEFAULT, VERSIONS, "ver_2")
    assert (by_id.label, by_id.described) == ("v2", "v2 (ver_2)")
    assert all(by_id.answers_to(n) for n in ("v2", "ver_2"))
    assert not by_id.answers_to("v3")


@pytest.mark.parametrize(
    ("wanted", "versions", "message"),
    [
        ("v9", VERSIONS, "processor 'proc_1' has no version 'v9' (give a ver_… id, vN, "),
        ("latest", VERSIONS, "processor 'proc_1' has no version 'latest'"),
        ("latest-draft", VERSIONS[:1], "processor 'proc_1' has no drafted version"),
        ("trained:latest", VERSIONS[:2], "processor 'proc_1' has no trained version"),
    ],
)
def test_an_unknown_name_is_an_error_naming_the_choices(
    wanted: str, versions: list[Version], message: str
) -> None:
    with pytest.raises(RunnerError) as raised:
        resolve_version("proc_1", DEFAULT, versions, wanted)
    assert str(raised.value).startswith(message)
