"""Policies: the ``Policy`` interface, scripted search, the numpy actor network and the agents built on it,
and shortlists of candidate actions. Imports only ``fiesta_envs.files`` and ``fiesta_envs.core``."""
