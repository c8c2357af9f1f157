"""Training runs: a processor version learned from an evaluation set's labelled items.

A training run (``train_…``) is a durable job (:mod:`fieldwise.service.jobs`) in its own worker
pool: it parses each item's file through the parse cache, trains a model on the items' ground
truth (:mod:`fieldwise.service.engines.training`), stores the model in the blob store and, in
the finishing transaction, creates a **drafted** version whose config names the model and
records ``training.run.completed``. A canceled training leaves no version.
"""
