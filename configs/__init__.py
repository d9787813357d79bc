"""The training configs shipped with fiesta_envs (installed as ``fiesta_envs.configs``): list them with
``fiesta configs``, train one with ``fiesta train --config NAME``."""
