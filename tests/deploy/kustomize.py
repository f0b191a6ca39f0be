"""Renders a kustomize directory with the real kustomize built into kubectl (``kubectl kustomize``),
for the manifest tests.

kubectl comes with the machine (Debian's kubectl package ships kustomize v5). Generated ConfigMaps
and Secrets carry kustomize's content-hash suffix, as in a cluster; ``find`` looks them up by the
name the kustomization gives them.
"""

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

Manifest = dict[str, Any]

#: Kinds kustomize generates with a content-hash suffix.
HASHED_KINDS = frozenset({"ConfigMap", "Secret"})


class KustomizeError(Exception):
    """kustomize refused the directory; the message is its own."""


def kubectl() -> str:
    """The kubectl binary (with kustomize built in)."""
    found = shutil.which("kubectl")
    if found is None:
        raise FileNotFoundError("kubectl not found: apt-get install kubectl (it ships kustomize)")
    return found


def render(directory: Path) -> list[Manifest]:
    """The manifests ``directory``'s kustomization.yaml produces, as ``kubectl kustomize`` prints them."""
    done = subprocess.run(
        [kubectl(), "kustomize", str(directory)], capture_output=True, text=True, timeout=60, check=False
    )
    if done.returncode != 0:
        raise KustomizeError(done.stderr.strip())
    return [document for document in yaml.safe_load_all(done.stdout) if document]


def generated_name(manifest: Manifest) -> str:
    """The name a kustomization gave ``manifest`` (without the hash suffix of a generated object)."""
    name: str = manifest["metadata"]["name"]
    if manifest["kind"] in HASHED_KINDS:
        return re.sub(r"-[a-z0-9]{10}$", "", name)
    return name


def find(manifests: list[Manifest], kind: str, name: str) -> Manifest:
    """The one rendered object of ``kind`` named ``name`` (a generated one: before its hash suffix)."""
    found = [m for m in manifests if m["kind"] == kind and name in (m["metadata"]["name"], generated_name(m))]
    if len(found) != 1:
        raise KeyError(f"{len(found)} objects {kind}/{name}")
    return found[0]
