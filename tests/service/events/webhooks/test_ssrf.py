"""The SSRF guard's address classifier, and every IPv6 form of a private or loopback IPv4
address refused at registration over real HTTP and at send time."""

from __future__ import annotations

import ipaddress

import httpx
import pytest

from fieldwise.service import RunningService
from fieldwise.service.events.webhooks.ssrf import (
    UnsafeUrl,
    embedded_ipv4,
    is_public,
    resolve_target,
)

# (address, the IPv4 addresses it carries)
EMBEDDED = [
    ("8.8.8.8", ()),
    ("2606:4700:4700::1111", ()),
    ("::1", ()),
    ("::", ()),
    ("::ffff:127.0.0.1", ("127.0.0.1",)),  # IPv4-mapped
    ("::7f00:1", ("127.0.0.1",)),  # IPv4-compatible
    ("::ffff:0:7f00:1", ("127.0.0.1",)),  # IPv4-translated (SIIT)
    ("64:ff9b::7f00:1", ("127.0.0.1",)),  # NAT64, well-known prefix
    ("64:ff9b:1::7f00:1", ("127.0.0.1",)),  # NAT64, local-use prefix
    ("2002:7f00:1::1", ("127.0.0.1",)),  # 6to4: bits 16-48
    # Teredo: server 65.54.227.120, client 192.0.2.45 stored XORed with all ones (RFC 4380's
    # own example)
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", ("65.54.227.120", "192.0.2.45")),
    ("2001:0:808:808::80ff:fffe", ("8.8.8.8", "127.0.0.1")),
]

PUBLIC = [
    "8.8.8.8",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",  # DNS64 on an IPv6-only network, to a public IPv4 address
    "2002:808:808::1",
]

NOT_PUBLIC = [
    "127.0.0.1",
    "10.0.0.1",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",  # shared address space (carrier-grade NAT)
    "224.0.0.1",
    "240.0.0.1",
    "0.0.0.0",
    "::1",
    "::",
    "fe80::1",
    "fec0::1",
    "fc00::1",
    "ff02::1",
    "ff0e::1",  # global-scope multicast
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "::ffff:0.0.0.0",
    "::7f00:1",
    "::a00:1",
    "::808:808",  # IPv4-compatible is deprecated: refused whatever it carries
    "::ffff:0:7f00:1",
    "64:ff9b::7f00:1",
    "64:ff9b::a00:1",
    "64:ff9b::a9fe:a9fe",  # 169.254.169.254, the cloud metadata address
    "64:ff9b::e000:1",  # multicast 224.0.0.1
    "64:ff9b::f000:1",  # reserved 240.0.0.1
    "64:ff9b::",  # 0.0.0.0
    "64:ff9b:1::7f00:1",
    "64:ff9b:1::808:808",  # local use: never global
    "2002:7f00:1::1",
    "2002:a00:1::1",
    "2002:c0a8:101::1",
    "2002:a9fe:a9fe::1",
    "2002::1",  # 0.0.0.0
    "2001:0:7f00:1::80ff:fffe",  # Teredo, server and client 127.0.0.1
    "2001:0:808:808::80ff:fffe",  # Teredo, client 127.0.0.1
    "2001:0:808:808::f7f7:fbfb",  # Teredo to public addresses: the prefix is not global
]

# Every IPv6 form of 127.0.0.1 (and of private addresses) a webhook URL could name, with the
# IPv4 address the refusal names.
V6_FORMS = [
    ("https://[::7f00:1]/", "127.0.0.1"),
    ("https://[64:ff9b::7f00:1]/", "127.0.0.1"),
    ("https://[2002:7f00:1::1]/", "127.0.0.1"),
    ("https://[::ffff:7f00:1]/hook", "127.0.0.1"),
    ("https://[::ffff:0:7f00:1]/hook", "127.0.0.1"),
    ("https://[64:ff9b:1::7f00:1]/hook", "127.0.0.1"),
    ("https://[2001:0:7f00:1::80ff:fffe]/hook", "127.0.0.1"),
    ("https://[64:ff9b::a9fe:a9fe]/latest/meta-data", "169.254.169.254"),
    ("https://[2002:a00:1::1]:8443/hook", "10.0.0.1"),
]


@pytest.mark.parametrize(("address", "carried"), EMBEDDED)
def test_embedded_ipv4(address: str, carried: tuple[str, ...]) -> None:
    assert tuple(str(a) for a in embedded_ipv4(ipaddress.ip_address(address))) == carried


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses(address: str) -> None:
    assert is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_non_public_addresses(address: str) -> None:
    assert not is_public(ipaddress.ip_address(address))


def test_every_ipv6_form_of_a_private_ipv4_is_refused_at_registration(
    service: RunningService,
) -> None:
    with httpx.Client(
        base_url=service.base_url, headers={"x-api-key": service.api_key}, timeout=60
    ) as http:
        for url, carried in V6_FORMS:
            response = http.post(
                "/webhooks/endpoints", json={"url": url, "events": ["processor.run.completed"]}
            )
            assert response.status_code == 422, (url, response.text)
            error = response.json()["error"]
            assert error["param"] == "url", url
            assert error["message"].startswith("url: "), url
            assert (
                f"non-public address, which carries the IPv4 address {carried}"
                in (error["message"])
            ), url
            response = http.post(
                "/parse/file/async", files={"file": ("a.txt", b"hi")}, data={"webhook_url": url}
            )
            assert response.status_code == 422, (url, response.text)
        assert http.get("/webhooks/endpoints").json()["data"] == []


@pytest.mark.parametrize(("url", "carried"), V6_FORMS)
def test_every_ipv6_form_of_a_private_ipv4_is_refused_at_send_time(url: str, carried: str) -> None:
    """An endpoint registered before the guard knew these forms is not called either."""
    with pytest.raises(UnsafeUrl, match=f"carries the IPv4 address {carried}"):
        resolve_target(url, ())
