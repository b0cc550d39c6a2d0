"""formulas' names napkin swaps for the time of one parse, or reads without replacing:
the companions of ``addin.formula.patches.PATCHES`` (which re-exports both), checked
against the installed formulas release by tests/test_formulas_patches.py."""

from __future__ import annotations

#: formulas' names swapped for the time of one parse (``addin.formula.fx.parse``), under
#: its lock, and put back after: (module, class, attribute, what the swap corrects)
DURING_PARSE = (
    ("formulas.tokens.operand", "Empty", "compile",
     "an omitted argument (=F(1,,3)) parses to OMITTED; formulas gives a plain 0"),
    ("formulas.tokens.operator", "OperatorToken", "process",
     "--x negates twice, as Excel's --TRUE is 1; formulas reads -- as +"),
    ("formulas.tokens.operator", "Operator", "set_expr", "as OperatorToken.process"),
    ("formulas.tokens.operator", "Operator", "compile", "as OperatorToken.process"),
)

#: formulas' private names napkin reads without replacing them
READS = (
    ("formulas.functions.look", "_get_type_id"),
    ("formulas.functions.operators", "LOGIC_OPERATORS"),
    ("formulas.ranges", "_reshape_array_as_excel"),
    ("formulas.tokens.operand", "_build_sheet_id"),
    ("formulas.tokens.operand", "range2parts"),
    ("formulas.functions", "COMPILING"),
    ("formulas.ranges", "Ranges"),
)
