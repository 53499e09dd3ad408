#!/usr/bin/env python3
"""Starts the reference platform: the package reference_platform/ beside this file
(see its __init__.py for what each module does).  Every caller runs this file:

    python3 scripts/reference_platform.py --fixtures demo
    python3 scripts/reference_platform.py --tls-cert server.pem --tls-key server.key --db state.sqlite
"""

import sys

# The directory of this file is on sys.path, and a package wins over a module of
# the same name, so this imports the package, not this file.
from reference_platform.server import main

if __name__ == "__main__":
    sys.exit(main())
