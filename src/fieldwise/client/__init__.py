"""fieldwise.client."""
