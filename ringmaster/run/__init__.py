"""The coordinator: one run of one competition, from its lock and start-up checks to its reports."""
