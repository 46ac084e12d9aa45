"""Loopback targets never go through an environment proxy.

``http_proxy``/``HTTP_PROXY``/``all_proxy`` in the environment are meant for the outside
world; our own Tika service and a Solr on 127.0.0.0/8, ``::1`` or ``localhost`` are on this
machine, and a proxy would receive (or refuse) every document and update meant for them.
The HTTP clients that talk to Tika or Solr ask here: urllib through :func:`urlopen`, the
Solr client's requests Session by :func:`is_loopback` (``trust_env`` off). Other targets
keep the environment's proxies.
"""

from __future__ import annotations

import ipaddress
import urllib.request
from typing import IO, Any
from urllib.parse import urlsplit

_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def is_loopback(url: str) -> bool:
    """Whether ``url``'s host is ``localhost`` (or a name under it, RFC 6761), an address
    of 127.0.0.0/8 or ``::1``; False for any other host or an unparsable URL."""
    try:
        host = (urlsplit(url).hostname or "").rstrip(".").lower()
    except ValueError:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def urlopen(request: urllib.request.Request | str, timeout: float) -> IO[Any]:
    """``urllib.request.urlopen`` that goes direct to a loopback target.

    Raises:
        urllib.error.URLError, OSError: as ``urlopen``.
    """
    url = request.full_url if isinstance(request, urllib.request.Request) else request
    opener = _DIRECT if is_loopback(url) else urllib.request.build_opener()
    reply: IO[Any] = opener.open(request, timeout=timeout)
    return reply
