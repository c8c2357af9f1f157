"""Server-side evaluation runs: a processor version scored on an evaluation set.

An evaluation run (``evrun_…``) is a durable job (:mod:`fieldwise.service.jobs`) in its own
worker pool: it snapshots the set's items, creates a real processor run per item (outputs stay
inspectable), waits for them, scores the outputs with :mod:`fieldwise.compare` and stores the
metrics and every scored cell, recording ``evaluation.completed`` in the finishing transaction.
"""
