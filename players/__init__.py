"""Our own GTP engines, which the ringmaster plays and tunes; nothing heavy is imported here."""
