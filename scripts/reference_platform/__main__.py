"""`python3 -m reference_platform` (from scripts/): the same as scripts/reference_platform.py."""

import sys

from .server import main

sys.exit(main())
