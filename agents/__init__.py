"""Regent: agents."""
