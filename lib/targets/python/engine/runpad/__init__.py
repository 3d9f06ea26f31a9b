"""Runpad's Python side: Jupyter-style outputs for code run in the browser (see ARCHITECTURE.md)."""

from .display import display

__all__ = ["display"]
