"""The deterministic resolver on the scenario classes: accuracy per class and time per turn.

Prints one line per class (docs/benchmarks.md, Resolver: scenario classes); each class must reach
95 %, and the offline path must stay under 5 ms a turn (median over the classes' turns).
"""

import statistics
import time
from collections import defaultdict

from resolver.pipeline import Context, advance
from resolver.service import offline_deciders
from resolver.turn import Turn
from tests.resolver.class_scenarios import CLASS_CATALOG, CLASS_SCENARIOS, ClassScenario, class_verdict
from tests.resolver.factories import chat

MIN_CLASS_ACCURACY = 0.95
MAX_MEDIAN_MS = 5.0


async def _no_status(stage: str, message: str) -> None:
    return None


async def _run(scenario: ClassScenario) -> tuple[list[str], float]:
    event = chat(scenario.text, scenario.mention_action, scenario.mentions)
    context = Context(CLASS_CATALOG, scenario.registry_entries(), scenario.recent, year=2026)
    started = time.perf_counter()
    outcome = await advance(Turn.start(event), context, offline_deciders(), _no_status)
    elapsed = (time.perf_counter() - started) * 1000
    return class_verdict(outcome, scenario), elapsed


async def test_offline_accuracy_per_class_and_time_per_turn() -> None:
    by_class: dict[str, list[tuple[str, list[str]]]] = defaultdict(list)
    times: list[float] = []
    for scenario in CLASS_SCENARIOS:
        problems, _ = await _run(scenario)
        by_class[scenario.klass].append((scenario.name, problems))
    # Timed on a second pass: a running resolver has its patterns compiled already.
    for _ in range(3):
        for scenario in CLASS_SCENARIOS:
            times.append((await _run(scenario))[1])
    print()
    low: dict[str, float] = {}
    for klass, results in by_class.items():
        right = sum(1 for _, problems in results if not problems)
        accuracy = right / len(results)
        print(f"  {klass}: {right}/{len(results)} = {accuracy:.0%}")
        for name, problems in results:
            if problems:
                print(f"    MISS {name}: {'; '.join(problems)}")
        if accuracy < MIN_CLASS_ACCURACY:
            low[klass] = accuracy
    median = statistics.median(times)
    p95 = statistics.quantiles(times, n=20)[-1]
    print(f"  time per turn: median {median:.2f} ms, p95 {p95:.2f} ms over {len(times)} turns")
    assert all(len(results) >= 5 for results in by_class.values())
    assert not low, low
    assert median < MAX_MEDIAN_MS
