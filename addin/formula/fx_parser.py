"""formulas' parser with each place of a formula given only the token classes that can
start there: ``FirstCharParser``, the parser of ``addin.formula.fx``'s cells.

formulas' ``Parser.ast`` reads a formula from left to right, and at each place tries its
token classes in a fixed order (error value, string, number, LAMBDA, reference, operator,
separator, function, array constant, parenthesis, blank) until one matches; each class
that does not match costs a match of its regular expression and a ``TokenError`` raised
and caught. Most places fail five or more classes first: a function name is tried as an
error value, a number, a LAMBDA and a reference before it is read as a function. On the
template's 711 formulas (92,360 characters) 122,484 of the 149,538 tries failed, about a
third of ``napkin native``'s parsing time.

Each pattern can start, after its leading blanks, only with certain characters (below,
``STARTS``, read from the patterns of formulas 1.3, ``pyproject.toml``'s pin): a string
only with ``"``, a parenthesis with ``(`` or ``)``, an operator with one of
``<>*/^&=%+-:@``... So at a place whose first character is printable ASCII and not a
blank, only the classes that can start with it are tried, in formulas' order; at any
other place (a blank, a character beyond ASCII) every class is, as formulas does. A class
skipped is one whose pattern cannot match there, so it would have raised ``TokenError``
and the next class been tried: the tokens, the graph and every error are the same.
One reading is napkin's, not formulas': an A1 reference with a ``$`` before the ``:`` of a
function call (``$D$9:OFFSET($D$9,0,2)``, ``D$15:OFFSET(...)``), which formulas' pattern
of a reference cannot read (it takes ``$D$9:OFF`` as a range, finds ``SET(`` after it,
and its atomic groups never try ``$D$9`` alone), so that formulas refuses the formula;
``Range`` reads the reference alone there, as formulas reads ``D9:OFFSET(D9,0,2)``
(Microsoft Support, "OFFSET function": a reference "that you want to base the offset
on", one end of a range; Excel saved such formulas in the fourth held-out part's DCF
models, seen). Two more classes are dropped for a whole formula of ASCII text that cannot hold them:
error values where it has no ``#``, LAMBDA where it has neither ``LAMBDA(``, ``LET(``
nor ``_XLETA.`` (in any case). ``tests/test_fx_parser.py`` checks the start characters
against the patterns on random text and the parse against formulas' own on every formula
of the template and the corpus.
"""

from __future__ import annotations

import string

import regex
from formulas.builder import AstBuilder
from formulas.cell import Cell as _Cell
from formulas.errors import FormulaError, ParenthesesError, TokenError
from formulas.parser import Parser
from formulas.tokens.function import Function
from formulas.tokens.function import Lambda as _Lambda
from formulas.tokens.operand import Range as _Range
from formulas.tokens.operator import Operator
from formulas.tokens.parenthesis import Parenthesis
from schedula.utils.cst import NONE as _NONE
from schedula.utils.utl import get_unused_node_id

_LETTERS = frozenset(string.ascii_letters)
_DIGITS = frozenset(string.digits)

#: the characters (printable ASCII, no blank) each of formulas' token classes can start
#: with after its leading blanks, read from its pattern (``formulas.tokens``); a class not
#: named here is tried everywhere
STARTS: dict[str, frozenset[str]] = {
    # [sheet!]#NAME?: a quoted or bracketed sheet, a sheet's name, or the error itself
    "Error": frozenset("#'[_") | _LETTERS,
    "String": frozenset('"'),
    "Number": frozenset(".tTfF") | _DIGITS,  # 1, .5, TRUE, FALSE
    "Lambda": frozenset("_lL"),  # [_XLFN.]LAMBDA(, LET(, _XLETA.
    # A1 (with $, a row range 1:3, :B), R1C1, a sheet, a name (letters, _ or \),
    # _xlfn.ANCHORARRAY(, INDIRECT("
    "Range": frozenset("$:'[_\\") | _DIGITS | _LETTERS,
    "OperatorToken": frozenset("<>*/^&=%+-:@"),
    "Separator": frozenset(","),
    "Function": frozenset("_") | _LETTERS,
    "Array": frozenset("{};"),
    "Parenthesis": frozenset("()"),
    "Intersect": frozenset(),  # a blank only
}

