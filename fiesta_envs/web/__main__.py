"""``python -m fiesta_envs.web``: run the web app (see ``fiesta_envs.web.serve``)."""

import sys

from fiesta_envs.web.serve import main

sys.exit(main())
