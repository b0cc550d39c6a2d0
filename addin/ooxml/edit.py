"""Small text edits of a package's parts that keep every namespace prefix in scope.

napkin edits parts as text (``addin.ooxml.reader``: every other byte stays as it was), so
an element it inserts must be correct wherever it lands. Writers place their namespace
declarations differently: Excel and openpyxl without lxml declare ``xmlns:r`` on the
root of ``xl/workbook.xml``; openpyxl with lxml declares it on each ``<sheet>``; a
relationships part may use a prefix for its own namespace (``<pr:Relationships
xmlns:pr=...>``). Each function here writes the element with the prefix of its parent
(always in scope where the element is put) and declares any other namespace it uses on
the element itself, unless an ancestor it can see declares it (XML Namespaces 1.0, §6.1:
a declaration is in scope in the element that carries it and in its content).

``tests/test_xml_parts.py`` parses every part napkin writes with a namespace-aware parser,
over workbooks of every writer.
"""

from __future__ import annotations

import re

#: The officeDocument relationships namespace (``r:id`` of a ``<sheet>``).
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

_START_TAG = re.compile(r"<(?P<name>(?:(?P<p>[A-Za-z_][\w.-]*):)?[A-Za-z_][\w.-]*)(?=[\s/>])"
                        r"(?P<attrs>[^>]*)>")
_DECL = re.compile(r'\sxmlns(?::(?P<p>[A-Za-z_][\w.-]*))?\s*=\s*(["\'])(?P<uri>[^"\']*)\2')


def root_start_tag(xml: str) -> re.Match:
    """The start tag of the root element (after the XML declaration, comments and
    processing instructions)."""
    pos = 0
    while True:
        m = _START_TAG.search(xml, pos)
        if m is None:
            raise ValueError("the part has no root element")
        before = xml[pos:m.start()]
        if "<!--" in before and "-->" not in before[before.rindex("<!--"):]:
            pos = xml.index("-->", m.start()) + 3  # the tag was inside a comment
            continue
        return m


def declared_prefix(start_tag: str, uri: str) -> str | None:
    """The prefix ``start_tag`` binds to ``uri`` (``""`` for a default namespace), or None."""
    for d in _DECL.finditer(start_tag):
        if d.group("uri") == uri:
            return d.group("p") or ""
    return None


def _insert_last_child(xml: str, parent: str, element) -> str:
    """``xml`` with ``element(prefix)`` (the child's text, given the prefix of ``parent``,
    ``"x:"`` or ``""``) as the last child of the first element named ``parent`` (any
    prefix), which may be written empty (``<parent/>``)."""
    m = re.search(r"<(?P<p>(?:[A-Za-z_][\w.-]*:)?)" + parent + r"(?=[\s/>])(?P<a>[^>]*?)"
                  r"(?P<empty>/?)>", xml)
    if m is None:
        raise ValueError(f"the part has no <{parent}> element")
    p = m.group("p")
    child = element(p)
    if m.group("empty"):
        return (xml[:m.start()] + f"<{p}{parent}{m.group('a')}>{child}</{p}{parent}>"
                + xml[m.end():])
    close = xml.find(f"</{p}{parent}>", m.end())
    if close < 0:
        raise ValueError(f"the part's <{p}{parent}> is not closed")
    return xml[:close] + child + xml[close:]


# --------------------------------------------------------------------------- relationships


def free_rel_id(rels_xml: str, stem: str = "rId") -> str:
    """The first ``rId<n>`` not yet used in a relationships part."""
    used = set(re.findall(r'\bId\s*=\s*["\']' + re.escape(stem) + r'(\d+)["\']', rels_xml))
    n = 1
    while str(n) in used:
        n += 1
    return f"{stem}{n}"


