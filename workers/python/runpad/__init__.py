"""Runpad's Python side: Jupyter-style outputs for code run in the browser (see DESIGN.md)."""

from .display import display

__all__ = ["display"]
