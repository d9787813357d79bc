"""Files and saving: atomic writes, reading back the files written beside weights, pickling an environment
with its engine as a state dict. Imports only the engine contract (``fiesta_envs.core``)."""
