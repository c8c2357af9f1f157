"""fieldwise.train: learn a drafted processor version from a dataset's labelled split.

``train_dataset(link, "datasets/invoices", split="train")`` syncs the dataset, asks the
service for a training run on the items of that split, follows its progress and returns the
drafted version it created (whose config names the model by hash). Evaluate it on the held-back
split with ``fieldwise evaluate DATASET --candidate trained:latest --split test``.
"""

from __future__ import annotations

from fieldwise.train._train import Trained, TrainOptions, train_dataset

__all__ = ["TrainOptions", "Trained", "train_dataset"]
