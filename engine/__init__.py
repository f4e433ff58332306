"""Regent: engine."""
