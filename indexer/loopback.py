"""Loopback targets never go through an environment proxy.

``http_proxy``/``HTTP_PROXY``/``all_proxy`` in the environment are meant for the outside
world; our own Tika service and a Solr on 127.0.0.0/8, ``::1`` or ``localhost`` are on this
machine, and a proxy would receive (or refuse) every document and update meant for them.
The HTTP clients that talk to Tika or Solr ask here: urllib through :func:`urlopen`,
requests through :func:`proxies_for` (or :func:`requests_get`). Other targets keep the
environment's proxies.
"""

from __future__ import annotations

import ipaddress
import urllib.request
from typing import IO, Any, cast
from urllib.parse import urlsplit

import requests

#: requests' per-request proxies that override the environment's (a ``None`` value drops
#: the scheme's proxy; requests' ``Session.merge_environment_settings``).
NO_PROXIES: dict[str, str | None] = {"http": None, "https": None, "all": None}
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


def proxies_for(url: str) -> dict[str, str] | None:
    """The ``proxies=`` argument for a requests call to ``url``: :data:`NO_PROXIES` for a
    loopback target (a fresh copy: requests adds to it), None (the environment's)
    otherwise."""
    if not is_loopback(url):
        return None
    return cast("dict[str, str]", dict(NO_PROXIES))  # requests' stubs omit the None values


def urlopen(request: urllib.request.Request | str, timeout: float) -> IO[Any]:
    """``urllib.request.urlopen`` that goes direct to a loopback target.

    Raises:
        urllib.error.URLError, OSError: as ``urlopen``.
    """
    url = request.full_url if isinstance(request, urllib.request.Request) else request
    opener = _DIRECT if is_loopback(url) else urllib.request.build_opener()
    reply: IO[Any] = opener.open(request, timeout=timeout)
    return reply


def requests_get(url: str, **kwargs: Any) -> requests.Response:
    """``requests.get(url, **kwargs)`` that goes direct to a loopback target.

    Raises:
        requests.RequestException: as ``requests.get``.
    """
    return requests.get(url, proxies=proxies_for(url), **kwargs)
