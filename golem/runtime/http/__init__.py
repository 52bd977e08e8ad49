"""`golem run --http`: a read-only status endpoint for a running golem.

`StatusEndpoint` (endpoint.py) subscribes a `DecisionFeed` (feed.py: recent decisions and
live listeners) and `GolemMetrics` (metrics.py: Prometheus, a registry per golem) to the
golem's record stream, and serves the app (app.py; /events is events.py) with Hypercorn
under trio on the socket an `HttpAddress` (address.py) bound. What /health and /status
say is status.py's; /history is the chronicle's (chronicle.py) and / the dashboard page
(dashboard.py, static/). A finished life's out directory is served by the same app from a
`RecordedLife` (recorded.py).
"""

from golem.runtime.http.address import HttpAddress, url_of
from golem.runtime.http.app import DEFAULT_LIMIT, REASONING_HEADER, Source, status_app
from golem.runtime.http.chronicle import Chronicle, LiveChronicle
from golem.runtime.http.endpoint import LiveSource, StatusEndpoint, serve_app
from golem.runtime.http.events import KEEP_ALIVE_S, DecisionEvents
from golem.runtime.http.feed import LISTENER_BUFFER, RECENT, DecisionEntry, DecisionFeed
from golem.runtime.http.metrics import GolemMetrics
from golem.runtime.http.recorded import RecordedLife

__all__ = [
    "DEFAULT_LIMIT",
    "KEEP_ALIVE_S",
    "LISTENER_BUFFER",
    "REASONING_HEADER",
    "RECENT",
    "Chronicle",
    "DecisionEntry",
    "DecisionEvents",
    "DecisionFeed",
    "GolemMetrics",
    "HttpAddress",
    "LiveChronicle",
    "LiveSource",
    "RecordedLife",
    "Source",
    "StatusEndpoint",
    "serve_app",
    "status_app",
    "url_of",
]
