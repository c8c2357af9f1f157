"""fieldwise.runner."""
