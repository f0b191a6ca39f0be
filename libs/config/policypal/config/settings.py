"""Settings read from the environment (and an optional ``.env``), validated once at start-up.

Well-known variables keep their usual names (``NATS_URL``, ``REDIS_URL``, ``QDRANT_URL``, ``PORT``,
``OPENAI_*``); PolicyPal's own carry the ``POLICYPAL_`` prefix.
"""

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, SecretStr, ValidationError, model_validator
from pydantic_core import to_json
from pydantic_settings import BaseSettings, SettingsConfigDict

#: Accepted only in development and test: anywhere else a real secret must be configured.
DEV_JWT_SECRET = "policypal-dev-secret-change-me-0123456789"

#: What a language model is used for; each maps to a model tier (docs/product.md, Model map).
LLMTask = Literal[
    "summarize",
    "inquire",
    "compare_focused",
    "compare_holistic",
    "audit",
    "query_rewrite",
    "intent",
    "doc_resolution",
    # Naming 3-5 themes from sampled passages (policy-mode audit, holistic compare): a light call.
    "themes",
]
#: How structured outputs are asked for: ``auto`` tries OpenAI's ``json_schema`` response format and
#: falls back to ``json_object`` (the schema stated in the system prompt) for a server that rejects it.
StructuredMode = Literal["auto", "json_schema", "json_object"]
#: The OTLP transports the exporters speak (OpenTelemetry's OTEL_EXPORTER_OTLP_PROTOCOL values).
OtlpProtocol = Literal["http/protobuf", "grpc"]
#: High-stakes tasks (legal risk, multi-theme synthesis) get the large model; the rest the small one.
LARGE_MODEL_TASKS: frozenset[LLMTask] = frozenset({"audit", "compare_holistic"})


#: The JetStream streams whose limits can be set (policypal.contracts.streams).
StreamName = Literal["DOCS", "CHAT", "ACTIONS", "EVENTS", "DLQ"]


