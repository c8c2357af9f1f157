"""The SSRF guard: which webhook URLs the service may call, and at which address.

Only ``https`` is allowed, except for hosts the operator lists in ``webhook_allow_http``
(e.g. ``localhost``, ``127.0.0.1`` in development): those may use ``http`` and may be
private or loopback. Every other host must resolve to public addresses only, at registration
and again at every send; the request is then pinned to the address that was checked, so a DNS
answer cannot change between the check and the connection. An IPv6 address that carries an
IPv4 address (IPv4-mapped or -compatible, SIIT, NAT64, 6to4, Teredo) is public only if the IPv4
address it carries is: ``[::7f00:1]`` and ``[2002:7f00:1::1]`` reach 127.0.0.1.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit, urlunsplit

import httpx

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

#: The longest webhook URL the service stores (its columns hold 2,048 characters).
MAX_URL_LENGTH = 2048


class UnsafeUrl(ValueError):
    """The URL may not be called by the service."""


@dataclass(frozen=True)
class Target:
    """Where to connect: ``url`` (possibly with the host replaced by its checked address),
    the ``host`` header to send, and the TLS server name."""

    url: str
    host_header: str | None
    sni_hostname: str | None


def _allowed(host: str, allow_http: Iterable[str]) -> bool:
    return host.lower().strip("[]") in {h.lower().strip("[]") for h in allow_http}


def _literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return None


_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")  # IPv4-mapped
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # NAT64, the well-known prefix (RFC 6052)
#: IPv6 prefixes whose addresses are IPv4 addresses in IPv6 form: the network they reach is the
#: embedded IPv4 address's, so that address alone decides (``ipaddress`` calls them private or
#: reserved as IPv6 addresses, which would refuse a public IPv4 behind, e.g., DNS64).
_TRANSLATED = (_MAPPED, _NAT64)
#: Prefixes with an IPv4 address in their last 32 bits (beside the IPv4-mapped one).
_LAST_32_BITS = (
    ipaddress.IPv6Network("::/96"),  # IPv4-compatible (deprecated, RFC 4291)
    ipaddress.IPv6Network("::ffff:0:0:0/96"),  # IPv4-translated (SIIT, RFC 2765)
    _NAT64,
    # NAT64, local use (RFC 8215): its operator picks where the IPv4 address sits; the prefix is
    # not global, so it is refused whatever it carries, and the /96 layout names the address.
    ipaddress.IPv6Network("64:ff9b:1::/48"),
)
_NOT_PUBLIC = "a private, loopback, link-local or other non-public address"


def embedded_ipv4(address: IPAddress) -> tuple[ipaddress.IPv4Address, ...]:
    """Every IPv4 address ``address`` carries, by the IPv6 forms that reach one: IPv4-mapped,
    IPv4-compatible, IPv4-translated (SIIT), NAT64 (well-known and local-use prefixes, the
    address in the last 32 bits), 6to4 (bits 16-48) and Teredo (its server, and its client
    with the obfuscating XOR undone). Empty for an IPv4 address or any other IPv6 address."""
    if not isinstance(address, ipaddress.IPv6Address):
        return ()
    found: list[ipaddress.IPv4Address] = []
    if address.ipv4_mapped is not None:
        found.append(address.ipv4_mapped)
    elif int(address) > 1 and any(address in prefix for prefix in _LAST_32_BITS):  # not ::, ::1
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    elif address.sixtofour is not None:
        found.append(address.sixtofour)
    elif address.teredo is not None:
        found.extend(address.teredo)
    return tuple(found)


def _public(address: IPAddress) -> bool:
    # is_global is False for private, loopback, link-local and unspecified addresses (v4 and
    # v6); multicast, reserved and IPv6 site-local ranges are global to ipaddress, so say no.
    return address.is_global and not (
        address.is_multicast
        or address.is_reserved
        or (isinstance(address, ipaddress.IPv6Address) and address.is_site_local)
    )


def is_public(address: IPAddress) -> bool:
    """Whether the service may connect to ``address``: a public address, carrying no private,
    loopback, link-local, reserved, multicast or unspecified IPv4 address in any IPv6 form."""
    if isinstance(address, ipaddress.IPv4Address):
        return _public(address)
    if not any(address in prefix for prefix in _TRANSLATED) and not _public(address):
        return False
    return all(_public(v4) for v4 in embedded_ipv4(address))


def _why_not(host: str, address: IPAddress) -> str:
    """The refusal of ``host`` (a literal or a name) that is or resolves to ``address``."""
    shown = str(address)
    embedded = [str(v4) for v4 in embedded_ipv4(address) if not _public(v4)]
    carries = f", which carries the IPv4 address {embedded[0]}" if embedded else ""
    if _literal(host) is not None:
        return f"{host} is {_NOT_PUBLIC}{carries}"
    return f"{host} resolves to {_NOT_PUBLIC} ({shown}{carries})"


def _check_name(host: str) -> None:
    """Refuse a host name that cannot be encoded for the wire: the resolver encodes it with
    IDNA 2003 (Python's ``idna`` codec) and httpx with IDNA 2008; either may refuse it (an
    empty or over-long label, a disallowed code point, a malformed ``xn--`` label)."""
    try:
        host.encode("idna")
        httpx.URL(f"https://{host}/").host  # noqa: B018 - decoding an A-label checks it
    except (UnicodeError, httpx.InvalidURL) as exc:
        raise UnsafeUrl(f"the host name {host!r} is not a valid domain name ({exc})") from None


def check_url(url: str, allow_http: Iterable[str]) -> SplitResult:
    """Check what can be checked without DNS; raise :class:`UnsafeUrl` naming the problem."""
    if len(url) > MAX_URL_LENGTH:
        raise UnsafeUrl(f"longer than {MAX_URL_LENGTH} characters ({len(url)})")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as exc:
        raise UnsafeUrl(f"not a valid URL: {exc}") from None
    host = parts.hostname
    if parts.scheme not in ("https", "http") or not host:
        raise UnsafeUrl("must be an absolute https:// URL")
    allowed = _allowed(host, allow_http)
    if parts.scheme == "http" and not allowed:
        raise UnsafeUrl(
            f"must use https:// (http is allowed only for hosts in FIELDWISE_WEBHOOK_ALLOW_HTTP; "
            f"{host!r} is not one)"
        )
    literal = _literal(host)
    if literal is None:
        _check_name(host)
    elif not allowed and not is_public(literal):
        raise UnsafeUrl(_why_not(host, literal))
    return parts


def _resolve(host: str, port: int) -> list[IPAddress]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise UnsafeUrl(f"cannot resolve {host}: {exc}") from None
    addresses: list[IPAddress] = []
    for family, _type, _proto, _name, sockaddr in infos:
        if family in (socket.AF_INET, socket.AF_INET6):
            address = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
            if address not in addresses:
                addresses.append(address)
    if not addresses:
        raise UnsafeUrl(f"{host} has no IP address")
    return addresses


def check_registration(url: str, allow_http: Iterable[str]) -> SplitResult:
    """``check_url``, plus: a name that resolves now to a non-public address is refused.

    A name that does not resolve yet is accepted; every send resolves and checks again.
    """
    allow = tuple(allow_http)
    parts = check_url(url, allow)
    host = parts.hostname or ""
    if _allowed(host, allow) or _literal(host) is not None:
        return parts
    try:
        addresses = _resolve(host, parts.port or 443)
    except UnsafeUrl:
        return parts
    refused = [a for a in addresses if not is_public(a)]
    if refused:
        raise UnsafeUrl(_why_not(host, refused[0]))
    return parts


def resolve_target(url: str, allow_http: Iterable[str]) -> Target:
    """Check ``url`` fully (DNS included) and return where to connect."""
    allow = tuple(allow_http)
    parts = check_url(url, allow)
    host = parts.hostname or ""
    if _allowed(host, allow):
        # The operator trusts this host: connect normally (it may be loopback).
        return Target(url=url, host_header=None, sni_hostname=None)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    addresses = _resolve(host, port)
    # Every address the name has now is checked; the connection is pinned to one of them.
    refused = [a for a in addresses if not is_public(a)]
    if refused:
        raise UnsafeUrl(_why_not(host, refused[0]))
    if _literal(host) is not None:
        return Target(url=url, host_header=None, sni_hostname=None)
    chosen = next((a for a in addresses if a.version == 4), addresses[0])
    shown = f"[{chosen}]" if chosen.version == 6 else str(chosen)
    netloc = f"{shown}:{parts.port}" if parts.port else shown
    if "@" in parts.netloc:
        netloc = parts.netloc.rsplit("@", 1)[0] + "@" + netloc
    pinned = urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))
    host_header = f"{host}:{parts.port}" if parts.port else host
    return Target(url=pinned, host_header=host_header, sni_hostname=host)
