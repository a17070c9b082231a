from __future__ import annotations

import sys

from observable_harness.cli import main

sys.exit(main())
