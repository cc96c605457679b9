"""`python -m satsudoku` runs the command-line tool."""

import sys

from satsudoku.cli import main

sys.exit(main())
