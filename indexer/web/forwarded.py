"""Who the client is and whether it came over HTTPS, believing a reverse proxy's
``X-Forwarded-For`` / ``X-Forwarded-Proto`` only when the direct peer is one of
``serve.trusted_proxies``; from any other peer both headers are ignored (anyone can send
them, so trusting them would let a client pick its own address and escape the login limits).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

from aiohttp import web

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
#: Bits of an IPv6 address that name one client: a /64 is one subscriber's (RFC 6177),
#: whose every address is free to its holder.
IPV6_CLIENT_BITS = 64


@dataclass(frozen=True, slots=True)
class Proxies:
    """The trusted reverse proxies (``serve.trusted_proxies``) and ``serve.secure_cookie``.

    Attributes:
        networks: the proxies' addresses as networks (an address is a /32 or /128).
        force_secure: True: every answer's cookies are Secure, whatever the transport.
    """

    networks: tuple[Network, ...] = ()
    force_secure: bool = False

    @classmethod
    def parse(cls, entries: Iterable[str], force_secure: bool = False) -> Proxies:
        """From ``serve.trusted_proxies``' strings (validated when the settings load).

        Raises:
            ValueError: an entry is no IP address or network.
        """
        return cls(tuple(ipaddress.ip_network(e, strict=False) for e in entries), force_secure)

    def trusts(self, address: Address | None) -> bool:
        """True when ``address`` is in one of the trusted networks."""
        return address is not None and any(address in net for net in self.networks)


def parse_address(text: str | None) -> Address | None:
    """``text`` as an IP address (IPv4-mapped IPv6 as IPv4), None when it is none."""
    try:
        address = ipaddress.ip_address((text or "").strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def client_key(address: Address | None, fallback: str = "unknown") -> str:
    """The key the login limits count a client under: its IPv4 address, or its IPv6 /64
    (``2001:db8::/64``); ``fallback`` for a peer without an IP address (a Unix socket)."""
    if address is None:
        return fallback
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{address}/{IPV6_CLIENT_BITS}", strict=False))
    return str(address)


def forwarded_client(
    peer: Address | None, forwarded_for: Iterable[str], proxies: Proxies
) -> Address | None:
    """The client behind a chain of proxies: ``peer`` itself unless it is trusted; then the
    ``X-Forwarded-For`` entries read from the right (each proxy appends the address it
    saw), skipping trusted proxies, and the first untrusted one is the client. An entry
    that is no address ends the walk at the last trusted hop (it cannot be believed)."""
    if not proxies.trusts(peer):
        return peer
    hops = [hop for value in forwarded_for for hop in value.split(",")]
    client = peer
    for hop in reversed(hops):
        address = parse_address(hop)
        if address is None:
            break
        client = address
        if not proxies.trusts(address):
            break
    return client


def client_of(request: web.Request, proxies: Proxies) -> str:
    """The request's client as :func:`client_key` (see :func:`forwarded_client`)."""
    peer = parse_address(request.remote)
    hops = request.headers.getall("X-Forwarded-For", [])
    return client_key(forwarded_client(peer, hops, proxies), request.remote or "unknown")


def is_https(request: web.Request, proxies: Proxies) -> bool:
    """True when the client's connection is HTTPS: TLS to this server, ``serve.secure_cookie``,
    or a trusted proxy's ``X-Forwarded-Proto: https`` (its first value, the client's hop)."""
    if request.secure or proxies.force_secure:  # aiohttp: secure is TLS to this server
        return True
    if not proxies.trusts(parse_address(request.remote)):
        return False
    proto = request.headers.get("X-Forwarded-Proto", "").split(",")[0]
    return proto.strip().lower() == "https"
