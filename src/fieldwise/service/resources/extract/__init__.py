"""``POST /extract/path``: a processor run answered in the same request."""
