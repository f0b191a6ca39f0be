"""Who may open local (embedded) Qdrant: only the process the embedded launcher gave it to.

Local Qdrant is a directory one process opens. A worker started by hand without ``QDRANT_URL``
would open a directory of its own, empty, join the shared consumers and answer from nothing,
silently wrong. So a worker only opens local Qdrant when the launcher (``policypal up``) named
that very directory as the one it owns, through ``POLICYPAL_QDRANT_LOCAL_OWNER``.
"""

from policypal.config import Settings


class UnownedLocalIndexError(RuntimeError):
    """A worker without ``QDRANT_URL`` was not started by the embedded launcher that owns local Qdrant."""


def require_index_owner(settings: Settings) -> None:
    """Raise ``UnownedLocalIndexError`` unless ``QDRANT_URL`` is set or the launcher owns the local index."""
    if settings.qdrant_url:
        return
    path = settings.qdrant_local_path.resolve()
    owner = settings.qdrant_local_owner
    if owner is not None and owner.resolve() == path:
        return
    raise UnownedLocalIndexError(
        f"QDRANT_URL is not set, so this worker would open a local Qdrant index of its own at {path}, "
        "which no other worker writes to: its searches would find nothing. Set QDRANT_URL to the "
        "shared Qdrant server, or start PolicyPal with `policypal up`, whose worker process owns the "
        "local index."
    )
