"""The service's pure engines: parsing documents and extracting fields.

Nothing here imports the rest of the service (HTTP, store, jobs, resources): an engine takes
bytes or a parsed document and a config, and returns values. That keeps them testable alone and
usable by any worker process.
"""
