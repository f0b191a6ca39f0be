"""The deterministic resolver on the scenario set: prints its accuracy (docs/benchmarks.md, Resolver)."""

from resolver.pipeline import Context, advance
from resolver.service import offline_deciders
from resolver.turn import Turn
from tests.resolver.acronym_scenarios import ACRONYM_SCENARIOS
from tests.resolver.factories import chat
from tests.resolver.scenario_set import CATALOG, SCENARIOS, verdict

#: The set is deliberately not all easy; the deterministic resolver must keep at least this much.
MIN_ACCURACY = 0.9


async def _no_status(stage: str, message: str) -> None:
    return None


async def test_offline_resolver_accuracy_on_the_scenario_set() -> None:
    failures: dict[str, list[str]] = {}
    scenarios = [*SCENARIOS, *ACRONYM_SCENARIOS]
    for scenario in scenarios:
        event = chat(scenario.text, scenario.mention_action, scenario.mentions)
        context = Context(CATALOG, scenario.registry_entries(), scenario.recent, year=2026)
        outcome = await advance(Turn.start(event), context, offline_deciders(), _no_status)
        problems = verdict(outcome, scenario)
        if problems:
            failures[scenario.name] = problems
    accuracy = 1 - len(failures) / len(scenarios)
    print(
        f"\nresolver (offline) accuracy: {len(scenarios) - len(failures)}/{len(scenarios)} = {accuracy:.0%}"
    )
    acronym_misses = [s.name for s in ACRONYM_SCENARIOS if s.name in failures]
    print(f"  of which acronyms: {len(ACRONYM_SCENARIOS) - len(acronym_misses)}/{len(ACRONYM_SCENARIOS)}")
    for name, problems in failures.items():
        print(f"  MISS {name}: {'; '.join(problems)}")
    assert accuracy >= MIN_ACCURACY, failures
    # The acronym set guards a reported bug ("PEP screening" asked for a "PEP" document): all of it must pass.
    assert not acronym_misses, {name: failures[name] for name in acronym_misses}
