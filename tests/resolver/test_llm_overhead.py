"""LLM calls per turn and the resolver's own overhead on the LLM path (docs/benchmarks.md, Resolver).

The model is the scripted local server, so the time measured is the resolver's side of each call
(prompt, HTTP, JSON-schema validation) and not a model's thinking: with a real model add its latency
per call. Run with ``-s`` to see the table.
"""

import time

from policypal.llm import LLM
from policypal.state import Question
from resolver.pipeline import Context, Deciders, Plan, advance
from resolver.service import llm_deciders, offline_deciders
from resolver.turn import Turn
from tests.resolver.factories import chat, entry
from tests.resolver.llm_script import documents, intent
from tests.resolver.scenario_set import BY_ID, CATALOG
from tests.support.openai_server import Reply, ScriptedOpenAI

RUNS = 20
RECENT = ("user: @Summarize @KYC Procedure", "assistant: The procedure covers onboarding.")
#: (name, message, explicit action, mentions, registry, the model's replies for one turn)
TURNS: list[tuple[str, str, str | None, tuple[str, ...], dict[str, int], tuple[Reply, ...]]] = [
    ("explicit pure mention", "@Summarize @Our AML Policy", "summarize", ("aml",), {}, ()),
    (
        "explicit, words at the tags",
        "@Compare @GDPR @FSA Conduct Rules on how these two documents treat fines",
        "compare",
        ("gdpr", "fsa"),
        {},
        (),
    ),
    (
        "explicit with free text",
        "@Compare @GDPR @FSA Conduct Rules on fines, as in that policy",
        "compare",
        ("gdpr", "fsa"),
        {"kyc": 1},
        (documents(("kyc",), implicit=True),),
    ),
    (
        "implicit high",
        "Compare them",
        None,
        (),
        {"bn24": 1, "bn25": 1},
        (intent("compare"), documents(("bn24", "bn25"), implicit=True)),
    ),
    (
        "unsure intent, retried",
        "and the privacy one",
        None,
        (),
        {"kyc": 1, "priv": 1},
        (intent("inquire", "medium"), intent("summarize"), documents(("priv",), implicit=True)),
    ),
]


async def _no_status(stage: str, message: str) -> None:
    return None


async def _turn_ms(
    deciders: Deciders, text: str, action: str | None, mentions: tuple[str, ...], registry: dict[str, int]
) -> float:
    event = chat(text, action, mentions)  # type: ignore[arg-type]
    context = Context(CATALOG, [entry(BY_ID[i], t) for i, t in registry.items()], RECENT, year=2026)
    started = time.perf_counter()
    outcome = await advance(Turn.start(event), context, deciders, _no_status)
    elapsed = (time.perf_counter() - started) * 1000
    assert isinstance(outcome, Plan | Question), outcome
    return elapsed


async def test_llm_calls_per_turn_and_overhead(openai_server: ScriptedOpenAI, llm: LLM) -> None:
    offline, online = offline_deciders(), llm_deciders(llm)
    lines = []
    for name, text, action, mentions, registry, replies in TURNS:
        offline_ms = sorted([await _turn_ms(offline, text, action, mentions, registry) for _ in range(RUNS)])
        before = len(openai_server.requests)
        llm_ms: list[float] = []
        for _ in range(RUNS):
            openai_server.enqueue(*replies)
            llm_ms.append(await _turn_ms(online, text, action, mentions, registry))
        llm_ms.sort()
        calls = (len(openai_server.requests) - before) / RUNS
        assert calls == len(replies), name
        assert openai_server.pending == 0
        median_offline, median_llm = offline_ms[RUNS // 2], llm_ms[RUNS // 2]
        lines.append(
            f"  {name:26} calls {calls:.0f}  offline {median_offline:6.2f} ms  llm {median_llm:6.2f} ms  "
            f"overhead {median_llm - median_offline:6.2f} ms"
        )
    print("\nresolver LLM path, median per turn over", RUNS, "runs (scripted local model):")
    print("\n".join(lines))
