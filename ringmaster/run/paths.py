"""Where a competition's files are: beside its control file, named after it, with Gomill's suffixes."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class CompetitionPaths:
    """Every file of a competition, beside its control file, with Gomill's names."""

    directory: str
    code: str

    def _path(self, suffix: str) -> str:
        return os.path.join(self.directory, self.code + suffix)

    @property
    def status(self) -> str:
        return self._path(".status")

    @property
    def journal(self) -> str:
        return self._path(".journal")

    @property
    def log(self) -> str:
        return self._path(".log")

    @property
    def history(self) -> str:
        return self._path(".hist")

    @property
    def report(self) -> str:
        return self._path(".report")

    @property
    def html(self) -> str:
        return self._path(".html")

    @property
    def command(self) -> str:
        return self._path(".cmd")

    @property
    def games(self) -> str:
        return self._path(".games")

    @property
    def void(self) -> str:
        return self._path(".void")

    @property
    def gtplogs(self) -> str:
        return self._path(".gtplogs")

    def files(self) -> list[str]:
        """The files (not folders) a run writes beside the control file."""
        return [self.log, self.status, self.journal, self.command, self.history, self.report, self.html]

    def all_outputs(self) -> list[str]:
        return [self.log, self.status, self.journal, self.command, self.history, self.report, self.html,
                self.games, self.void, self.gtplogs]
