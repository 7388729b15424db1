"""Where a competition's files are: beside its control file, named after it, with Gomill's suffixes."""

from __future__ import annotations

import os
import stat
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

    def own_file_written_by(self, fd: int) -> str | None:
        """The competition's file that this descriptor writes to (`run FILE.ctl > FILE.log`), or None."""
        try:
            written = os.fstat(fd)
        except OSError:
            return None
        if not stat.S_ISREG(written.st_mode):
            return None
        for path in self.all_outputs():
            try:
                own = os.stat(path)
            except OSError:
                continue
            if (own.st_dev, own.st_ino) == (written.st_dev, written.st_ino):
                return path
        return None
