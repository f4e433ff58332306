"""Regent: service."""
