"""Parse runs: synchronous and queued parsing of uploaded documents."""
