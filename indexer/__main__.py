"""``python -m indexer`` runs the command line."""

import sys

from indexer.cli import main

sys.exit(main())
