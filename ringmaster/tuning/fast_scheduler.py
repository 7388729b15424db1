"""A SimpleScheduler whose issue() costs O(1) between rollbacks (the core's rescans every number)."""

from __future__ import annotations

from typing import Any

from ringmaster.scheduling import SimpleScheduler


class TunerScheduler(SimpleScheduler):
    """Same numbers, same JSON as SimpleScheduler; numbers to reissue are listed once, at rollback.

    Between rollbacks nothing can become reissuable (numbers only move from
    outstanding to fixed), so the rescan the base class does on every issue()
    is needed only after rollback() or from_json().
    """

    def __init__(self) -> None:
        super().__init__()
        self._pending: list[int] = []

    def _refresh(self) -> None:
        self._pending = super()._reissuable()

    def _reissuable(self) -> list[int]:
        self._pending = [n for n in self._pending
                         if n not in self.fixed and n not in self.outstanding]
        return self._pending

    def issue(self) -> int:
        pending = self._reissuable()
        if pending:
            number = pending.pop(0)
        else:
            number = self.next_new
            self.next_new += 1
        self.outstanding.add(number)
        return number

    def release(self, number: int) -> None:
        """Make one outstanding number available to issue again (to replay a void game)."""
        if number in self.outstanding:
            self.outstanding.discard(number)
            self._pending = sorted(set(self._pending) | {number})

    def rollback(self) -> None:
        super().rollback()
        self._refresh()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TunerScheduler":
        scheduler = cls()
        scheduler.next_new = data["next_new"]
        scheduler.fixed = set(data["fixed"])
        scheduler._refresh()
        return scheduler