#: printable ASCII other than the blank: the characters a place is sorted by
_SORTED = [chr(i) for i in range(0x21, 0x7F)]


def _may_hold(expr: str) -> frozenset[str]:
    """The classes whose text ``expr`` (a whole formula) may hold, of those that need
    text of their own: an error value needs ``#``; a LAMBDA ``LAMBDA(``, ``LET(`` or
    ``_XLETA.``. Only for ASCII text (IGNORECASE matches some letters beyond it)."""
    if not expr.isascii():
        return frozenset({"Error", "Lambda"})
    up = expr.upper()
    held = set()
    if "#" in up:
        held.add("Error")
    if "LAMBDA(" in up or "LET(" in up or "_XLETA." in up:
        held.add("Lambda")
    return frozenset(held)


#: formulas' pattern of ``LAMBDA(``, ``LET(`` and ``_XLETA.`` (``formulas.tokens.function.
#: _re_lambda``, 1.3) with every repetition possessive (``++``, ``*+``): formulas' own
#: nests ``[^()",]+`` inside ``(...)+``, so on text that does not close its call it tries
#: every way of cutting a run of plain characters into pieces, twice as long for each
#: character more (``LET(SCENARIO_BATCHTRUEX|_XLETA.$A:$CSUM(`` took minutes). Each piece
#: here starts with a character no other piece can start with (plain text, ``"``, ``(``)
#: and ends where the next must start, so giving characters back could only cut one piece
#: in two or hand blanks to the ``\s*`` after it: the matches and their ``arg`` captures
#: are formulas' own (``tests/test_fx_parser.py`` compares them), found in one pass.
LAMBDA_RE = regex.compile(r'''
^\s*(?P<name>(?:_XLFN\.)?(?:LAMBDA|(?P<let>LET)))\(\s*
(?:
    (?P<arg>
        (?:
            [^()",]++
          | "(?:[^"]|"")*+"
          | (?P<paren1>\((?:[^()"]++|"(?:[^"]|"")*+"|(?P>paren1))*+\))
        )++
    )
    (?:\s*,\s*
        (?P<arg>
            (?:
                [^()",]++
              | "(?:[^"]|"")*+"
              | (?P<paren2>\((?:[^()"]++|"(?:[^"]|"")*+"|(?P>paren2))*+\))
            )++
        )
    )*
)?
\s*\)(?P<call>\()?
|
^\s*(?P<name>_XLETA\.)(?P<leta>[[:alpha:]_\\][[:alnum:]\.\_\\]*+)
''', regex.IGNORECASE | regex.X)


class Lambda(_Lambda):
    """formulas' ``Lambda`` token read with ``LAMBDA_RE``."""

    _re = LAMBDA_RE


#: an A1 reference (with its sheet or not) followed by the ``:`` of a function call
REF_BEFORE_CALL = regex.compile(r"""
^(?:(?:'(?:[^']|'')+'|[^\W\d][\w.]*)!)?\$?[A-Za-z]{1,3}\$?[1-9]\d*
(?=\s*:\s*[A-Za-z_][\w.]*\()""", regex.X)


class Range(_Range):
    """formulas' ``Range`` token, that reads an A1 reference before the ``:`` of a
    function call alone where formulas' own pattern reads less of it or nothing (the
    module's docstring): ``$D$9`` of ``$D$9:OFFSET($D$9,0,2)``."""

    def match(self, s):
        m = super().match(s)
        ref = REF_BEFORE_CALL.match(s)
        if ref is not None and (m is None or m.end() < ref.end()):
            return super().match(s[:ref.end()])
        return m


