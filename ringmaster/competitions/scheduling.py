"""Hand out game numbers so that games in flight when a run stops are replayed with the same ids."""

from __future__ import annotations

import bisect
from collections.abc import Hashable
from typing import Any


class SimpleScheduler:
    """Issues game numbers 0, 1, 2...; numbers issued but never fixed are issued again first.

    Only fixed numbers are part of the state, so a number that was in flight
    when the ringmaster stopped is issued again after a reload. issue() and
    fix() take constant time; rollback() takes time in the numbers issued.
    """

    def __init__(self) -> None:
        self.next_new = 0
        self.fixed: set[int] = set()
        self.outstanding: set[int] = set()
        self._pending: list[int] = []     # to issue again, lowest first

    def issue(self, limit: int | None = None) -> int | None:
        """The next number (below limit, if given), or None if there is none."""
        if self._pending and (limit is None or self._pending[0] < limit):
            number = self._pending.pop(0)
        elif limit is None or self.next_new < limit:
            number = self.next_new
            self.next_new += 1
        else:
            return None
        self.outstanding.add(number)
        return number

    def can_issue(self, limit: int | None = None) -> bool:
        if limit is None:
            return True
        return bool(self._pending and self._pending[0] < limit) or self.next_new < limit

    def fix(self, number: int) -> None:
        self.outstanding.discard(number)
        self.fixed.add(number)

    def forget(self, number: int) -> None:
        """Give up on an issued number for good (it is never issued again)."""
        self.fix(number)

    def retry(self, number: int) -> None:
        """Make an issued number available to issue again (its game was void)."""
        if number in self.outstanding:
            self.outstanding.discard(number)
            bisect.insort(self._pending, number)

    def rollback(self) -> None:
        """Make every issued-but-unfixed number available to issue again."""
        self.outstanding.clear()
        self._pending = [n for n in range(self.next_new) if n not in self.fixed]

    def to_json(self) -> dict[str, Any]:
        """The numbers below next_new not fixed (those in flight or to issue again), which
        are few: the state is saved after every game, and the fixed ones are most of a
        long run's numbers. {"fixed": [...]} (which from_json reads too) if the numbers
        below next_new aren't each either fixed or in flight or pending: a fixed
        number that is also to be issued again, say."""
        unfixed = self.outstanding.union(self._pending)
        if len(self.fixed) + len(unfixed) != self.next_new or not unfixed.isdisjoint(self.fixed):
            return {"next_new": self.next_new, "fixed": sorted(self.fixed)}
        return {"next_new": self.next_new, "unfixed": sorted(unfixed)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SimpleScheduler:
        scheduler = cls()
        scheduler.next_new = int(data["next_new"])
        if "unfixed" in data:
            scheduler.fixed = set(range(scheduler.next_new)).difference(data["unfixed"])
        else:
            scheduler.fixed = set(data["fixed"])
        scheduler.rollback()
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

    def issue(self) -> tuple[Hashable, int] | None:
        """Return the next (group, number), or None if every group is complete."""
        candidates = [code for code in self.groups
                      if self.schedulers[code].can_issue(self.limits[code])]
        if not candidates:
            return None
        code = min(candidates, key=self._load)
        return code, self.schedulers[code].issue(self.limits[code])

    def fix(self, code: Hashable, number: int) -> None:
        self.schedulers[code].fix(number)

    def retry(self, code: Hashable, number: int) -> None:
        """Make an issued number available to issue again (its game was void)."""
        self.schedulers[code].retry(number)

    def has_issued(self, code: Hashable) -> bool:
        """Whether the group has issued a number (in this run or one before)."""
        return code in self.schedulers and self.schedulers[code].next_new > 0

    def rollback(self) -> None:
        for s in self.schedulers.values():
            s.rollback()

    def to_json(self) -> dict[str, Any]:
        return {str(code): s.to_json() for code, s in self.schedulers.items()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GroupScheduler:
        scheduler = cls()
        scheduler.schedulers = {code: SimpleScheduler.from_json(d) for code, d in data.items()}
        return scheduler
