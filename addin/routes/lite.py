"""The xlwings Lite bundle: what a user pastes into the Lite editor.

``write_bundle(out_dir)`` writes two files:

``main.py``
    One module, because the one module every Lite version takes is ``main.py``. It
    carries napkin's ``udfs`` package (sources and data tables) as an embedded zip, which
    it unpacks into Pyodide's in-memory file system on import and puts on ``sys.path``.
    The package then runs exactly as it does under CPython: ``importlib.resources`` finds
    the CSV tables and pint's definitions file on disk, and nothing is flattened or
    rewritten. (A flattened single module would have needed the package's relative
    imports and its ``importlib.resources`` look-ups rewritten: a second code path to keep
    true; the zip is byte-for-byte the package under test, and its hash names the folder
    it unpacks into, so a re-run of main.py after an update never mixes two versions.)

    Below the payload, one plain function per catalog entry, with the catalog's name,
    arguments, docstring and argument docs, declared with ``from xlwings import func,
    arg`` so that Lite registers it as an Excel custom function. Each calls the catalog
    function, its arguments and results crossing through ``udfs.machinery.host`` (the module
    the add-in's UDFs use too, shipped in the package), and turns its
    ``udfs.machinery.errors.ExcelError`` results into what Lite shows (see ``_cell`` in the
    generated file):

    * ``#VALUE!`` alone in a cell: raised, so that Lite shows ``#VALUE!`` with the
      message (on hover where Excel supports it; always in Lite's output pane);
    * any other code, and every error inside an array: returned as the code text
      (``"#NUM!"``, ``"#N/A"``), which xlwings' Office.js conversion turns into that
      real Excel error value.

``requirements.txt``
    A fixed text, the same bytes wherever ``napkin lite`` runs (``REQUIREMENTS``):
    xlwings (bounded: the series napkin's argument conversion is tested against) and Lite's
    own helpers, which every Lite-saved workbook lists, then pint within the series the
    tests run, then numpy. One requirement a line and no comments (micropip rejects a
    comment line and an inline comment alike). A package that Pyodide ships (pyodide-http,
    numpy) is listed without a version, as Lite's documentation asks: its version is
    Pyodide's, and a pin that differs from an already loaded copy aborts the install.

``napkin embed`` stores both files inside a workbook where Lite finds them
(``addin.routes.embed``); the template carries them.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata as metadata
import inspect
import io
from importlib import resources
from pathlib import Path

from addin.ooxml import package

_PACKAGE = "udfs"
#: The date of every entry of the ``udfs`` zip: one date, so the bundle is reproducible.
ZIP_TIME = (2020, 1, 1, 0, 0, 0)


def package_files() -> dict[str, bytes]:
    """``udfs``' sources and data files, as {path inside the package's parent: bytes}."""
    root = resources.files(_PACKAGE)
    files: dict[str, bytes] = {}

    def walk(node, prefix):
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            if child.is_dir():
                if child.name != "__pycache__":
                    walk(child, f"{prefix}{child.name}/")
            elif child.name.endswith((".py", ".csv", ".txt")):
                files[f"{prefix}{child.name}"] = child.read_bytes()

    walk(root, f"{_PACKAGE}/")
    return files


def package_zip() -> bytes:
    """The ``udfs`` package as a deterministic zip (same sources, same bytes)."""
    buf = io.BytesIO()
    package.write_parts(buf, package_files().items(), ZIP_TIME, mode=0o644)
    return buf.getvalue()


#: The lines of the bundle's requirements.txt. xlwings Lite installs them with micropip,
#: where a package is either Pyodide's own (in its pyodide-lock.json: listed without a
#: version) or a pure-Python wheel from PyPI (listed with bounds where napkin depends on
#: its behaviour). docs/lite-format.md gives the sources.
REQUIREMENTS = (
    # Lite's editor marks these four "required" in every workbook it saves; xlwings is not
    # in Pyodide, and napkin's adapter relies on its err_to_str conversion as tested
    "xlwings>=0.37.8,<1.0",
    "python-dotenv",
    "pyodide-http",  # shipped by Pyodide
    "black",
    # udfs' units; flexcache, flexparser, platformdirs and typing-extensions follow from
    # pint's own metadata, and the last two are Pyodide's own where it has them loaded
    "pint>=0.25.3,<0.26",
    # shipped by Pyodide; the catalog runs without it, but a range becomes one float array
    # instead of a list of Python floats (udfs.machinery.ranges.rows_as_array)
    "numpy",
)


def requirements() -> list[str]:
    """The requirement lines of the bundle's ``requirements.txt`` (``REQUIREMENTS``)."""
    return list(REQUIREMENTS)


def _signature(f) -> tuple[str, str]:
    """(parameter list as declared, argument list of the call) of a catalog function."""
    params, call = [], []
    for p in inspect.signature(f).parameters.values():
        if p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
            raise ValueError(f"{f.__name__}: only plain positional arguments can be Excel's")
        if p.default is inspect.Parameter.empty:
            params.append(p.name)
        elif p.default is None:
            params.append(f"{p.name}=None")
        else:
            raise ValueError(f"{f.__name__}: optional arguments default to None (empty cell)")
        call.append(p.name)
    return ", ".join(params), ", ".join(call)


