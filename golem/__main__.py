import sys

from golem.cli import main

sys.exit(main())
