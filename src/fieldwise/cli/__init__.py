"""fieldwise.cli."""
