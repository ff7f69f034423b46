"""Worker processes for the computer's thinking, in lanes with bounded priority queues.

A :class:`Lane` is a fixed number of worker processes of one OS priority (niceness) fed
from one queue ordered by a job's class, then, within a class, by the jobs' keys (the
client address that caused each job): the key that has used the lane's processes least
lately goes first (the time it used halves every :data:`USAGE_HALF_LIFE` seconds), keys of
equal use take turns, and one key's jobs go by arrival. So one key's many jobs wait behind
each other, and behind the jobs of a key that asks for little. The server keeps a lane per kind
of work (docs/web.md, "Fair shares of the computer"), so a slow job of one kind never holds
a process another kind needs, and a niced lane never takes the CPU of a lane above it.

Each :class:`WorkerProcess` is one spawned process that runs one job at a time. A job may
be given a time budget: a process still busy when it runs out is killed and replaced. A
process that dies (killed, out of memory) is replaced by the next job that needs it. A job
may send what it has found so far with :func:`progress`; when it cannot finish, that is
what its caller gets.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import resource
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Literal

#: Seconds in which the time a key used a lane's processes counts half as much.
USAGE_HALF_LIFE = 60.0
#: Keys whose use a lane remembers before it forgets those whose use is negligible.
USAGE_KEYS = 256
#: How often a worker looks whether the server that started it is still there, in seconds.
PARENT_CHECK_SECONDS = 1.0
#: The connection of this process to the server, in a worker process (for :func:`progress`).
_REPLIES: Connection | None = None

Ending = Literal["done", "time", "memory", "died"]


class JobFailed(Exception):
    """A job raised an exception in its worker (its text is the worker's exception)."""


def leave_with_parent(parent: int) -> None:
    """In a worker: exit as soon as the server process that started it is gone.

    A killed server cannot stop its workers, so each watches its parent instead.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def progress(found: Any) -> None:
    """In a job: send what it has found so far; its caller gets the last one sent when the
    job cannot finish (out of time or memory). Outside a worker it does nothing."""
    _notify("partial", found)


def address_space() -> int | None:
    """This process's virtual memory in bytes (Linux), or ``None`` where it cannot be read."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE")


@contextlib.contextmanager
def memory_budget(budget: int | None) -> Iterator[None]:
    """Within the block, this process may take at most ``budget`` more bytes of memory
    (``RLIMIT_AS`` above what it has now); past it an allocation raises ``MemoryError``.

    Only the soft limit is lowered, so it is raised again afterwards.
    """
    now = address_space()
    if budget is None or now is None:
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = now + budget
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    # The server hears of it: compiled code may end the process at once when an allocation
    # fails (it prints "fatal: out of memory") instead of raising MemoryError.
    _notify("capped", True)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        _notify("capped", False)


def _notify(kind: str, value: Any) -> None:
    if _REPLIES is not None:
        _REPLIES.send((kind, value))


def serve_jobs(replies: Connection, parent: int, niceness: int) -> None:
    """A worker process's life: run the jobs it is sent, one at a time, and answer each.

    An answer is ``("done", result)``, ``("error", text)`` or, after a ``MemoryError``,
    ``("memory", None)``, and then the process ends (a fresh one replaces it).
    """
    global _REPLIES
    _REPLIES = replies
    leave_with_parent(parent)
    if niceness:
        os.nice(niceness)
    replies.send(("ready", None))
    while True:
        try:
            function, arguments = replies.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, Any] = ("done", function(*arguments))
        except MemoryError:
            replies.send(("memory", None))
            return
        except Exception as problem:
            answer = ("error", f"{type(problem).__name__}: {problem}")
        replies.send(answer)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a job ended: ``done`` with its ``result``; else (``time``: over its time budget,
    ``memory``: over its memory, ``died``: its process ended) with the last ``partial``
    result it sent, if any."""

    ending: Ending
    result: Any = None
    partial: Any = None


class WorkerProcess:
    """One worker process, started when first needed and again after it ends."""

    def __init__(self, niceness: int, readers: ThreadPoolExecutor) -> None:
        self.niceness = niceness
        self._readers = readers
        self._process: multiprocessing.process.BaseProcess | None = None
        self._replies: Connection | None = None

    async def _started(self) -> Connection:
        if self._process is not None and self._process.is_alive() and self._replies:
            return self._replies
        self.stop()
        # Spawned, not forked: a fork of a running server would copy its threads' locks.
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=serve_jobs,
            args=(theirs, os.getpid(), self.niceness),
            name="binscrabble-worker",
            daemon=True,
        )
        process.start()
        theirs.close()
        self._process, self._replies = process, ours
        # A job's time counts from when the process is ready for it, not from its start.
        loop = asyncio.get_running_loop()
        with contextlib.suppress(EOFError, OSError):
            await loop.run_in_executor(self._readers, ours.recv)
        return ours

    async def call(
        self, function: Callable[..., Any], arguments: tuple[Any, ...], seconds: float | None
    ) -> Outcome:
        """Run ``function(*arguments)`` here; with ``seconds``, stop it after that long."""
        replies = await self._started()
        loop = asyncio.get_running_loop()
        partial: Any = None
        capped = False  # whether the job runs under a memory budget now
        try:
            replies.send((function, arguments))
        except OSError:
            self.stop()
            return Outcome("died")
        deadline = None if seconds is None else loop.time() + seconds
        while True:
            reading = loop.run_in_executor(self._readers, replies.recv)
            left = None if deadline is None else max(0.0, deadline - loop.time())
            try:
                kind, value = await asyncio.wait_for(asyncio.shield(reading), left)
            except TimeoutError:
                self._kill()
                with contextlib.suppress(EOFError, OSError):
                    await reading  # the reading thread sees the end of the killed process
                self.stop()
                return Outcome("time", partial=partial)
            except (EOFError, OSError):
                self.stop()
                return Outcome("memory" if capped else "died", partial=partial)
            except asyncio.CancelledError:
                self.stop()  # the process would answer the next job with this one's result
                raise
            if kind == "ready":
                continue  # a start whose wait was cancelled
            if kind == "capped":
                capped = value
            elif kind == "partial":
                partial = value
            elif kind == "done":
                return Outcome("done", result=value)
            elif kind == "memory":
                self.stop()
                return Outcome("memory", partial=partial)
            else:
                raise JobFailed(value)

    def _kill(self) -> None:
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(timeout=5)
            self._process = None

    @property
    def pid(self) -> int | None:
        """The process's id while it runs."""
        return self._process.pid if self._process is not None else None

    def stop(self) -> None:
        """End the process (killed: it may be in the middle of a job)."""
        self._kill()
        if self._replies is not None:
            self._replies.close()
            self._replies = None


