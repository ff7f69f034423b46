"""``python -m binscrabble`` runs the command line."""

import sys

from binscrabble.cli import main

sys.exit(main())
