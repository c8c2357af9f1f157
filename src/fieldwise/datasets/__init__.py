"""fieldwise.datasets."""