def _string(text: str) -> str:
    """A Python literal of ``text``, double-quoted like the rest of the file."""
    r = repr(text)
    if r.startswith("'") and '"' not in text:
        r = '"' + r[1:-1].replace("\\'", "'") + '"'
    return r


#: The first line of every main.py napkin writes: how `napkin embed` knows its own code.
HEADER_FIRST_LINE = '"""napkin: LLM-inference napkin math as Excel functions, for xlwings Lite.'

_HEADER = HEADER_FIRST_LINE + '''

Generated by `napkin lite` from napkin {version} (udfs package sha256 {digest}).
`napkin embed` stores this file and requirements.txt inside a workbook, where xlwings
Lite finds them; or paste them into the xlwings Lite editor (replacing both files). Lite
registers the functions below, e.g. =RIDGE(989, 3.35) gives 295.2.
To update: `napkin embed --in-place` with a newer napkin, or paste both files again.
Do not edit by hand: the functions' code is napkin's `udfs` package, embedded below.
"""

import base64
import hashlib
import io
import os
import sys
import tempfile
import zipfile

from xlwings import arg, func

# napkin's `udfs` package (Python sources and data tables) as a base64-encoded zip.
_UDFS_ZIP = (
{payload}
)


def _load_udfs():
    """Unpack the embedded package once into a folder named by its hash; import it."""
    data = base64.b64decode("".join(_UDFS_ZIP))
    root = os.path.join(tempfile.gettempdir(),
                        "napkin-" + hashlib.sha256(data).hexdigest()[:16])
    if not os.path.isdir(os.path.join(root, "udfs")):
        part = root + ".part"
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            z.extractall(part)
        os.replace(part, root)
    # Lite runs main.py again after every edit: forget an older copy of the package.
    for name in [m for m in sys.modules if m == "udfs" or m.startswith("udfs.")]:
        if not (getattr(sys.modules[name], "__file__", None) or "").startswith(root):
            del sys.modules[name]
    sys.path[:] = [p for p in sys.path
                   if not os.path.basename(p).startswith("napkin-") or p == root]
    if root not in sys.path:
        sys.path.insert(0, root)
    import udfs
    import udfs.machinery.host

    return udfs


_udfs = _load_udfs()
_CATALOG = _udfs.CATALOG
# how arguments and results cross (udfs/machinery/host.py, shared with the add-in)
_host = _udfs.machinery.host
_arg = _host.argument


class NapkinError(Exception):
    """Raised for a #VALUE! result: Lite shows #VALUE! with this message."""


def _code(error):
    return error.code


def _alone(error):
    """A lone error result: #VALUE! is raised (its message is shown with it); any other
    code is returned as its text, which xlwings turns into that Excel error value."""
    if error.code == "#VALUE!":
        raise NapkinError(error.message or error.code)
    return error.code


def _cell(value):
    """A catalog result as Lite shows it: a lone #VALUE! is raised; any other error code,
    and each error in an array, is returned as the code text (#NUM!, #N/A...)."""
    return _host.result(value, _code, _alone)

'''

_FUNCTION = '''

@func
{args}def {name}({params}):
    {doc}
    return _cell(_CATALOG[{name_literal}]({call}))
'''


def _function_source(name: str, f, docs: dict[str, str]) -> str:
    params, call = _signature(f)
    # err_to_str: an error cell arrives as its code text ("#N/A"), which the catalog gives
    # back as that error; by default xlwings passes it as None, as if the cell were empty
    decorators = "".join(
        f"@arg({_string(a)}, doc={_string(docs[a])}, ndim=2, err_to_str=True)\n"
        for a in call.split(", ") if a
    )
    call_args = ", ".join(f"_arg({a})" for a in call.split(", ") if a)
    doc = (f.__doc__ or "").strip()
    if '"""' in doc or doc.startswith('"') or doc.endswith('"') or "\\" in doc:
        doc_literal = _string(doc)
    else:
        doc_literal = f'"""{doc}"""'
    return _FUNCTION.format(args=decorators, name=name, params=params, doc=doc_literal,
                            name_literal=_string(name), call=call_args)


def napkin_version() -> str:
    """The version of the installed distribution that provides ``udfs`` (whatever its
    name), or "(source)" for a bare source checkout."""
    for dist in metadata.packages_distributions().get(_PACKAGE, []):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:  # pragma: no cover
            continue
    return "(source)"  # pragma: no cover - a source checkout


def main_py() -> str:
    """The text of the bundle's ``main.py``."""
    import udfs

    blob = package_zip()
    encoded = base64.b64encode(blob).decode("ascii")
    payload = "\n".join(f'    "{encoded[i:i + 88]}"' for i in range(0, len(encoded), 88))
    version = napkin_version()
    parts = [_HEADER.format(version=version, digest=hashlib.sha256(blob).hexdigest()[:16],
                            payload=payload)]
    for name, f in udfs.CATALOG.items():
        parts.append(_function_source(name, f, udfs.ARG_DOCS[name]))
    return "".join(parts)


def requirements_txt() -> str:
    """The whole ``requirements.txt`` of the bundle: ``REQUIREMENTS``, one a line."""
    return "\n".join(REQUIREMENTS) + "\n"


def write_bundle(out_dir) -> list[Path]:
    """Write ``main.py`` and ``requirements.txt`` into ``out_dir``; return their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in (("main.py", main_py()), ("requirements.txt", requirements_txt())):
        path = out / name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written
