"""Variants this package publishes (the `unobot.variants` entry point names this module)."""
