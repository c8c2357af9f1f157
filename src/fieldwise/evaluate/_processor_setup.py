"""Put a dataset's processor on the service: the baseline published, the candidate drafted.

Idempotent: an existing processor is reused, and a version is only created when no version
with the same config exists, so running ``evaluate`` twice creates nothing the second time.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fieldwise._errors import ConfigError, NotFoundError
from fieldwise.client import Client, Version, ops
from fieldwise.datasets import Dataset


@dataclass(frozen=True)
class ProcessorSetup:
    processor_id: str
    baseline: Version | None
    candidate: Version | None
    created: tuple[str, ...]


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def existing_processor(client: Client, wanted: str) -> ProcessorSetup:
    """The processor ``wanted`` (an id, else a unique name) as it is on the service: nothing is
    created, and the versions are whatever --baseline/--candidate name."""
    try:
        processor = client.get_processor(wanted)
    except NotFoundError:
        named = [p for p in client.list_processors() if p.name == wanted]
        if len(named) > 1:
            ids = ", ".join(p.id for p in named)
            raise ConfigError(
                f"several processors are named {wanted!r} ({ids}); pass an id"
            ) from None
        if not named:
            raise ConfigError(f"no processor {wanted!r} (an id or a name) on the service") from None
        processor = named[0]
    return ProcessorSetup(processor.id, None, None, ())


def ensure_processor(client: Client, dataset: Dataset) -> ProcessorSetup:
    """Make sure the dataset's processor and its shipped version configs exist.

    The ``baseline`` config becomes the published version unless the processor already has
    one; the ``candidate`` config a drafted version (reused when an identical one exists).
    """
    section = dataset.processor
    if section is None:
        raise ConfigError(
            f"{dataset.root / 'dataset.toml'}: no [processor] table; add one (see "
            "docs/datasets.md) or pass --processor ID_OR_NAME of a processor on the service, "
            "with --baseline/--candidate naming its versions"
        )
    created: list[str] = []
    # the service names processors' ids; the toolkit finds its processor by name over HTTP
    named = [p for p in client.list_processors() if p.name == section.name]
    if len(named) > 1:
        raise ConfigError(
            f"{len(named)} processors are named {section.name!r} "
            f"({', '.join(p.id for p in named)}); rename all but one"
        )
    if named:
        processor = named[0]
    else:
        processor = client.create_processor(section.name, description=section.description)
        created.append(f"processor {processor.id}")
    versions = list(client.list_versions(processor.id))

    def find_or_create(key: str, publish: bool) -> Version | None:
        shipped = section.version(key)
        if shipped is None:
            return None
        for version in reversed(versions):
            if _same(version.config, shipped.config):
                return version
        version = client.create_version(
            processor.id, dict(shipped.config), description=f"{key} from {shipped.file}"
        )
        created.append(f"{key} version {version.id}")
        if publish:
            version = client.publish_version(processor.id, version.id)
        versions.append(version)
        return version

    baseline: Version | None
    if processor.default_version_id:
        baseline = client.call(ops.get_version(processor.id, processor.default_version_id))
    else:
        baseline = find_or_create("baseline", publish=True)
        if baseline is not None and baseline.status != "published":
            baseline = client.publish_version(processor.id, baseline.id)
    candidate = find_or_create("candidate", publish=False)
    return ProcessorSetup(processor.id, baseline, candidate, tuple(created))
