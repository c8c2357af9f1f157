"""Workflows, workflow runs and batch runs."""
