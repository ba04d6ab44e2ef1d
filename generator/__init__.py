"""Qipu (棋谱): a static-site generator for computer-game tournament archives."""

__version__ = "0.2.0"
