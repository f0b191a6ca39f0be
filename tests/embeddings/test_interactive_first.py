"""Bulk batches wait while an interactive embedding is under way, never longer than their bound."""

import threading
import time

from policypal.embeddings.interactive_first import InteractiveFirst


def _bulk_in_thread(priority: InteractiveFirst) -> tuple[threading.Thread, threading.Event]:
    started = threading.Event()
    done = threading.Event()

    def bulk() -> None:
        started.set()
        priority.before_bulk()
        done.set()

    thread = threading.Thread(target=bulk)
    thread.start()
    started.wait()
    return thread, done


def test_bulk_goes_at_once_when_nothing_interactive_is_under_way() -> None:
    priority = InteractiveFirst(max_wait=5.0)
    started = time.monotonic()
    priority.before_bulk()
    assert time.monotonic() - started < 0.1


def test_bulk_waits_until_the_last_interactive_embedding_ends() -> None:
    priority = InteractiveFirst(max_wait=10.0)
    with priority.interactive():
        with priority.interactive():
            thread, done = _bulk_in_thread(priority)
            assert not done.wait(0.2)
        assert not done.wait(0.2)  # one still under way
    assert done.wait(2)
    thread.join()


def test_a_stream_of_questions_slows_bulk_work_but_never_stops_it() -> None:
    priority = InteractiveFirst(max_wait=0.3)
    with priority.interactive():
        started = time.monotonic()
        thread, done = _bulk_in_thread(priority)
        assert done.wait(5)
        waited = time.monotonic() - started
    thread.join()
    assert 0.25 <= waited < 2
