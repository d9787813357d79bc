"""Griffe extension (mkdocs.yml, mkdocstrings' ``extensions``): the packages that pyproject.toml's package-dir
installs inside ``fiesta_envs`` from other folders of the repository (``training/`` as ``fiesta_envs.training``)
are attached to ``fiesta_envs`` when it is loaded, so ``::: fiesta_envs.training.train`` finds its module: Griffe
reads a package's folder, where no ``training`` is."""

from __future__ import annotations

from typing import Any

import griffe

#: package name inside fiesta_envs -> the top-level folder it is installed from (pyproject.toml's package-dir)
MAPPED = {"training": "training"}


class MappedPackages(griffe.Extension):
    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.name != "fiesta_envs":
            return
        for name, folder in MAPPED.items():
            module = loader.load(folder, try_relative_path=False)
            if isinstance(module, griffe.Module) and name not in pkg.members:
                module.parent = pkg
                pkg.set_member(name, module)
