# One image for every PolicyPal service; the command picks the service (python -m <service>).
#
# Supply chain: the base image is pinned by digest (refresh it with the digest of a newer
# python:3.11-slim, e.g. `docker buildx imagetools inspect python:3.11-slim`); every third-party
# package comes from requirements/runtime.lock and the build backend from requirements/build.lock,
# both installed with --require-hashes (`make runtime-lock` regenerates them). The runtime stage holds
# the services and their libraries only: no compiler, no build backend, no CLI, no embedded
# nats-server or Valkey (libs/devstack), no test tool.
ARG PYTHON_IMAGE=python:3.11-slim@sha256:9c900dea9e8fb7e16277c179b555cc72d29a352dbc33cff48ad5a0412fd5bfc7

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
WORKDIR /src
COPY requirements/build.lock requirements/runtime.lock requirements/
RUN python -m venv /opt/build \
 && /opt/build/bin/pip install --require-hashes --no-deps -r requirements/build.lock \
 && python -m venv /opt/policypal \
 && /opt/policypal/bin/pip install --require-hashes --no-deps -r requirements/runtime.lock
COPY libs/ libs/
COPY services/ services/
# PolicyPal's own packages, built from this tree with the hashed build backend (no build isolation:
# nothing is fetched), installed without dependencies: the lock above holds them all.
RUN /opt/build/bin/pip wheel --no-deps --no-build-isolation --wheel-dir /wheels \
      libs/contracts libs/filetypes libs/config libs/telemetry libs/bus libs/state libs/vectorstore \
      libs/rules libs/embeddings libs/llm libs/auth \
      services/gateway services/ingestor services/resolver services/actions services/notifier \
 && /opt/policypal/bin/pip install --no-deps /wheels/*.whl \
 && /opt/policypal/bin/pip check

FROM ${PYTHON_IMAGE} AS runtime
ENV PATH=/opt/policypal/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    HOME=/tmp \
    POLICYPAL_DATA_DIR=/data \
    POLICYPAL_LIVENESS_FILE=/tmp/policypal-alive
RUN groupadd --gid 10001 policypal \
 && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /tmp --shell /usr/sbin/nologin policypal \
 && mkdir -p /data && chown 10001:10001 /data
COPY --from=build /opt/policypal /opt/policypal
COPY deploy/healthcheck.py /opt/policypal/healthcheck.py
WORKDIR /data
USER 10001:10001
EXPOSE 8000 8001
# The gateway and the notifier answer /healthz; a worker keeps its liveness file fresh.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["python", "/opt/policypal/healthcheck.py"]
CMD ["python", "-m", "gateway"]
