"""Renders a kustomize directory in Python (no kustomize binary here), for the manifest tests.

Covers what deploy/k8s uses: resources (files and directories), namespace, labels, images,
configMapGenerator (create and merge), secretGenerator and strategic-merge patches. Generated names
keep no hash suffix. A patch that targets no rendered object is an error, as in kustomize.
"""

import base64
import copy
from pathlib import Path
from typing import Any

import yaml

Manifest = dict[str, Any]

#: Kinds that live outside any namespace (none of ours besides these would be).
CLUSTER_SCOPED = {"Namespace", "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition"}


def render(directory: Path) -> list[Manifest]:
    """The manifests ``directory``'s kustomization.yaml produces."""
    spec: Manifest = yaml.safe_load((directory / "kustomization.yaml").read_text())
    manifests: list[Manifest] = []
    for resource in spec.get("resources", []):
        path = directory / resource
        if path.is_dir():
            manifests.extend(render(path))
        else:
            manifests.extend(d for d in yaml.safe_load_all(path.read_text()) if d)
    for generator in spec.get("configMapGenerator", []):
        _generate(manifests, "ConfigMap", generator, encode=False)
    for generator in spec.get("secretGenerator", []):
        _generate(manifests, "Secret", generator, encode=True)
    for patch in spec.get("patches", []):
        for document in yaml.safe_load_all((directory / patch["path"]).read_text()):
            target = find(manifests, document["kind"], document["metadata"]["name"])
            merged = strategic_merge(target, document)
            target.clear()
            target.update(merged)
    for image in spec.get("images", []):
        _set_image(manifests, image)
    for label in spec.get("labels", []):
        for manifest in manifests:
            manifest["metadata"].setdefault("labels", {}).update(label["pairs"])
    if "namespace" in spec:
        for manifest in manifests:
            if manifest["kind"] not in CLUSTER_SCOPED:
                manifest["metadata"]["namespace"] = spec["namespace"]
    return manifests


def find(manifests: list[Manifest], kind: str, name: str) -> Manifest:
    """The one rendered object of ``kind`` named ``name``."""
    found = [m for m in manifests if m["kind"] == kind and m["metadata"]["name"] == name]
    if len(found) != 1:
        raise KeyError(f"{len(found)} objects {kind}/{name}")
    return found[0]


def strategic_merge(base: Any, patch: Any) -> Any:
    """``patch`` merged into ``base``: maps recursively, lists of named maps by name, others replaced."""
    if isinstance(base, dict) and isinstance(patch, dict):
        merged = copy.deepcopy(base)
        for key, value in patch.items():
            merged[key] = strategic_merge(base[key], value) if key in base else copy.deepcopy(value)
        return merged
    if isinstance(base, list) and isinstance(patch, list) and _named(base) and _named(patch):
        merged_list = copy.deepcopy(base)
        for item in patch:
            match = [i for i, old in enumerate(merged_list) if old["name"] == item["name"]]
            if match:
                merged_list[match[0]] = strategic_merge(merged_list[match[0]], item)
            else:
                merged_list.append(copy.deepcopy(item))
        return merged_list
    return copy.deepcopy(patch)


def _named(items: list[Any]) -> bool:
    return all(isinstance(i, dict) and "name" in i for i in items)


def _generate(manifests: list[Manifest], kind: str, generator: Manifest, *, encode: bool) -> None:
    data = dict(literal.split("=", 1) for literal in generator.get("literals", []))
    if encode:
        data = {k: base64.b64encode(v.encode()).decode() for k, v in data.items()}
    if generator.get("behavior", "create") == "merge":
        find(manifests, kind, generator["name"])["data"].update(data)
        return
    manifests.append(
        {"apiVersion": "v1", "kind": kind, "metadata": {"name": generator["name"]}, "data": data}
    )


def _set_image(manifests: list[Manifest], image: Manifest) -> None:
    for manifest in manifests:
        if manifest["kind"] != "Deployment":
            continue
        for container in manifest["spec"]["template"]["spec"]["containers"]:
            name, _, tag = container["image"].partition(":")
            if name == image["name"]:
                container["image"] = f"{image.get('newName', name)}:{image.get('newTag', tag)}"
