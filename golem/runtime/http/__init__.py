"""`golem run --http`: a read-only status endpoint for a running golem.

`StatusEndpoint` (endpoint.py) subscribes a `DecisionFeed` (feed.py: recent decisions and
live listeners) and `GolemMetrics` (metrics.py: Prometheus, a registry per golem) to the
golem's record stream, and serves the app (app.py; /events is events.py) with Hypercorn
under trio on the socket an `HttpAddress` (address.py) bound. What /health and /status
say is status.py's.
"""

from golem.runtime.http.address import HttpAddress, url_of
from golem.runtime.http.app import DEFAULT_LIMIT, REASONING_HEADER
from golem.runtime.http.endpoint import StatusEndpoint
from golem.runtime.http.events import KEEP_ALIVE_S, DecisionEvents
from golem.runtime.http.feed import LISTENER_BUFFER, RECENT, DecisionEntry, DecisionFeed
from golem.runtime.http.metrics import GolemMetrics

__all__ = [
    "DEFAULT_LIMIT",
    "KEEP_ALIVE_S",
    "LISTENER_BUFFER",
    "REASONING_HEADER",
    "RECENT",
    "DecisionEntry",
    "DecisionEvents",
    "DecisionFeed",
    "GolemMetrics",
    "HttpAddress",
    "StatusEndpoint",
    "url_of",
]
