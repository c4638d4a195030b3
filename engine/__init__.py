"""Umpire's rules engine: pure, deterministic, no I/O beyond reading its own packaged data.

Entry points: :func:`engine.registry.get_ruleset` and :func:`engine.core.game.apply_action`.
"""