class FirstCharParser(Parser):
    """``formulas.parser.Parser`` trying at each place only the token classes that can
    start there (the module's docstring), and reading LAMBDA and LET with ``LAMBDA_RE``;
    ``ast`` is formulas' own otherwise."""

    filters = [{_Lambda: Lambda, _Range: Range}.get(f, f) for f in Parser.filters]

    def __init__(self, is_cell=False):
        super().__init__(is_cell)
        self._tables: dict[frozenset[str], dict[str, tuple]] = {}

    def _table(self, held: frozenset[str]) -> dict[str, tuple]:
        """{first character: the classes to try, in order} for a formula that may hold
        the classes ``held`` (of ``_may_hold``'s)."""
        table = self._tables.get(held)
        if table is None:
            kept = [f for f in self.filters
                    if f.__name__ not in ("Error", "Lambda") or f.__name__ in held]
            table = self._tables[held] = {
                c: tuple(f for f in kept if f.__name__ not in STARTS
                         or c in STARTS[f.__name__]) for c in _SORTED}
        return table

    def ast(self, expression, context=None):
        try:
            match = self.is_formula(expression.replace('\n', '')).groupdict()
            expr = match['name']
        except (AttributeError, KeyError):
            raise FormulaError(expression) from None
        builder = self.ast_builder(match=match)
        filters, tokens, stack = tuple(self.filters), [], []
        table = self._table(_may_hold(expr))
        Parenthesis('(').ast(tokens, stack, builder)
        while expr:
            for f in table.get(expr[0], filters):
                try:
                    token = f(expr, context, self)
                    token.ast(tokens, stack, builder)
                    expr = expr[token.end_match:]
                    break
                except TokenError:
                    pass
                except FormulaError:
                    raise FormulaError(expression) from None
            else:
                raise FormulaError(expression)
        Parenthesis(')').ast(tokens, stack, builder)
        tokens = tokens[1:-1]
        while stack:
            if isinstance(stack[-1], Parenthesis):
                raise ParenthesesError()
            builder.append(stack.pop())
        if len(builder) != 1:
            raise FormulaError(expression)
        builder.finish()
        return tokens, builder


class Cell(_Cell):
    """formulas' ``Cell``, parsed by ``FirstCharParser``."""

    parser = FirstCharParser(True)


class EachCallBuilder(AstBuilder):
    """formulas' ``AstBuilder`` with each occurrence of an operation or a call a node of
    its own. formulas' makes one node of a repeated expression (``AstBuilder.append``: a
    call whose text is already a node is passed on through ``bypass``), computed once,
    which is Excel's value only where every occurrence is read in the same context: in
    ``=IF(A1<0,SUM((B1:B3>1)*1),SUMPRODUCT((B1:B3>1)*C1:C3))`` the first
    ``B1:B3>1`` takes the cell of the formula's row (implicit intersection, SUM's
    argument), the second the whole column (SUMPRODUCT's arrays). The operands (a
    reference, a number) stay one node each; so does what the graph names apart from the
    token (LET's names, formulas' ``extra_inputs``)."""

    def append(self, token):
        if not isinstance(token, (Operator, Function)):
            return super().append(token)
        try:
            tokens = [self.pop() for _ in range(token.get_n_args)][::-1]
        except IndexError:
            raise FormulaError() from None
        token.update_input_tokens(*tokens)
        inputs = [self.get_node_id(i) for i in tokens]
        token.set_expr(*tokens)
        out, dmap = token.node_id, self.dsp.dmap
        if out in self.dsp.nodes:  # a repeat: computed again, as Excel computes it
            out = self.nodes[token] = get_unused_node_id(dmap, out, "c%d>{}")
        func = token.compile()
        kw = {"function_id": get_unused_node_id(dmap, token.name), "function": func,
              "inputs": inputs or None, "outputs": [out]}
        if isinstance(func, dict):  # (as formulas' append: a function's extra inputs)
            extra = func.get("extra_inputs", {})
            for k, v in extra.items():
                if v is not _NONE:
                    self.dsp.add_data(k, v)
            kw["inputs"] = (list(extra) + inputs) or None
            kw.update(func)
        self.dsp.add_function(**kw)
        self._deque.append(token)


class EachCallParser(FirstCharParser):
    """``FirstCharParser`` building with ``EachCallBuilder``."""

    ast_builder = EachCallBuilder


class EachCallCell(_Cell):
    """formulas' ``Cell``, parsed by ``EachCallParser``: each occurrence of a repeated
    operation or call computed on its own (``addin.formula.fx.parse``, ``share=False``)."""

    parser = EachCallParser(True)

