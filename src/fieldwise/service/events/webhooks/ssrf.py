"""The SSRF guard: which webhook URLs the service may call, and at which address.

Only ``https`` is allowed, except for hosts the operator lists in ``webhook_allow_http``
(e.g. ``localhost``, ``127.0.0.1`` in development): those may use ``http`` and may be
private or loopback. Every other host must resolve to public addresses only; the request is
then pinned to the address that was checked, so a DNS answer cannot change between the check
and the connection.
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


def _public(address: IPAddress) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_global and not address.is_multicast


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
    elif not allowed and not _public(literal):
        raise UnsafeUrl(f"{host} is a private, loopback or link-local address")
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
    refused = [str(a) for a in addresses if not _public(a)]
    if refused:
        raise UnsafeUrl(
            f"{host} resolves to a private, loopback or link-local address ({refused[0]})"
        )
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
    refused = [str(a) for a in addresses if not _public(a)]
    if refused:
        raise UnsafeUrl(
            f"{host} resolves to a private, loopback or link-local address ({refused[0]})"
        )
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