@dataclass(eq=False)
class Waiting:
    """A job waiting for a process of its lane: its class, its key and its grant."""

    priority: int
    key: str
    granted: asyncio.Future[WorkerProcess]


class Lane:
    """``size`` worker processes at one niceness, given to jobs by class, then round-robin
    over the jobs' keys.

    ``bounds`` caps how many jobs of a class may wait; a job over the cap is refused with
    :class:`Busy` at once (a class without a cap always waits its turn).
    """

    def __init__(self, name: str, size: int, niceness: int, bounds: dict[int, int]) -> None:
        if size < 1:
            raise ValueError(f"the {name} lane needs at least 1 process, not {size}")
        self.name = name
        self.bounds = bounds
        self._readers = ThreadPoolExecutor(size, thread_name_prefix=f"{name}-replies")
        self._idle = [WorkerProcess(niceness, self._readers) for _ in range(size)]
        self._all = list(self._idle)
        #: By class, each key's waiting jobs, the keys in their round-robin order.
        self._waiting: dict[int, OrderedDict[str, deque[Waiting]]] = {}
        #: The jobs of each key waiting or running.
        self._held: Counter[str] = Counter()
        #: Each key's use of the processes: seconds, as of a time (``time.monotonic``).
        self._used: dict[str, tuple[float, float]] = {}
        #: How many jobs this lane has run, by class (what the tests count).
        self.runs: dict[int, int] = {}

    def waiting(self, priority: int) -> int:
        """How many jobs of that class wait for a process."""
        return sum(len(jobs) for jobs in self._waiting.get(priority, {}).values())

    def held(self, key: str) -> int:
        """How many jobs of that key wait for a process or run."""
        return self._held[key]

    def charged(self) -> set[str]:
        """The keys whose jobs have used the lane's processes lately."""
        return set(self._used)

    def full(self, priority: int) -> bool:
        """Whether a job of that class would be refused now."""
        bound = self.bounds.get(priority)
        if bound is None or self._idle:
            return False
        return self.waiting(priority) >= bound

    async def _process(self, priority: int, key: str) -> WorkerProcess:
        if self._idle and not self._waiting:
            return self._idle.pop()
        granted: asyncio.Future[WorkerProcess] = asyncio.get_running_loop().create_future()
        entry = Waiting(priority, key, granted)
        self._waiting.setdefault(priority, OrderedDict()).setdefault(key, deque()).append(entry)
        try:
            return await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():
                self._release(granted.result())
            else:
                self._forget(entry)
            raise

    def _forget(self, entry: Waiting) -> None:
        keys = self._waiting.get(entry.priority, OrderedDict())
        if entry not in keys.get(entry.key, ()):
            return  # already taken from the queue (and skipped: its wait was cancelled)
        keys[entry.key].remove(entry)
        if not keys[entry.key]:
            del keys[entry.key]
        if not keys:
            del self._waiting[entry.priority]

    def used(self, key: str) -> float:
        """The seconds the key's jobs used the lane's processes, halved every
        :data:`USAGE_HALF_LIFE` seconds since."""
        seconds, at = self._used.get(key, (0.0, 0.0))
        return seconds * math.pow(0.5, (time.monotonic() - at) / USAGE_HALF_LIFE)

    def _charge(self, key: str, seconds: float) -> None:
        self._used[key] = (self.used(key) + seconds, time.monotonic())
        if len(self._used) > USAGE_KEYS:
            for old in [name for name in self._used if self.used(name) < 0.01]:
                del self._used[old]

    def _next(self) -> Waiting | None:
        """The next waiting job: of the first class, of the key that used the processes
        least lately (the first in turn among equals); that key goes to the end of the
        turns."""
        if not self._waiting:
            return None
        priority = min(self._waiting)
        keys = self._waiting[priority]
        key = min(keys, key=self.used)
        jobs = keys[key]
        entry = jobs.popleft()
        if jobs:
            keys.move_to_end(key)
        else:
            del keys[key]
        if not keys:
            del self._waiting[priority]
        return entry

    def _release(self, worker: WorkerProcess) -> None:
        while (entry := self._next()) is not None:
            if not entry.granted.done():
                entry.granted.set_result(worker)
                return
        self._idle.append(worker)

    async def run(
        self,
        priority: int,
        function: Callable[..., Any],
        arguments: tuple[Any, ...],
        seconds: float | None = None,
        key: str = "",
    ) -> Outcome:
        """Run a job of class ``priority`` for ``key`` when a process is free (lower classes
        first; within a class, each key in turn)."""
        self._held[key] += 1
        try:
            worker = await self._process(priority, key)
            started = time.monotonic()
            try:
                self.runs[priority] = self.runs.get(priority, 0) + 1
                return await worker.call(function, arguments, seconds)
            finally:
                self._charge(key, time.monotonic() - started)
                self._release(worker)
        finally:
            self._held[key] -= 1
            if not self._held[key]:
                del self._held[key]

    def pids(self) -> list[int]:
        """The ids of the lane's running processes."""
        return [worker.pid for worker in self._all if worker.pid is not None]

    def close(self) -> None:
        """Stop the lane's processes."""
        for worker in self._all:
            worker.stop()
        self._readers.shutdown(wait=False, cancel_futures=True)
