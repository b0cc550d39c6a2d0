"""One byte form for the XML parts openpyxl writes, whichever XML library it found.

openpyxl serialises with lxml when lxml is installed and with the standard library's
ElementTree otherwise (``openpyxl.xml.LXML``; the ``OPENPYXL_LXML`` environment variable
turns lxml off). The two give the same document in different bytes: ``<v/>`` against
``<v />``, and the namespace declarations on the root (ElementTree) or on each element
that first uses them (lxml: ``<sheet xmlns:r=... r:id=...>``). A template built on a
machine with lxml would then differ from the committed one, and every later step that
edits the parts as text (``napkin calc``, ``embed``, ``native``) would carry the
difference on.

``canonical_part`` re-writes a part in one form that depends only on the document: the
XML declaration Excel writes, every namespace declaration on the root element (sorted by
prefix, the default namespace first, each prefix as the part first declared it), the
attributes in the order written, empty elements as ``<x/>``, text escaped as
``addin.ooxml.reader`` reads it back. The document itself (names, attributes, text,
order) is unchanged: ``tests/test_xml_parts.py`` compares the two builds' parts as parsed,
canonicalised XML and as bytes.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from xml.etree.ElementTree import Element

from defusedxml.ElementTree import iterparse

#: The declaration Excel writes at the top of every part it saves.
DECLARATION = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'

_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTR = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                       "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"})


def _parse(data: bytes) -> tuple[Element, dict[str, str]]:
    """The root element and {uri: prefix} of every namespace the part declares (the
    first prefix declared for a URI). A prefix bound to two URIs is refused: this form
    declares each prefix once, on the root."""
    prefixes: dict[str, str] = {}
    bound: dict[str, str] = {}
    root = None
    for event, item in iterparse(io.BytesIO(data), events=("start-ns", "start"),
                                 forbid_dtd=True):
        if event == "start-ns":
            prefix, uri = item
            if bound.setdefault(prefix, uri) != uri:
                raise ValueError(f"the prefix {prefix!r} is bound to two namespaces")
            prefixes.setdefault(uri, prefix)
        elif root is None:
            root = item
    if root is None:
        raise ValueError("the part has no root element")
    return root, prefixes


def _name(clark: str, prefixes: dict[str, str], attribute: bool = False) -> str:
    if clark[0] != "{":
        return clark
    uri, local = clark[1:].split("}", 1)
    if uri == "http://www.w3.org/XML/1998/namespace":
        return f"xml:{local}"
    prefix = prefixes[uri]
    if not prefix and attribute:  # an unprefixed attribute is in no namespace
        raise ValueError(f"the attribute {local!r} is in the default namespace {uri}")
    return f"{prefix}:{local}" if prefix else local


def _write(el: Element, prefixes: dict[str, str], out: list[str], decls: str) -> None:
    name = _name(el.tag, prefixes)
    attrs = "".join(f' {_name(k, prefixes, True)}="{v.translate(_ATTR)}"'
                    for k, v in el.attrib.items())
    if len(el) == 0 and not el.text:
        out.append(f"<{name}{decls}{attrs}/>")
    else:
        out.append(f"<{name}{decls}{attrs}>")
        if el.text:
            out.append(el.text.translate(_TEXT))
        for child in el:
            _write(child, prefixes, out, "")
        out.append(f"</{name}>")
    if el.tail:
        out.append(el.tail.translate(_TEXT))


def canonical_part(data: bytes) -> bytes:
    """The XML part ``data`` in napkin's one byte form (see the module's doc)."""
    root, prefixes = _parse(data)
    decls = "".join(f' xmlns:{p}="{u.translate(_ATTR)}"' if p else
                    f' xmlns="{u.translate(_ATTR)}"'
                    for u, p in sorted(prefixes.items(), key=lambda item: item[1]))
    out: list[str] = []
    _write(root, prefixes, out, decls)
    return DECLARATION + "".join(out).encode("utf-8")


def is_xml_part(name: str) -> bool:
    """Whether the zip entry ``name`` is an XML part (``.xml``, ``.rels``)."""
    return name.endswith((".xml", ".rels"))


def canonical_parts(parts: Iterable[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """``parts`` (name, bytes) with each XML part in the one form, the others as they are."""
    return [(name, canonical_part(data) if is_xml_part(name) else data)
            for name, data in parts]


__all__ = ["DECLARATION", "canonical_part", "canonical_parts", "is_xml_part"]
