"""The formula layer: the one door to ``formulas`` and ``schedula`` (loading, our
corrections of its functions), how our functions are called from a formula, implicit
intersection, and formula text. Imports only ``addin.ooxml`` below it."""
