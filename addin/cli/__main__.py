"""``python -m addin.cli``: the ``napkin`` command."""

import sys

from addin.cli import main

sys.exit(main())
