"""Shared engine pieces: RNG, dice, decks, config loading, batch and AEC bases."""
