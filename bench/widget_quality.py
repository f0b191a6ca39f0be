"""The website widget end to end, offline: answer latency, the semantic cache, and the reviewer's reply.

Starts the whole system (`policypal up` on embedded defaults, no language model), publishes a
customer-service policy to the tenant's widget and, as a widget does (session, event ticket, SSE):

1. asks distinct questions, each from a fresh session: message posted → first answer event (a token,
   or the response when nothing streams) and → the full response, p50/p95;
2. asks 50 questions, 10 topics × 5 wordings (the same words again, other case and punctuation,
   politeness around it, other words): how many are answered from the cache, whether any hit carries
   another topic's answer, and the latency of hits and misses (the rule is measured on labelled
   question pairs in bench/question_pairs.py);
3. hands conversations over to a person and replies through the inbox API: reply posted → the reply
   arrives on the customer's event stream, p50/p95 (goal ≤ 1 s p95).

    .venv/bin/python -m bench.widget_quality [--handovers 20]
"""

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from policypal.auth import issue_token
from tests.e2e.system import RunningSystem, policypal_up
from tests.pdf_factory import make_pdf

TENANT = "benchshop"
ORIGIN = "http://shop.example.com"
PAGES = [
    "Returns and refunds.\nUnworn shoes may be returned within 30 days of delivery for a full refund. "
    "Refunds are paid to the original payment method within 5 working days of receiving the return. "
    "Sale items can be exchanged but not refunded. Gift cards cannot be returned or exchanged.",
    "Delivery.\nStandard delivery takes 3 to 5 working days and is free for orders above 50 euros. "
    "Express delivery arrives the next working day when ordered before 2 pm and costs 9 euros. "
    "We deliver to all countries of the European Union, Norway and Switzerland.",
    "Accounts and privacy.\nCustomers can delete their account at any time from the account settings page. "
    "Order records are kept for 10 years because tax law requires it. "
    "We never sell customer data; payment details are stored by our payment provider, not by us.",
    "Warranty.\nAll shoes carry a two year warranty against manufacturing defects. "
    "Damage from normal wear and tear is not covered. To claim, send a photo of the defect with the order number.",
]
TOPICS = [
    "How many days do I have to return unworn shoes?",
    "How long does a refund take?",
    "Can sale items be refunded?",
    "Can gift cards be returned?",
    "How long does standard delivery take?",
    "How much does express delivery cost?",
    "Which countries do you deliver to?",
    "How long are order records kept?",
    "Do you sell customer data?",
    "How long is the warranty on shoes?",
]
PARAPHRASES = [
    "Within how many days may unworn shoes be sent back?",
    "How quickly is a refund paid?",
    "Are sale items refundable?",
    "Is it possible to return a gift card?",
    "What is the delivery time for standard shipping?",
    "What is the price of express delivery?",
    "Where do you ship to?",
    "For how long do you keep order records?",
    "Is customer data sold to anyone?",
    "What warranty do shoes have?",
]
COLD = [
    "Is delivery free for large orders?",
    "How do I claim under the warranty?",
    "Where are payment details stored?",
    "Can I delete my account?",
    "Is wear and tear covered by the warranty?",
    "When must I order to get next day delivery?",
    "Can I exchange sale items?",
    "How are refunds paid?",
]


def wordings(topic: str, paraphrase: str) -> list[str]:
    """Five ways a customer asks ``topic``: again, other case and punctuation, politely, other words."""
    return [
        topic,
        topic.lower().rstrip("?") + " ?",
        topic,
        f"Hi, {topic[0].lower()}{topic[1:]} Thanks!",
        paraphrase,
    ]


@dataclass
class Timed:
    """One customer question: seconds to the first answer event and to the response, and the response."""

    first: float
    full: float
    response: dict[str, Any]


class Customer:
    """A widget visitor: a session, its event stream, its messages."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self._http = http
        self.session: dict[str, Any] = {}
        self.events: asyncio.Queue[tuple[str, dict[str, Any], float]] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Handshake, then follow the conversation's events (a ticket opens the stream once)."""
        response = await self._http.post(
            "/v1/widget/sessions", json={"tenant_id": TENANT}, headers={"Origin": ORIGIN}
        )
        response.raise_for_status()
        self.session = response.json()
        ticket = await self._http.post(self.session["event_tickets_url"], headers=self.headers)
        ticket.raise_for_status()
        opened = asyncio.Event()
        self._reader = asyncio.create_task(self._read(ticket.json()["events_url"], opened))
        await asyncio.wait_for(opened.wait(), 30)

    @property
    def headers(self) -> dict[str, str]:
        """The visitor's credential."""
        return {"Authorization": f"Bearer {self.session['token']}"}

    async def _read(self, url: str, opened: asyncio.Event) -> None:
        async with self._http.stream("GET", url, timeout=None) as stream:
            opened.set()
            kind = ""
            async for line in stream.aiter_lines():
                if line.startswith("event:"):
                    kind = line[6:].strip()
                elif line.startswith("data:") and kind:
                    self.events.put_nowait((kind, json.loads(line[5:]), time.perf_counter()))

    async def ask(self, text: str) -> Timed:
        """Post ``text``; time the first answer event and the terminal one."""
        started = time.perf_counter()
        posted = await self._http.post(
            self.session["messages_url"], headers=self.headers, json={"text": text}
        )
        posted.raise_for_status()
        request_id = posted.json()["request_id"]
        first: float | None = None
        while True:
            kind, event, at = await asyncio.wait_for(self.events.get(), 120)
            if event.get("request_id") != request_id:
                continue
            if kind in ("token", "response", "escalation", "error") and first is None:
                first = at - started
            if kind in ("response", "escalation", "error", "interrupt"):
                return Timed(first or at - started, at - started, {"type": kind, **event})

    async def close(self) -> None:
        """Stop following the stream."""
        if self._reader is not None:
            self._reader.cancel()


