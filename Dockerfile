# One image for every PolicyPal service; the command picks the service (python -m <service>).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 POLICYPAL_DATA_DIR=/data
WORKDIR /app
COPY requirements/ requirements/
COPY libs/ libs/
COPY services/ services/
RUN pip install --no-cache-dir -c requirements/constraints.txt \
      ./libs/contracts ./libs/config ./libs/telemetry ./libs/bus ./libs/state ./libs/vectorstore ./libs/rules \
      ./libs/embeddings ./libs/auth ./libs/devstack ./libs/cli \
      ./services/gateway ./services/ingestor ./services/resolver ./services/actions ./services/notifier
RUN useradd --create-home --uid 10001 policypal && mkdir -p /data && chown policypal /data
USER policypal
EXPOSE 8000 8001
CMD ["python", "-m", "gateway"]
