"""Pocket Tactics: tile-bag maps and the dice duel (see rules.py)."""
