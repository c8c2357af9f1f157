"""Scoring cells: parsing values by type, the comparators, alignment of line items, and the
fast wide-column scorer. What is scored here is reduced to figures in
:mod:`fieldwise.compare.stats`.
"""
