"""Log evaluations to MLflow (the ``mlflow`` extra): one run per evaluation, found again by
its run set and policy so that logging twice creates nothing new (docs/mlflow.md)."""

from fieldwise.tracking._keys import field_key, role_names
from fieldwise.tracking._log import DEFAULT_EXPERIMENT, Logged, log_evaluation
from fieldwise.tracking._record import NO_POLICY, RunRecord, Tracked, policy_digest, run_record

__all__ = [
    "DEFAULT_EXPERIMENT",
    "NO_POLICY",
    "Logged",
    "RunRecord",
    "Tracked",
    "field_key",
    "log_evaluation",
    "policy_digest",
    "role_names",
    "run_record",
]
