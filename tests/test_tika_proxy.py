"""Loopback targets (our Tika service, a loopback Solr) never go through an environment
proxy: a loopback "proxy" records whether it was contacted."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from indexer.extract.formats.tika import service_problem, tika_request
from indexer.loopback import is_loopback
from indexer.solr.connection import SolrConnection
from indexer.solr.launcher import ping

_PROXY_VARS = ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy")


class _Recorder(BaseHTTPRequestHandler):
    """Answers as Tika (``/health``, ``/parse``) and Solr (JSON with status OK) would, and
    records each request line it got."""

    def _answer(self) -> None:
        self.server.seen.append(self.requestline)  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        if self.path.endswith("/health"):
            body = b"ok"
        else:
            body = json.dumps({"status": "OK", "text": "本文", "metadata": {}}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args: object) -> None:
        pass


def _serve() -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    server.seen = []  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, list[str], list[str]]]:
    """(the target's URL, its requests, the proxy's requests), the proxy in every variable."""
    target, proxy = _serve(), _serve()
    proxy_url = f"http://127.0.0.1:{proxy.server_address[1]}"
    for name in _PROXY_VARS:
        monkeypatch.setenv(name, proxy_url)
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    try:
        url = f"http://127.0.0.1:{target.server_address[1]}"
        yield url, target.seen, proxy.seen  # type: ignore[attr-defined]
    finally:
        for server in (target, proxy):
            server.shutdown()
            server.server_close()


def test_the_tika_client_goes_direct_to_a_loopback_service(
    servers: tuple[str, list[str], list[str]],
) -> None:
    url, target, proxy = servers
    assert service_problem(url, 5.0) is None
    assert tika_request(url, b"{\\rtf1 x}", 5.0)["text"] == "本文"
    assert proxy == [] and len(target) == 2, (proxy, target)


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_solr_calls_go_direct_to_a_loopback_solr(
    servers: tuple[str, list[str], list[str]], host: str
) -> None:
    url, target, proxy = servers
    url = url.replace("127.0.0.1", host)
    assert SolrConnection(url).get("/admin/info/system")["status"] == "OK"
    assert SolrConnection(url, session=requests.Session()).get("/x")
    assert ping(url, "core")
    assert proxy == [] and len(target) == 3, (proxy, target)


def test_loopback_hosts_are_told_from_others() -> None:
    for url in (
        "http://127.0.0.1:8983",
        "http://127.8.9.10/",
        "http://[::1]:1/",
        "http://localhost",
    ):
        assert is_loopback(url), url
    for url in ("http://10.0.0.1/", "http://solr.example/", "http://[::2]/", "not a url"):
        assert not is_loopback(url), url
