"""What the service asked its store for: a test counts the calls of some store methods."""


def count_calls(monkeypatch, owner, *names) -> list:
    """Wraps the coroutine methods ``names`` of ``owner`` so each call's first argument (a
    statement, a game id) is noted in the returned list, in order."""
    calls: list = []
    for name in names:
        original = getattr(owner, name)

        async def counted(*args, _original=original, **kwargs):
            calls.append(args[0] if args else None)
            return await _original(*args, **kwargs)

        monkeypatch.setattr(owner, name, counted)
    return calls
