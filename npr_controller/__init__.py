"""Regent: npr_controller."""
