"""What makes a formula of ``udfs.inference`` an Excel function, whatever its topic.

declare (a declaration and what is generated from it), args (reading an argument: its
default unit, domain and messages), units (text with units, through pint), ranges (ranges
as arrays), broadcast (one formula over scalars or ranges), formula (the compiled fast
path), errors (the Excel error value with its message), xp (array-or-scalar helpers),
explain (EXPLAIN's text), host (what crosses into Excel on both routes), stored (how Excel
stores a call of a Lite function).

It imports nothing of ``udfs.inference`` (tests/test_layers.py): a topic reads its
arguments with this machinery, never the other way round.
"""
