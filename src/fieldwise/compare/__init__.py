"""fieldwise.compare."""
