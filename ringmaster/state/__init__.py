"""The competition's files on disk: the state file, its journal, the encoding cache and the lock."""