def add_relationship(rels_xml: str, rel_id: str, rel_type: str, target: str) -> str:
    """A relationships part with one more ``<Relationship>``, in the prefix of its root."""
    from addin.ooxml.reader import xml_escape_attr

    return _insert_last_child(
        rels_xml, "Relationships",
        lambda p: f'<{p}Relationship Id="{xml_escape_attr(rel_id)}" '
                  f'Type="{xml_escape_attr(rel_type)}" Target="{xml_escape_attr(target)}"/>')


def remove_relationships(rels_xml: str, target_suffix: str) -> str:
    """A relationships part without the relationships whose target ends in
    ``target_suffix``."""
    return re.sub(r'<(?:[A-Za-z_][\w.-]*:)?Relationship\b[^>]*\bTarget\s*=\s*["\'][^"\']*'
                  + re.escape(target_suffix) + r'["\'][^>]*/>', "", rels_xml)


def remove_relationship_id(rels_xml: str, rel_id: str) -> str:
    """A relationships part without the relationship ``rel_id``."""
    return re.sub(r'<(?:[A-Za-z_][\w.-]*:)?Relationship\b[^>]*\bId\s*=\s*["\']'
                  + re.escape(rel_id) + r'["\'][^>]*/>', "", rels_xml)


# --------------------------------------------------------------------------- content types


def add_override(types_xml: str, part: str, content_type: str) -> str:
    """``[Content_Types].xml`` with an ``<Override>`` for ``/part`` (unchanged if it has
    one already)."""
    from addin.ooxml.reader import xml_escape_attr

    if re.search(r'PartName\s*=\s*["\']/' + re.escape(part) + r'["\']', types_xml):
        return types_xml
    return _insert_last_child(
        types_xml, "Types",
        lambda p: f'<{p}Override PartName="/{xml_escape_attr(part)}" '
                  f'ContentType="{xml_escape_attr(content_type)}"/>')


def remove_override(types_xml: str, part: str) -> str:
    """``[Content_Types].xml`` without the ``<Override>`` of ``/part``."""
    return re.sub(r'<(?:[A-Za-z_][\w.-]*:)?Override\b[^>]*\bPartName\s*=\s*["\']/'
                  + re.escape(part) + r'["\'][^>]*/>', "", types_xml)


# --------------------------------------------------------------------------- the workbook


def add_sheet_entry(workbook_xml: str, name: str, rel_id: str, state: str = "hidden") -> str:
    """``xl/workbook.xml`` with one more ``<sheet>`` at the end of ``<sheets>``: the next
    free ``sheetId``, ``state``, and its ``r:id`` in a prefix bound to the relationships
    namespace where it stands (the root's or ``<sheets>``'s declaration, else its own)."""
    from addin.ooxml.reader import xml_escape_attr

    ids = [int(x) for x in re.findall(
        r'<(?:[A-Za-z_][\w.-]*:)?sheet\b[^>]*\bsheetId\s*=\s*["\'](\d+)["\']', workbook_xml)]
    sheets = re.search(r"<(?:[A-Za-z_][\w.-]*:)?sheets(?=[\s/>])[^>]*>", workbook_xml)
    prefix = declared_prefix(root_start_tag(workbook_xml).group(0), REL_NS)
    if sheets is not None and (inner := declared_prefix(sheets.group(0), REL_NS)):
        prefix = inner
    if prefix:
        rid, decl = f"{prefix}:id", ""
    else:  # not in scope here (or only as a default namespace): declared on the entry
        rid, decl = "r:id", f' xmlns:r="{REL_NS}"'
    sheet_id = max(ids, default=0) + 1
    return _insert_last_child(
        workbook_xml, "sheets",
        lambda p: f'<{p}sheet name="{xml_escape_attr(name)}" sheetId="{sheet_id}" '
                  f'state="{state}" {rid}="{xml_escape_attr(rel_id)}"{decl}/>')


__all__ = ["REL_NS", "root_start_tag", "declared_prefix", "free_rel_id",
           "add_relationship", "remove_relationships", "remove_relationship_id",
           "add_override", "remove_override", "add_sheet_entry"]
