"""A tiny calculator library shipped with SWE Curator as demo data."""
from .ops import add, divide, mean

__all__ = ["add", "divide", "mean"]
