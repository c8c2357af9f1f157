"""Evaluation sets and their items."""
