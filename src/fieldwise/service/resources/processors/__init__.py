"""Processors and their versions."""
