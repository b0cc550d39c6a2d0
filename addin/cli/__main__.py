"""``python -m addin.cli``: the ``napkin`` command."""

from addin.cli import run

run()
