"""The scenario classes on the LLM path, against a scripted OpenAI-compatible server over real HTTP.

The scripted model answers each call the way a model that reads its prompt correctly would: the
action asked for (all of them when several), the conversation's documents the message refers to, the
names of documents it cannot place, the candidates of an ambiguous reference. It also makes the
mistake the trials saw: it lists the tagged documents' titles again as names it cannot place. So the
accuracy measures what the resolver does around the model (payload split before the call, tags as
the strongest signal, typed versioned mentions, the absent-document question, version follow-ups) and
how many calls each turn takes, not a real model's judgement (docs/benchmarks.md, Resolver).
"""

from collections import defaultdict
from collections.abc import AsyncIterator

import pytest

from policypal.llm import LLM
from resolver.llm_intent import ACTIONS
from resolver.pipeline import Context, advance
from resolver.service import llm_deciders
from resolver.turn import Turn
from tests.resolver.class_scenarios import (
    CLASS_BY_ID,
    CLASS_CATALOG,
    CLASS_SCENARIOS,
    ClassScenario,
    class_verdict,
)
from tests.resolver.conftest import llm_settings
from tests.resolver.factories import chat
from tests.resolver.llm_script import documents, intent, task_of
from tests.support.openai_server import RecordedRequest, Reply, ScriptedOpenAI

MIN_CLASS_ACCURACY = 0.95


class OracleModel:
    """Answers the resolver's two calls for the scenario in play."""

    def __init__(self) -> None:
        self.scenario: ClassScenario | None = None

    def reply(self, request: RecordedRequest) -> Reply:
        scenario = self.scenario
        assert scenario is not None
        if task_of(request) == "intent":
            actions = tuple(a for o in scenario.options for a in ACTIONS if a == o)
            if scenario.expected == "action_choice":
                return intent(actions[0], actions=actions)
            assert scenario.action is not None
            return intent(scenario.action)
        registry = set(scenario.registry)
        named = [d for d in scenario.documents if d not in scenario.mentions and d not in registry]
        noise = tuple(CLASS_BY_ID[i].title for i in scenario.mentions)
        return documents(
            tuple(d for d in scenario.documents if d in registry and d not in scenario.mentions),
            unresolved=(
                *scenario.absent,
                *(f"{CLASS_BY_ID[i].title} {CLASS_BY_ID[i].version}" for i in named),
                *noise,
            ),
            candidates=scenario.candidates,
            confidence="low" if scenario.absent else "medium" if scenario.candidates else "high",
            implicit=bool(registry),
        )


@pytest.fixture
async def oracle_llm() -> AsyncIterator[tuple[OracleModel, ScriptedOpenAI, LLM]]:
    oracle = OracleModel()
    async with ScriptedOpenAI(reply_for=oracle.reply) as server:
        model = LLM.from_settings(llm_settings(server))
        yield oracle, server, model
        await model.aclose()


async def _no_status(stage: str, message: str) -> None:
    return None


async def test_llm_path_accuracy_per_class(oracle_llm: tuple[OracleModel, ScriptedOpenAI, LLM]) -> None:
    oracle, server, model = oracle_llm
    deciders = llm_deciders(model)
    results: dict[str, list[tuple[str, list[str], int]]] = defaultdict(list)
    for scenario in CLASS_SCENARIOS:
        oracle.scenario = scenario
        before = len(server.requests)
        event = chat(scenario.text, scenario.mention_action, scenario.mentions)
        context = Context(CLASS_CATALOG, scenario.registry_entries(), scenario.recent, year=2026)
        outcome = await advance(Turn.start(event), context, deciders, _no_status)
        results[scenario.klass].append(
            (scenario.name, class_verdict(outcome, scenario), len(server.requests) - before)
        )
    print()
    low: dict[str, float] = {}
    for klass, rows in results.items():
        right = sum(1 for _, problems, _ in rows if not problems)
        calls = sum(c for _, _, c in rows) / len(rows)
        print(f"  {klass}: {right}/{len(rows)} = {right / len(rows):.0%}, {calls:.1f} calls per turn")
        for name, problems, _ in rows:
            if problems:
                print(f"    MISS {name}: {'; '.join(problems)}")
        if right / len(rows) < MIN_CLASS_ACCURACY:
            low[klass] = right / len(rows)
    # At most the two calls of today's resolver per turn (intent, documents), never a third.
    assert all(c <= 2 for rows in results.values() for _, _, c in rows)
    assert not low, low
