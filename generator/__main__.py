"""``python -m generator`` runs the ``qipu`` command."""

import sys

from generator.cli import main

sys.exit(main())
