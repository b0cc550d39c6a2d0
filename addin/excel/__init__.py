"""Excel's built-in functions that ``formulas`` lacks or computes unlike Excel, by topic.
Installed by :func:`addin.engine.boot.ready`; imports only the formula and OOXML layers."""
