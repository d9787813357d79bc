"""Training, evaluation and the ``fiesta`` command line (needs the ``train`` extra)."""