def _outcome(timed: Timed) -> str:
    if timed.response["type"] != "response":
        return "P"
    return "H" if timed.response.get("cached") else "m"


def percentiles(values: list[float]) -> str:
    """p50 / p95 in milliseconds."""
    if len(values) < 2:
        return f"{values[0] * 1000:.0f} ms" if values else "n/a"
    cuts = statistics.quantiles(values, n=20)
    return f"p50 {statistics.median(values) * 1000:.0f} ms, p95 {cuts[18] * 1000:.0f} ms"


async def prepare(system: RunningSystem, http: httpx.AsyncClient) -> dict[str, str]:
    """Allow the shop's origin, publish the policy; the administrator's credential."""
    token = issue_token(system.settings, TENANT, "bench-admin", role="admin")
    admin = {"Authorization": f"Bearer {token}"}
    # One benchmark client opens every session: the per-address and per-tenant budgets are raised.
    limits = {"widget_sessions_per_window": 100_000, "widget_sessions_per_address": 100_000}
    settings = {
        "allowed_domains": ["shop.example.com"],
        "widget": {"confidence_threshold": 0.38},
        "limits": limits,
    }
    (await http.put("/v1/admin/tenant", headers=admin, json=settings)).raise_for_status()
    response = await http.post(
        "/v1/documents",
        headers=admin,
        data={"title": "Customer Service Policy", "version": "2026", "doc_type": "policy"},
        files={"file": ("service.pdf", make_pdf(PAGES, title="Customer Service Policy"), "application/pdf")},
    )
    response.raise_for_status()
    document_id = response.json()["document_id"]
    for _ in range(1200):
        if (await http.get(f"/v1/documents/{document_id}", headers=admin)).json()["status"] == "ready":
            break
        await asyncio.sleep(0.5)
    else:
        raise SystemExit("the policy was not ingested within 10 minutes")
    published = await http.post(
        "/v1/admin/widget/publications", headers=admin, json={"document_id": document_id}
    )
    published.raise_for_status()
    return admin


async def measure(system: RunningSystem, handovers: int) -> None:
    """The three measurements, printed."""
    async with httpx.AsyncClient(base_url=system.api_url, timeout=60) as http:
        await prepare(system, http)
        cold: list[Timed] = []
        for question in COLD:
            customer = Customer(http)
            await customer.open()
            cold.append(await customer.ask(question))
            await customer.close()
        answered = [t for t in cold if t.response["type"] == "response"]
        print(
            f"cold questions: {len(answered)}/{len(cold)} answered, {len(cold) - len(answered)} handed over"
        )
        print(f"  message -> first answer event: {percentiles([t.first for t in cold])}")
        print(f"  message -> full answer:        {percentiles([t.full for t in cold])}")

        customer = Customer(http)
        await customer.open()
        repeated: list[Timed] = []
        outcomes: list[str] = []
        for topic, paraphrase in zip(TOPICS, PARAPHRASES, strict=True):
            per_topic = [await customer.ask(text) for text in wordings(topic, paraphrase)]
            repeated.extend(per_topic)
            outcomes.append("".join(_outcome(t) for t in per_topic))
        await customer.close()
        # A hit must carry its own topic's answer: the first wording of each topic is answered anew.
        wrong = [
            t
            for n, t in enumerate(repeated)
            if t.response.get("cached")
            and t.response.get("answer") != repeated[n - n % 5].response.get("answer")
        ]
        hits = [t for t in repeated if t.response.get("cached")]
        misses = [t for t in repeated if not t.response.get("cached")]
        print(
            f"repeated questions: {len(hits)}/{len(repeated)} from the cache ({len(hits) / len(repeated):.0%})"
        )
        print(f"  per topic (H hit, m answered anew, P handed to a person): {' '.join(outcomes)}")
        print(f"  hits answered with another topic's answer: {len(wrong)}")
        print(f"  cache hits:   {percentiles([t.full for t in hits])}")
        print(f"  cache misses: {percentiles([t.full for t in misses])}")

        reviewer_token = issue_token(system.settings, TENANT, "bench-reviewer", role="reviewer")
        reviewer = {"Authorization": f"Bearer {reviewer_token}"}
        delays: list[float] = []
        for n in range(handovers):
            customer = Customer(http)
            await customer.open()
            handed = await customer.ask("I need to talk to a human")
            ticket_id = handed.response["escalation_id"]
            sent = time.perf_counter()
            reply = await http.post(
                f"/v1/inbox/tickets/{ticket_id}/reply", headers=reviewer, json={"answer": f"Reply {n}"}
            )
            reply.raise_for_status()
            while True:
                kind, event, at = await asyncio.wait_for(customer.events.get(), 30)
                if kind == "response" and event.get("answered_by") == "reviewer":
                    delays.append(at - sent)
                    break
            await customer.close()
        print(f"reviewer reply -> customer's stream ({handovers}): {percentiles(delays)}")


def main() -> None:
    """Run the benchmark against a fresh system in a temporary directory."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--handovers", type=int, default=20)
    args = parser.parse_args()
    budgets = {"POLICYPAL_WIDGET_REQUESTS_PER_TENANT": "100000"}
    with (
        tempfile.TemporaryDirectory() as scratch,
        policypal_up(Path(scratch) / "data", extra_env=budgets) as system,
    ):
        asyncio.run(measure(system, args.handovers))


if __name__ == "__main__":
    main()
