"""The scheduler's loop outlives a failed look at its jobs: APScheduler's own loop lets any
exception end its thread, and a dead loop closes no deadline again (seen once in the suite:
a JobLookupError raised by APScheduler's removal of a one-shot job while the server stopped)."""

import threading
from datetime import timezone

from apscheduler.jobstores.base import JobLookupError

from pbem.service.clock_steps import Elapsed, Ticks
from pbem.service.scheduler import _Scheduler


def test_a_look_at_the_jobs_that_raises_does_not_end_the_loop(caplog):
    ticks = Ticks()
    scheduler = _Scheduler(ticks, timezone=timezone.utc)
    looks = []
    real = scheduler._process_jobs

    def failing_once():
        looks.append(1)
        if len(looks) == 1:
            raise JobLookupError("sync")
        return real()

    scheduler._process_jobs = failing_once
    ran = threading.Event()
    scheduler.start()
    try:
        scheduler.add_job(ran.set, Elapsed(ticks, 0), id="after-the-failure")
        assert ran.wait(30), "the job after a failed look never ran"
    finally:
        scheduler.shutdown(wait=True)
    assert len(looks) >= 2
    assert "the scheduler's look at its jobs failed" in caplog.text
