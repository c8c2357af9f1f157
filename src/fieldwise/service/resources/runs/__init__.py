"""Processor runs: a version of a processor applied to one document by the worker pool.

A run is a row with a durable job (:mod:`fieldwise.service.jobs`); a worker parses the input
(once per content, :mod:`..parse.cache`), extracts and stores the output as a file. Terminal
moves record events in the outbox in the same transaction. :mod:`.retention` sweeps old outputs.
"""
