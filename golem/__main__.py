import sys

from golem._entry import main

sys.exit(main())
