"""Hand out game numbers so that games in flight when a run stops are replayed with the same ids."""

from __future__ import annotations

from typing import Any, Hashable


class SimpleScheduler:
    """Issues game numbers 0, 1, 2...; numbers issued but never fixed are issued again first.

    Only fixed numbers are part of the state, so a number that was in flight
    when the ringmaster stopped is issued again after a reload.
    """

    def __init__(self) -> None:
        self.next_new = 0
        self.fixed: set[int] = set()
        self.outstanding: set[int] = set()

    def _reissuable(self) -> list[int]:
        return [n for n in range(self.next_new)
                if n not in self.fixed and n not in self.outstanding]

    def issue(self) -> int:
        pending = self._reissuable()
        if pending:
            number = pending[0]
        else:
            number = self.next_new
            self.next_new += 1
        self.outstanding.add(number)
        return number

    def fix(self, number: int) -> None:
        self.outstanding.discard(number)
        self.fixed.add(number)

    def forget(self, number: int) -> None:
        """Give up on an issued number for good (it is never issued again)."""
        self.fix(number)

    def rollback(self) -> None:
        """Make every issued-but-unfixed number available to issue again."""
        self.outstanding.clear()

    def to_json(self) -> dict[str, Any]:
        return {"next_new": self.next_new, "fixed": sorted(self.fixed)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "SimpleScheduler":
        scheduler = cls()
        scheduler.next_new = data["next_new"]
        scheduler.fixed = set(data["fixed"])
        return scheduler


class GroupScheduler:
    """Issues (group, number) pairs, keeping the groups level.

    The next game comes from the group with the fewest games issued or fixed
    (ties go to the group listed first); within a group, numbers in flight
    when the run stopped are issued first, lowest first. A group with a
    maximum never issues a number at or above it.
    """

    def __init__(self) -> None:
        self.groups: list[Hashable] = []
        self.limits: dict[Hashable, int | None] = {}
        self.schedulers: dict[Hashable, SimpleScheduler] = {}

    def set_groups(self, groups: list[tuple[Hashable, int | None]]) -> None:
        """Set the groups and their limits (None: unlimited), keeping existing counts."""
        self.groups = [code for code, _ in groups]
        self.limits = dict(groups)
        for code in self.groups:
            self.schedulers.setdefault(code, SimpleScheduler())

    def _load(self, code: Hashable) -> int:
        s = self.schedulers[code]
        return len(s.fixed) + len(s.outstanding)

    def _can_issue(self, code: Hashable) -> bool:
        s = self.schedulers[code]
        limit = self.limits[code]
        if limit is None:
            return True
        return any(n < limit for n in s._reissuable()) or s.next_new < limit

    def issue(self) -> tuple[Hashable, int] | None:
        """Return the next (group, number), or None if every group is complete."""
        candidates = [code for code in self.groups if self._can_issue(code)]
        if not candidates:
            return None
        code = min(candidates, key=self._load)
        s = self.schedulers[code]
        pending = [n for n in s._reissuable() if self.limits[code] is None
                   or n < self.limits[code]]
        if pending:
            number = pending[0]
            s.outstanding.add(number)
        else:
            number = s.issue()
        return code, number

    def fix(self, code: Hashable, number: int) -> None:
        self.schedulers[code].fix(number)

    def retry(self, code: Hashable, number: int) -> None:
        """Make an issued number available to issue again (its game was void)."""
        self.schedulers[code].outstanding.discard(number)

    def rollback(self) -> None:
        for s in self.schedulers.values():
            s.rollback()

    def nothing_outstanding(self) -> bool:
        return all(not s.outstanding for s in self.schedulers.values())

    def to_json(self) -> dict[str, Any]:
        return {str(code): s.to_json() for code, s in self.schedulers.items()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GroupScheduler":
        scheduler = cls()
        scheduler.schedulers = {code: SimpleScheduler.from_json(d) for code, d in data.items()}
        return scheduler
