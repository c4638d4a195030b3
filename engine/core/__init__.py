"""Pieces shared by every ruleset: errors, dice, state helpers, phases, grids, commands."""
