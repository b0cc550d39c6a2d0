"""The template's model: the quantities every sheet computes, each once, as formula
expressions (``workbook.expr``). ``step``: the decode step of a replica and what it
reads. The sheets lay these out as rows and cells; tests evaluate them in Python."""
