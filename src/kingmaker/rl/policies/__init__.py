"""Trained policies shipped with the package (``policy:<stem>`` agent specs load them)."""
