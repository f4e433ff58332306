"""Regent: envs."""
