"""Regent: training."""
