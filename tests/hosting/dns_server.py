"""A DNS server on a loopback port answering from a zone the test writes: `pbem doctor` asks it
through dnspython's resolver exactly as it asks the system's."""

from __future__ import annotations

import socket
import threading

import dns.message
import dns.rcode
import dns.rdatatype
import dns.resolver
import dns.rrset


class ZoneServer:
    """UDP DNS on 127.0.0.1: ``zone`` maps (name, type) to the records' texts as a zone file writes them."""

    def __init__(self, zone: dict[tuple[str, str], list[str]]):
        self.zone = {(name.rstrip(".").lower(), rtype): values for (name, rtype), values in zone.items()}
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.stopping = threading.Event()

    def __enter__(self) -> "ZoneServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.sock.close()
        self.thread.join(timeout=5)

    def resolver(self) -> dns.resolver.Resolver:
        resolver = dns.resolver.Resolver(configure=False)
        resolver.nameservers, resolver.port, resolver.lifetime = ["127.0.0.1"], self.port, 5.0
        return resolver

    def _serve(self) -> None:
        while not self.stopping.is_set():
            try:
                data, peer = self.sock.recvfrom(4096)
            except OSError:
                return
            query = dns.message.from_wire(data)
            response = dns.message.make_response(query)
            question = query.question[0]
            name, rtype = question.name.to_text().rstrip(".").lower(), dns.rdatatype.to_text(question.rdtype)
            values = self.zone.get((name, rtype))
            if values:
                response.answer.append(dns.rrset.from_text_list(question.name, 300, "IN", rtype, values))
            elif not any(n == name for n, _ in self.zone):
                response.set_rcode(dns.rcode.NXDOMAIN)
            self.sock.sendto(response.to_wire(), peer)
