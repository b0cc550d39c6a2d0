"""How Excel stores a call of a JavaScript custom function (xlwings Lite's) in a file.

Excel saves a call of an Office.js custom function with the prefix ``_xldudf_`` before the
function's name: the Lite function that a user types as ``=RIDGE(989,3.35)`` is stored as
``_xldudf_RIDGE(989,3.35)`` in the sheet's ``<f>``; Excel shows it without the prefix
where the add-in is loaded. Lite's functions have no namespace (napkin's bundle declares
each with a bare ``@func``), so nothing stands between the prefix and the name. The
evidence, and what is and is not verified, is in docs/lite-format.md ("How Excel stores a
custom function").

Pure Python, importing nothing: it runs in Pyodide as it runs here.
"""

from __future__ import annotations

#: The prefix Excel writes before the name of a JavaScript custom function it saves.
STORED_PREFIX = "_xldudf_"


def plain_name(name: str) -> str:
    """A function's name as a user types it: without the stored prefix.

    Parameters
    ----------
    name : str
        A function name, stored (``_xldudf_RIDGE``, any case) or plain (``RIDGE``).

    Returns
    -------
    str
        The name without ``_xldudf_``: ``plain_name("_xldudf_RIDGE")`` is ``"RIDGE"``;
        a plain name is returned as it is.
    """
    if name[:len(STORED_PREFIX)].lower() == STORED_PREFIX:
        return name[len(STORED_PREFIX):]
    return name


def stored_name(name: str) -> str:
    """A function's name as Excel stores a call of it: ``stored_name("RIDGE")`` is
    ``"_xldudf_RIDGE"`` (a name already stored is returned as it is)."""
    return STORED_PREFIX + plain_name(name)
