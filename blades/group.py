"""`make run-group`: serve a group playing on this machine's network.

Friends' browsers name the machine by the address they reach it at (192.168.1.20, say),
so the server takes requests addressed to any of the machine's own addresses and names;
and the links the app hands out (an invite, the shared screen) are built from the one
others reach, not from the 127.0.0.1 in the browser of a GM playing on the machine
itself. This module finds them and prints the settings as shell `export`s for
`make run` to take, with the standard library only (it runs before Django does):

    eval "$(python -m blades.group 0.0.0.0 8000)"

A PUBLIC_URL already set (a tunnel's address) is kept.
"""

import ipaddress
import os
import shlex
import socket
import subprocess
import sys
from collections.abc import Mapping

# The hosts `make run` answers to alone; settings.py's default ALLOWED_HOSTS.
LOOPBACK_HOSTS = "127.0.0.1,localhost,[::1]"
EVERY_ADDRESS = {"0.0.0.0", "::"}


def machine_addresses() -> list[str]:
    """This machine's addresses on its networks, the one its default route leaves by first
    (the likeliest to reach friends), then the others (Debian's `hostname -I`: every
    interface's but loopback and IPv6 link-local: a VPN's, a second network card's)."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            # Connecting a UDP socket sends nothing: the kernel only picks the route and
            # the address it would leave from (192.0.2.1 is a documentation address).
            probe.connect(("192.0.2.1", 9))
            found.append(probe.getsockname()[0])
        except OSError:
            pass  # no route at all: no network to serve
    try:
        listed = subprocess.run(
            ["hostname", "-I"], capture_output=True, text=True, timeout=5, check=False
        ).stdout.split()
    except (OSError, subprocess.SubprocessError):
        listed = []
    for address in listed:
        if address not in found:
            found.append(address)
    return [address for address in found if not ipaddress.ip_address(address).is_loopback]


def machine_names() -> list[str]:
    """The machine's host name, and the same under .local (mDNS, answered by most home
    networks' machines)."""
    name = socket.gethostname()
    return [name] if "." in name else [name, f"{name}.local"]


def as_host(address: str) -> str:
    """An address as it stands in a URL and a Host header: IPv6 in brackets."""
    return f"[{address}]" if ":" in address else address


def environment(port: int, reachable: list[str], env: Mapping[str, str]) -> dict[str, str]:
    """The settings for a group reaching this server on `port` at the `reachable` addresses
    and names, the first of them in the links; on top of what `env` sets already."""
    hosts = env.get("ALLOWED_HOSTS", LOOPBACK_HOSTS).split(",")
    hosts += [as_host(address) for address in reachable]
    public = env.get("PUBLIC_URL") or f"http://{as_host(reachable[0])}:{port}"
    return {"ALLOWED_HOSTS": ",".join(dict.fromkeys(hosts)), "PUBLIC_URL": public}


def main(argv: list[str]) -> None:
    host, port = argv[0], int(argv[1])
    # On every address, the machine's; on one the GM chose (HOST=192.168.1.20), that one.
    reachable = machine_addresses() + machine_names() if host in EVERY_ADDRESS else [host]
    for name, value in environment(port, reachable, os.environ).items():
        print(f"export {name}={shlex.quote(value)}")


if __name__ == "__main__":
    main(sys.argv[1:])
