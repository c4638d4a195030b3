"""Tactical Table War with the siege expansion "Die Kunst der Belagerung"."""
