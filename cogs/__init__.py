"""Discord front end: thin cogs over :class:`service.games.GameService`.

No rules and no SQL live here; every command, option and label comes from the ruleset contract
(``engine.core.ruleset``) of whichever game the thread holds.
"""
