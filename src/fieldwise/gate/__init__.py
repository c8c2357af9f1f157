"""fieldwise.gate."""
