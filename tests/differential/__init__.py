"""The differential test: formulas over Excel's functions that strict mode computes
(``addin/formula/excel_functions/``) and the operators, computed by ``napkin calc`` and
by LibreOffice, their values compared.

``inputs`` is the sheet of input cells the formulas read (every argument form: numbers,
text, text that looks like a number, empty cells, booleans, errors, dates), ``signatures``
the arguments each listed function takes, ``generate`` the hypothesis strategies that write
formulas from both, ``referee`` the run (one workbook per batch, both engines, the
comparison) and ``known_differences.csv`` the values where LibreOffice differs from Excel,
each with Microsoft's documented value and its source.
"""
