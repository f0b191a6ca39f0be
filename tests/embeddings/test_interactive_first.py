"""Bulk batches wait while an interactive embedding is under way, never longer than their bound; idle
batches wait until nothing else has used the model for a while."""

import threading
import time
from collections.abc import Callable

from policypal.embeddings.interactive_first import InteractiveFirst


def _in_thread(wait: Callable[[], None]) -> tuple[threading.Thread, threading.Event]:
    """Run ``wait`` in a thread; the event is set once it returned."""
    started = threading.Event()
    done = threading.Event()

    def run() -> None:
        started.set()
        wait()
        done.set()

    thread = threading.Thread(target=run)
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
            thread, done = _in_thread(priority.before_bulk)
            assert not done.wait(0.2)
        assert not done.wait(0.2)  # one still under way
    assert done.wait(2)
    thread.join()


def test_a_stream_of_questions_slows_bulk_work_but_never_stops_it() -> None:
    priority = InteractiveFirst(max_wait=0.3)
    with priority.interactive():
        started = time.monotonic()
        thread, done = _in_thread(priority.before_bulk)
        assert done.wait(5)
        waited = time.monotonic() - started
    thread.join()
    assert 0.25 <= waited < 2


def test_idle_work_goes_at_once_on_a_model_never_used() -> None:
    priority = InteractiveFirst(quiet=5.0)
    started = time.monotonic()
    priority.before_idle()
    assert time.monotonic() - started < 0.1


def test_idle_work_waits_for_questions_and_bulk_work_and_then_for_quiet() -> None:
    priority = InteractiveFirst(max_wait=0.1, quiet=0.5)
    with priority.interactive():
        thread, done = _in_thread(priority.before_idle)
        with priority.bulk():
            assert not done.wait(0.3)
        # However long a question takes, idle work never goes beside it (no bound, unlike bulk work).
        assert not done.wait(0.3)
    ended = time.monotonic()
    assert done.wait(5)
    thread.join()
    # Then it waits for the model to have been quiet for a while.
    assert time.monotonic() - ended >= 0.45


def test_idle_work_waits_while_bulk_batches_follow_one_another() -> None:
    priority = InteractiveFirst(quiet=0.4)
    with priority.bulk():
        time.sleep(0.05)
    thread, done = _in_thread(priority.before_idle)
    for _ in range(4):
        time.sleep(0.1)  # the gap between two batches is shorter than ``quiet``
        assert not done.is_set()
        with priority.bulk():
            time.sleep(0.05)
    assert done.wait(5)
    thread.join()


def test_one_idle_batch_runs_at_a_time_whatever_the_number_of_idle_twins() -> None:
    priority = InteractiveFirst(quiet=0.0)
    running = 0
    most = 0
    lock = threading.Lock()

    def idle_batch() -> None:
        nonlocal running, most
        with priority.idle():
            with lock:
                running += 1
                most = max(most, running)
            time.sleep(0.05)
            with lock:
                running -= 1

    threads = [threading.Thread(target=idle_batch) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert most == 1