class StreamLimits(BaseModel):
    """One stream's limits that differ from the defaults (docs/adr/0017-stream-replicas-and-limits.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    replicas: int | None = Field(default=None, ge=1, le=5, description="Default: stream_replicas.")
    max_bytes: int | None = Field(default=None, gt=0, description="Size cap of the stream.")
    max_age_seconds: int | None = Field(default=None, ge=0, description="0: kept until the size cap.")


#: Credentials that may instead be read from the file named by ``<VARIABLE>_FILE`` (a mounted Secret).
SECRET_FILE_FIELDS = (
    "jwt_secret",
    "nats_password",
    "redis_url",
    "qdrant_api_key",
    "openai_api_key",
    "tavily_api_key",
)


def _env(name: str) -> AliasChoices:
    return AliasChoices(name, f"POLICYPAL_{name}")


class Settings(BaseSettings):
    """Everything a PolicyPal process can be told from outside."""

    model_config = SettingsConfigDict(env_prefix="POLICYPAL_", env_file=".env", extra="ignore")

    environment: Literal["development", "test", "production"] = "development"
    data_dir: Path = Field(default=Path(".policypal"), description="Embedded stores live here.")

    nats_url: str | None = Field(default=None, validation_alias=_env("NATS_URL"))
    nats_user: str | None = Field(
        default=None,
        validation_alias=_env("NATS_USER"),
        description="This service's NATS user (docs/adr/0007).",
    )
    nats_password: SecretStr | None = Field(default=None, validation_alias=_env("NATS_PASSWORD"))
    redis_url: str | None = Field(default=None, validation_alias=_env("REDIS_URL"))
    qdrant_url: str | None = Field(default=None, validation_alias=_env("QDRANT_URL"))
    qdrant_api_key: SecretStr | None = Field(default=None, validation_alias=_env("QDRANT_API_KEY"))
    qdrant_path: Path | None = Field(
        default=None, description="Local (embedded) Qdrant directory; default <data_dir>/qdrant."
    )

    host: str = "127.0.0.1"
    port: int = Field(default=8000, validation_alias=_env("PORT"), description="Gateway HTTP port.")
    notifier_port: int = Field(default=8001, description="Notifier (SSE) HTTP port.")
    public_events_url: str | None = Field(
        default=None, description="Base URL of the notifier as clients see it; default http://host:port."
    )
    public_api_url: str | None = Field(
        default=None,
        description="Base URL of the gateway (and its web console) as browsers see it; default http://host:port.",
    )

    jwt_secret: SecretStr = Field(default=SecretStr(DEV_JWT_SECRET), min_length=32)
    jwt_issuer: str = "policypal"
    jwt_audience: str = "policypal"
    token_ttl_seconds: int = Field(default=12 * 3600, gt=0)
    jwt_jwks_url: str | None = Field(
        default=None, description="Also accept RS256 tokens signed by a key of this JWKS URL."
    )
    jwt_jwks_cache_seconds: int = Field(default=300, gt=0, description="How long JWKS keys are cached.")
    widget_session_ttl_seconds: int = Field(default=3600, gt=0, description="Lifetime of a widget session.")
    widget_sessions_per_tenant: int = Field(
        default=300, gt=0, description="Widget sessions a tenant's visitors may open per rate-limit window."
    )
    widget_sessions_per_address: int = Field(
        default=20, gt=0, description="Widget sessions one client address may open per tenant and window."
    )
    widget_requests_per_tenant: int = Field(
        default=1200,
        gt=0,
        description="Requests of all a tenant's widget visitors per window (apart from its users' budget).",
    )
    event_ticket_ttl_seconds: int = Field(
        default=60, gt=0, le=600, description="Lifetime of a single-use ticket that opens an event stream."
    )
    rate_limit_window_seconds: int = Field(default=60, gt=0)
    rate_limit_tenant_requests: int = Field(default=1200, gt=0, description="Per tenant and window.")
    rate_limit_principal_requests: int = Field(
        default=300, gt=0, description="Per user, API key or widget session and window."
    )

    max_upload_bytes: int = Field(default=50 * 1024 * 1024, gt=0)
    max_pages: int = Field(default=2000, gt=0, description="A PDF with more pages fails (too_many_pages).")
    ingest_concurrency: int = Field(
        default=4, ge=1, le=16, description="Documents one ingestor process works on at once (taking turns)."
    )
    ingest_work_slots: int = Field(
        default=1, ge=1, le=16, description="Parse or embed steps one ingestor process runs at the same time."
    )
    max_text_chars: int = Field(
        default=8_000_000, gt=0, description="A document with more extracted text fails (too_much_text)."
    )
    max_chunks: int = Field(
        default=10_000, gt=0, description="A document cut into more passages fails (too_much_text)."
    )
    max_page_chars: int = Field(
        default=100_000, gt=0, description="A PDF page holding more text than this fails (too_much_text)."
    )
    qdrant_local_owner: Path | None = Field(
        default=None,
        description="Set by the embedded launcher: the local Qdrant directory this process owns. A worker "
        "without QDRANT_URL refuses to start unless it is set to its own directory.",
    )
    max_unpacked_bytes: int = Field(
        default=256 * 1024 * 1024, gt=0, description="A DOCX that would unpack to more fails (bomb)."
    )
    chunk_size: int = Field(default=1000, ge=200)
    chunk_overlap: int = Field(default=150, ge=0)
    embed_batch_size: int = Field(default=8, ge=1, le=256)
    embedding_model: str | None = Field(
        default=None,
        description="OpenAI embedding model (e.g. text-embedding-3-small); unset: offline MiniLM.",
    )
    embedding_dimensions: int | None = Field(
        default=None, gt=0, description="Vector size of embedding_model."
    )
    openai_embed_batch_size: int = Field(default=128, ge=1, le=2048)

    openai_api_key: SecretStr | None = Field(default=None, validation_alias=AliasChoices("OPENAI_API_KEY"))
    openai_base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("OPENAI_BASE_URL"),
        description="Any OpenAI-compatible API.",
    )
    llm_large_model: str = Field(default="gpt-4o", description="Model of audit and holistic compare.")
    llm_small_model: str = Field(default="gpt-4o-mini", description="Model of every other task.")
    llm_temperature: float = Field(default=0.1, ge=0.0, le=2.0)
    llm_timeout_seconds: float = Field(
        default=60.0, gt=0, description="Per request (per chunk when streaming)."
    )
    llm_max_retries: int = Field(
        default=2, ge=0, description="Retries on 429, 5xx and timeouts, with back-off."
    )
    llm_structured_mode: StructuredMode = Field(
        default="auto",
        description="json_schema, json_object, or auto: json_schema until the server rejects it.",
    )

    tavily_api_key: SecretStr | None = Field(
        default=None, validation_alias=_env("TAVILY_API_KEY"), description="Enables web search (Tavily)."
    )
    tavily_base_url: str | None = Field(
        default=None, validation_alias=_env("TAVILY_BASE_URL"), description="Another Tavily-compatible API."
    )
    prepare_unit_vectors: bool = Field(
        default=True,
        description="Embed each ready document's sentences ahead of questions, when the model is idle "
        "(answers then read their vectors instead of embedding them).",
    )
    web_search_max_results: int = Field(default=5, ge=1, le=20)
    web_search_timeout_seconds: float = Field(default=15.0, gt=0)

    max_deliver: int = Field(default=5, ge=1, description="Deliveries of a message before dead-lettering.")
    chat_deadline_seconds: float = Field(
        default=180.0, gt=0, description="A chat request not ended by then ends with a deadline error."
    )
    deadline_check_seconds: float = Field(
        default=1.0, gt=0, description="How often expired requests are looked for."
    )
    ack_wait_seconds: float = Field(default=60.0, gt=0)
    startup_seconds: float = Field(
        default=7.0,
        gt=0,
        description="How long a service tries to reach NATS, Redis and Qdrant, counted from the start of "
        "its process (imports and the embedding model included), before it exits saying why.",
    )
    liveness_file: Path | None = Field(
        default=None,
        description="A worker touches this file every few seconds while it serves (a liveness probe "
        "checks its age); unset: none.",
    )
    graceful_timeout_seconds: float = Field(
        default=45.0, gt=0, description="How long a stopping worker lets in-flight messages finish."
    )

    stream_replicas: int = Field(
        default=1,
        ge=1,
        le=5,
        description="Replicas of every JetStream stream and of the document bucket: 1 embedded, 3 on a "
        "3-node cluster. Applied on start, also to existing streams.",
    )
    stream_limits: dict[StreamName, StreamLimits] = Field(
        default_factory=dict,
        description='Per-stream overrides as JSON, e.g. {"EVENTS": {"max_bytes": 4294967296}}.',
    )
    document_ttl_seconds: int | None = Field(
        default=None,
        gt=0,
        description="Uploaded files leave the document bucket after this long; unset: kept.",
    )
    document_store_max_bytes: int | None = Field(
        default=None, gt=0, description="Size cap of the document bucket; unset: none."
    )

    otel_exporter_otlp_endpoint: str | None = Field(
        default=None,
        validation_alias=AliasChoices("OTEL_EXPORTER_OTLP_ENDPOINT"),
        description="The OTLP collector's base URL (http://collector:4318; gRPC: http://collector:4317).",
    )
    otel_exporter_otlp_traces_endpoint: str | None = Field(
        default=None,
        validation_alias=AliasChoices("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
        description="Traces URL used as given; default: the base URL with /v1/traces (HTTP).",
    )
    otel_exporter_otlp_metrics_endpoint: str | None = Field(
        default=None,
        validation_alias=AliasChoices("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"),
        description="Metrics URL used as given; default: the base URL with /v1/metrics (HTTP).",
    )
    otel_exporter_otlp_protocol: OtlpProtocol | None = Field(
        default=None,
        validation_alias=AliasChoices("OTEL_EXPORTER_OTLP_PROTOCOL"),
        description="http/protobuf (default) or grpc.",
    )
    otel_exporter_otlp_traces_protocol: OtlpProtocol | None = Field(
        default=None, validation_alias=AliasChoices("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
    )
    otel_exporter_otlp_metrics_protocol: OtlpProtocol | None = Field(
        default=None, validation_alias=AliasChoices("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL")
    )
    otel_console: bool = Field(default=False, description="Print spans and metrics to stdout (development).")
    log_level: str = "INFO"

    @model_validator(mode="before")
    @classmethod
    def _read_secret_files(cls, data: Any) -> Any:
        """A credential named by ``<VARIABLE>_FILE`` is read from that file (trailing newline dropped)."""
        if not isinstance(data, dict):
            return data
        for name in SECRET_FILE_FIELDS:
            variables = _variables_of(name)
            for variable in variables:
                path = os.environ.get(f"{variable}_FILE")
                if not path:
                    continue
                try:
                    secret = Path(path).read_text(encoding="utf-8").strip()
                except (OSError, UnicodeDecodeError) as exc:
                    reason = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
                    raise ValueError(f"{variable}_FILE: cannot read {path}: {reason}") from None
                if not secret:
                    raise ValueError(f"{variable}_FILE: {path} is empty")
                # The same value in both is no conflict: `policypal up` hands its children what it read.
                given = {str(data[key]) for key in (name, *variables) if key in data}
                if given - {secret}:
                    raise ValueError(f"{variable}_FILE: set either {variable} or {variable}_FILE, not both")
                # Keyed as the environment source keys it: by the first alias, else by the field's name.
                aliased = isinstance(cls.model_fields[name].validation_alias, AliasChoices)
                data = {**data, (variables[0] if aliased else name): secret}
        return data

    @model_validator(mode="after")
    def _refuse_default_secrets(self) -> Self:
        if self.environment == "production" and self.jwt_secret.get_secret_value() == DEV_JWT_SECRET:
            raise ValueError("POLICYPAL_JWT_SECRET must be set to a real secret outside development")
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError("POLICYPAL_CHUNK_OVERLAP must be smaller than POLICYPAL_CHUNK_SIZE")
        return self

    def as_environment(self) -> dict[str, str]:
        """These settings as environment variables, for child processes that must share them."""
        env: dict[str, str] = {}
        for name, field in type(self).model_fields.items():
            value = getattr(self, name)
            if value is None:
                continue
            alias = field.validation_alias
            key = str(alias.choices[0]) if isinstance(alias, AliasChoices) else f"POLICYPAL_{name.upper()}"
            if isinstance(value, dict):
                env[key] = to_json(value, exclude_none=True).decode()
                continue
            env[key] = value.get_secret_value() if isinstance(value, SecretStr) else str(value)
        return env

    @property
    def llm_configured(self) -> bool:
        """True when a language model is reachable (a key or a base URL); otherwise answers are offline."""
        return self.openai_api_key is not None or bool(self.openai_base_url)

    def model_for(self, task: LLMTask) -> str:
        """The model that performs ``task``."""
        return self.llm_large_model if task in LARGE_MODEL_TASKS else self.llm_small_model

    @property
    def qdrant_local_path(self) -> Path:
        """Where embedded Qdrant keeps its files when no QDRANT_URL is set."""
        return self.qdrant_path or self.data_dir / "qdrant"

    @property
    def events_base_url(self) -> str:
        """Base URL of the notifier for links handed to clients."""
        return self.public_events_url or f"http://{self.host}:{self.notifier_port}"

    @property
    def api_base_url(self) -> str:
        """Base URL of the gateway as browsers see it; the notifier admits its origin (the web console)."""
        return self.public_api_url or f"http://{self.host}:{self.port}"


def _variables_of(name: str) -> tuple[str, ...]:
    """The environment variables of the setting ``name``, its usual one first."""
    alias = Settings.model_fields[name].validation_alias
    if isinstance(alias, AliasChoices):
        return tuple(str(choice) for choice in alias.choices)
    return (f"POLICYPAL_{name.upper()}",)


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process's settings, read once. Invalid settings end the process with one line per problem
    (the variable and what is wrong), not a traceback: an operator reads it in the pod's log."""
    try:
        return Settings()
    except ValidationError as exc:
        raise SystemExit(settings_problems(exc)) from None


def settings_problems(error: ValidationError) -> str:
    """What is wrong with the environment, one line per setting, naming its variable."""
    fields = Settings.model_fields
    lines = []
    for problem in error.errors(include_url=False, include_input=False):
        name = str(problem["loc"][0]) if problem["loc"] else ""
        field = fields.get(name)
        alias = field.validation_alias if field is not None else None
        variable = (
            str(alias.choices[0])
            if isinstance(alias, AliasChoices)
            else f"POLICYPAL_{name.upper()}"
            if field is not None
            else name
        )
        lines.append(f"- {variable}: {problem['msg']}" if variable else f"- {problem['msg']}")
    return "PolicyPal cannot start: the settings are invalid.\n" + "\n".join(lines)
