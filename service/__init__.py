"""Between the engine and the front ends: storage, the game service, the local table."""
