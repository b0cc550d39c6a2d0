"""XML in tests compared as XML: parsed, namespace-aware, canonicalised (C14N 2.0), never
as text. openpyxl writes the same document in other bytes with lxml installed (``<v/>``
against ``<v />``, ``xmlns:r`` on the root or on each ``<sheet>``); a test that compares
text passes on one machine and fails on the next."""

from __future__ import annotations

import xml.etree.ElementTree as StdET
import zipfile
from pathlib import Path

from defusedxml import ElementTree as ET


def canonical(data: bytes | str) -> str:
    """``data`` (a whole XML document) in C14N 2.0 form with its prefixes rewritten
    (``n0``, ``n1``...): equal for equal documents, wherever their namespace declarations
    stand, whatever prefixes they chose, however empty elements are written."""
    if isinstance(data, bytes):
        data = data.decode("utf-8")
    ET.fromstring(data, forbid_dtd=True)  # nothing that a safe parser refuses
    return StdET.canonicalize(data, rewrite_prefixes=True)


def local(tag: str) -> str:
    """The local name of a Clark-notation tag (``{uri}name`` -> ``name``)."""
    return tag.rsplit("}", 1)[-1]


def element(data: bytes | str, name: str):
    """The first element whose local name is ``name`` (None if there is none)."""
    root = ET.fromstring(data, forbid_dtd=True)
    return next((e for e in root.iter() if local(e.tag) == name), None)


def attributes(data: bytes | str, name: str) -> dict[str, str] | None:
    """The attributes of the first element named ``name`` (local names, as parsed)."""
    e = element(data, name)
    return None if e is None else {local(k): v for k, v in e.attrib.items()}


def part(path: Path | str, name: str) -> bytes:
    with zipfile.ZipFile(path) as z:
        return z.read(name)
