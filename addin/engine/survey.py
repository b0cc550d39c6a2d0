"""The forms of argument each Excel function is given, watched: what the checked forms of
Excel's functions (``addin/formula/excel_functions/``) are written from (``tools/forms_survey.py``).

``watching_forms()`` is the engine's survey mode: within it every Excel function is
treated as listed, nothing is refused for its forms, and each call records the forms
(``addin.engine.forms.FORMS``) of the arguments it is given, under the source named last
(``Survey.now``). On leaving it, the engine is as it was.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from addin.engine import checked, forms
from addin.engine.boot import ready
from addin.formula import context, fx


@dataclass
class Survey:
    """What a survey saw: ``seen[source][function]`` the forms given; ``now`` the source
    being computed (a workbook's path, a test's id), ``date1904`` its date system."""

    seen: dict[str, dict[str, set]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(set)))
    now: str = ""
    date1904: bool = False

    def result(self) -> dict[str, dict[str, list[str]]]:
        """``{source: {function: [forms]}}``, sorted."""
        return {src: {f: sorted(v) for f, v in sorted(fs.items())}
                for src, fs in self.seen.items()}


@contextlib.contextmanager
def watching_forms() -> Iterator[Survey]:
    """Within the block every Excel function compiled records the forms it is given in
    the ``Survey`` yielded (see the module's docstring)."""
    ready()
    survey = Survey()
    every = {forms.bare(n): (frozenset(), "") for n in fx.function_names()}
    saved = (forms.listed, forms.guarded, checked.unchecked_forms)

    def guarded(func, call):
        def recording(*args):
            got = survey.seen[survey.now][call.name]
            got.update(call.static - {"nested", "ranges" if call.intersected else ""})
            if call.intersected:
                got.add("cells")
            book = getattr(context.STATE, "book", None)
            if (survey.date1904 or getattr(book, "date1904", False)) and \
                    call.name in forms.DATE_SYSTEM:
                got.add("1904")
            seen = getattr(context.STATE, "form_seen", None)
            for a in args[call.skip:]:
                got.update(forms.value_forms(a, seen))
            return func(*args)
        return recording

    forms.listed = lambda: every  # (compile_calls finds every function)
    forms.guarded = guarded
    checked.unchecked_forms = lambda wb: []
    try:
        yield survey
    finally:
        forms.listed, forms.guarded, checked.unchecked_forms = saved
