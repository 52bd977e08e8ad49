"""Where the status endpoint listens: `HOST:PORT` as the user writes it, whether that is
this machine only (loopback), and the listening socket, bound before anything else starts
so that a taken port is one clear error and nothing is left behind."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass

__all__ = ["HttpAddress", "url_of"]

_LOCALHOST = "localhost"


@dataclass(frozen=True, slots=True)
class HttpAddress:
    """An IP address (or `localhost`) and a port; port 0 lets the system pick one."""

    host: str
    port: int

    @classmethod
    def parse(cls, text: str) -> HttpAddress:
        """`127.0.0.1:8787`, `[::1]:8787` or `localhost:8787`. Raises ValueError saying
        what is wrong. A host name other than localhost is refused: which interface it
        means depends on name resolution, and loopback must be decidable here."""
        host, sep, port_text = text.strip().rpartition(":")
        if not sep or not host or not port_text.isdigit():
            raise ValueError(f"write HOST:PORT, e.g. 127.0.0.1:8787, not {text!r}")
        port = int(port_text)
        if port > 65535:
            raise ValueError(f"port {port} is out of range (0 to 65535)")
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        if host.lower() == _LOCALHOST:
            return cls(_LOCALHOST, port)
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            raise ValueError(
                f"{host!r} is not an IP address; write one (e.g. 127.0.0.1) or localhost"
            ) from None
        return cls(str(ip), port)

    @property
    def loopback(self) -> bool:
        return self.host == _LOCALHOST or ipaddress.ip_address(self.host).is_loopback

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    def bind(self) -> socket.socket:
        """A listening TCP socket on this address (localhost: 127.0.0.1). Raises OSError
        (the address is taken, or not this machine's)."""
        host = "127.0.0.1" if self.host == _LOCALHOST else self.host
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        return socket.create_server((host, self.port), family=family)


def url_of(sock: socket.socket) -> str:
    """The http:// URL a listening socket serves at (its real port when bound to 0)."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
