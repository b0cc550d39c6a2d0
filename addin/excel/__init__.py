"""Excel's built-in functions that ``formulas`` lacks or computes unlike Excel, by topic.
Installed by ``addin.engine.boot.ready``; imports only the formula and OOXML layers."""
