"""Helpers shared by test suites (real servers, no fakes)."""
