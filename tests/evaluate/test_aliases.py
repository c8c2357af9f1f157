"""One meaning per version name, over the real CLI and the embedded service.

After ``fieldwise train`` the processor has v1 (published, the dataset's baseline config), v2
(drafted, its candidate config) and v3 (drafted, made by training). ``latest-draft`` is the most
recently created drafted version, so v3, in ``run``, ``evaluate``, ``compare`` and ``publish``
alike; outputs name versions by what the user typed and ``vN``, ids only beside them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from fieldwise.runner import load_runset
from tests.cli_main import run_main
from tests.service.resources.training_runs.conftest import INVOICES, mini_invoices

#: Small models: the plumbing of names is under test, not how well the model learns.
FAST = ("--param", "max_iter=20", "--param", "calibration_folds=2")


#: A policy any candidate passes on four documents: the names are under test, not the gate.
LENIENT = """[gate]
min_documents = 1
min_support = 1
min_accuracy = 0.0
min_field_accuracy = 0.0
max_regression = 1.0
overall_margin = 1.0
alpha = 0.000001
"""


def _main(*args: str) -> tuple[int, str, str]:
    result = run_main(*args)
    return result.exit_code, result.stdout, result.stderr


def test_latest_draft_means_one_version_everywhere_after_training(tmp_path: Path) -> None:
    root = mini_invoices(tmp_path / "mini", train=4, test=4)
    code, out, err = _main("train", str(root), "--split", "train", "--seed", "3", *FAST,
                           "--json")  # fmt: skip
    assert code == 0, err
    trained = json.loads(out)["version"]
    assert (trained["number"], trained["status"]) == (3, "drafted")
    v3 = trained["id"]

    # run: latest-draft is the trained draft, shown as "latest-draft = v3 (ver_…)"
    code, out, err = _main(
        "run", "--eval-set", "mini", "--processor", "invoice-extractor",
        "--version", "published", "--version", "latest-draft", "--split", "test",
    )  # fmt: skip
    assert code == 0, err
    assert f"latest-draft = v3 ({v3})" in out
    assert re.search(r"published = v1 \(ver_\w+\)", out)

    # evaluate (what the Action runs): the same version, and the labels stay the names typed
    policy = tmp_path / "lenient.toml"
    policy.write_text(LENIENT)
    code, out, err = _main(
        "evaluate", str(root), "--candidate", "latest-draft", "--split", "test",
        "--policy", str(policy), "--json",
    )  # fmt: skip
    evaluation = json.loads(out)
    assert code == 0, [r for r in evaluation["verdicts"][0]["rules"] if r["status"] != "pass"]
    assert evaluation["versions"][1] == v3
    assert [evaluation["labels"][v] for v in evaluation["versions"]] == [
        "published",
        "latest-draft",
    ]
    runset_id = evaluation["runset"]["runset_id"]
    manifest = json.loads((load_runset(runset_id).directory / "runset.json").read_text())[
        "versions"
    ]
    assert [(v["requested"], v["name"], v["version_id"]) for v in manifest][1] == (
        "latest-draft",
        "v3",
        v3,
    )
    # the aliases that named each version when it ran travel with the run set
    assert manifest[1]["aliases"] == ["latest-draft", "trained:latest"]
    summary = Path(evaluation["reports"]["md"]).read_text(encoding="utf-8")
    assert "latest-draft" in summary

    # compare reads the run set's names the same way: vN, the alias, the id
    for name in ("v3", "latest-draft", "trained:latest", v3):
        code, out, err = _main("compare", runset_id, "--candidate", name, "--json")
        assert code == 0, (name, err)
        assert json.loads(out)["candidates"] == [v3], name

    # the gate's verdict names versions by name, ids as detail
    code, out, err = _main("gate", runset_id, "--policy", str(policy))
    assert code == 0, err
    assert f"candidate latest-draft = v3 ({v3}) vs baseline published = v1 (ver_" in out

    # publish: the alias names the version the verdict is about, so it is published
    code, out, err = _main("publish", "--version", "latest-draft", "--runset", runset_id)
    assert code == 0, err
    assert out.strip() == f"published latest-draft = v3 of {evaluation['processor_id']} ({v3})"
    code, out, _ = _main("processors", "show", "invoice-extractor", "--json")
    assert json.loads(out)["default_version_id"] == v3

    # a newer draft takes the alias: "latest-draft" now means v4, which the verdict is not about
    code, out, err = _main(
        "versions", "create", evaluation["processor_id"],
        "--config", str(INVOICES / "processor" / "v1.json"), "--json",
    )  # fmt: skip
    assert code == 0, err
    v4 = json.loads(out)["id"]
    code, out, err = _main("publish", "--version", "latest-draft", "--runset", runset_id)
    assert code == 1, out
    assert err.strip().splitlines()[-1] == (
        f"error: not publishing: 'latest-draft' is v4 ({v4}), but run set {runset_id}'s "
        f"verdict is about v3 ({v3}, asked for as 'latest-draft'); evaluate v4 first, or "
        "publish the version the verdict is about"
    )
