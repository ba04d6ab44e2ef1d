"""``python -m generator`` runs the ``qipu`` command."""

from generator.cli import run

run()
