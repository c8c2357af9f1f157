"""fieldwise.report."""
