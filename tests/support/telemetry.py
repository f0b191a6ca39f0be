"""The SDK's own in-memory span exporter and metric reader, installed as this test process's providers.

OpenTelemetry lets a process set its global providers once, so they are installed on first use and
shared; tests clear the spans they look at and compare metric sums before and after.
"""

from functools import cache

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader, MetricsData
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter


@cache
def installed_span_exporter() -> InMemorySpanExporter:
    """The exporter every span of this process ends in (installed on first call)."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    return exporter


@cache
def installed_metric_reader() -> InMemoryMetricReader:
    """The reader of every metric of this process (installed on first call)."""
    reader = InMemoryMetricReader()
    metrics.set_meter_provider(MeterProvider(metric_readers=[reader]))
    return reader


def metric_sum(data: MetricsData | None, name: str, **attributes: str) -> float:
    """The sum (or histogram count) of ``name`` over the points whose attributes include ``attributes``."""
    total = 0.0
    for resource in data.resource_metrics if data else ():
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                if metric.name != name:
                    continue
                for point in metric.data.data_points:
                    if attributes.items() <= dict(point.attributes or {}).items():
                        value = getattr(point, "value", None)
                        total += float(value if value is not None else getattr(point, "count", 0))
    return total


def attribute_values(spans: tuple[ReadableSpan, ...]) -> list[str]:
    """Every attribute and event value of ``spans`` as text, to look for leaked content."""
    values = [str(v) for span in spans for v in (span.attributes or {}).values()]
    values += [str(v) for span in spans for event in span.events for v in (event.attributes or {}).values()]
    values += [span.name for span in spans]
    return values
