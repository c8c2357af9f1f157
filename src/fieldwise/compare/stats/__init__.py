"""Figures from scored cells: mergeable per-partition sufficient statistics, their one
reducer, intervals, paired tests (McNemar/Holm), power, bootstrap and the distributions they use."""
