"""fieldwise.service."""
