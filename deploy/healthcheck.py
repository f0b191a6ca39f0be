"""The image's HEALTHCHECK, for whichever PolicyPal service the container runs (standard library only).

The gateway and the notifier answer ``/healthz``; a worker is healthy while its liveness file
(``POLICYPAL_LIVENESS_FILE``, touched every 5 s by ``policypal.bus.liveness``) is fresh. The service
is read from the container's command (``python -m <service>``, /proc/1/cmdline) unless named.
Usage: ``python /opt/policypal/healthcheck.py [service]``; exit code 0 healthy, 1 not.
"""

import os
import sys
import time
import urllib.request
from pathlib import Path

#: A liveness file older than this means the worker's event loop is stuck (several missed beats).
STALE_SECONDS = 30.0
HTTP_PORTS = {"gateway": ("PORT", "8000"), "notifier": ("POLICYPAL_NOTIFIER_PORT", "8001")}


def container_service(cmdline: Path = Path("/proc/1/cmdline")) -> str:
    """The module of ``python -m <module>`` the container runs, or "" when it runs something else."""
    argv = cmdline.read_bytes().split(b"\0")
    if b"-m" in argv and argv.index(b"-m") + 1 < len(argv):
        return argv[argv.index(b"-m") + 1].decode()
    return ""


def healthy(service: str) -> bool:
    """Whether ``service`` answers /healthz (HTTP services) or keeps touching its liveness file."""
    if service in HTTP_PORTS:
        variable, default = HTTP_PORTS[service]
        url = f"http://127.0.0.1:{os.environ.get(variable, default)}/healthz"
        try:
            with urllib.request.urlopen(url, timeout=3) as response:
                return bool(response.status == 200)
        except OSError:
            return False
    beat = os.environ.get("POLICYPAL_LIVENESS_FILE")
    if not beat:
        return False
    try:
        return time.time() - os.stat(beat).st_mtime <= STALE_SECONDS
    except OSError:
        return False


def main(argv: list[str]) -> int:
    """Exit code of the check: 0 healthy, 1 not."""
    service = argv[0] if argv else container_service()
    if healthy(service):
        return 0
    print(f"{service or 'the service'} is not healthy", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
