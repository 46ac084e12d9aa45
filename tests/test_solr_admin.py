"""Admin plumbing without a JVM: configset zips, Solr settings checks, error translation of
:class:`SolrConnection` against a tiny local HTTP server that answers like Solr."""

from __future__ import annotations

import io
import json
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from indexer.errors import (
    ConfigError,
    SolrAuthError,
    SolrError,
    SolrRejectedError,
    SolrUnavailableError,
)
from indexer.settings import SolrSettings, load_settings
from indexer.solr.cloud import configset_zip
from indexer.solr.connection import SolrConnection
from tests.conftest import CONFIGSET_DIR

SECRET = "s3cret-value"


def test_configset_zip_has_solrconfig_at_its_root_and_folder_entries() -> None:
    names = zipfile.ZipFile(io.BytesIO(configset_zip(CONFIGSET_DIR))).namelist()
    files = {
        p.relative_to(CONFIGSET_DIR).as_posix()
        for p in CONFIGSET_DIR.rglob("*")
        if p.is_file() and p.name != "README.md"
    }
    assert "solrconfig.xml" in names and "README.md" not in names
    assert files == {n for n in names if not n.endswith("/")}
    folders = {n for n in names if n.endswith("/")}
    assert folders == {f.rsplit("/", 1)[0] + "/" for f in files if "/" in f}


def test_configset_zip_needs_solrconfig(tmp_path: Path) -> None:
    (tmp_path / "schema.xml").write_text("<schema/>")
    with pytest.raises(SolrError, match=r"no solrconfig\.xml"):
        configset_zip(tmp_path)


def test_credentials_in_solr_urls_are_refused_without_echoing_them() -> None:
    url = f"http://u:{SECRET}@h/solr"
    for key, value in (("solr.url", url), ("solr.urls", [url])):
        with pytest.raises(ConfigError) as failure:
            load_settings(flags={key: value})
        assert failure.value.setting == key
        assert SECRET not in str(failure.value)


def test_node_urls_and_target() -> None:
    cfg = SolrSettings(url="http://a/solr/", urls=("http://b/solr", "http://a/solr"))
    assert cfg.node_urls == ("http://a/solr", "http://b/solr")
    assert cfg.target == "pages"
    assert SolrSettings(collection="web").target == "web"


class SolrLike(BaseHTTPRequestHandler):
    """Answers ``/solr/<status>`` with that HTTP status and a Solr-style JSON body."""

    def do_GET(self) -> None:
        status = int(self.path.split("?")[0].rstrip("/").rsplit("/", 1)[1])
        body: dict[str, object] = {"responseHeader": {"status": 0}}
        if status >= 400:
            body["error"] = {"msg": f"Solr says {status}", "code": status}
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def solr_like() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), SolrLike)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/solr"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_connection_translates_errors_without_credentials(solr_like: str) -> None:
    conn = SolrConnection(solr_like, ("user", SECRET), timeout=5)
    assert conn.get("/200")["responseHeader"]["status"] == 0
    cases = [
        (401, SolrAuthError, "refused the credentials"),
        (403, SolrAuthError, "refused the credentials"),
        (400, SolrRejectedError, "Solr says 400"),
        (500, SolrUnavailableError, "Solr says 500"),
    ]
    for status, error, text in cases:
        with pytest.raises(error, match=text) as failure:
            conn.get(f"/{status}")
        assert SECRET not in str(failure.value)
    assert SECRET not in repr(conn)


def test_connection_refused_is_unavailable(free_port: int) -> None:
    conn = SolrConnection(f"http://127.0.0.1:{free_port}/solr", ("user", SECRET), timeout=5)
    with pytest.raises(SolrUnavailableError, match="no answer") as failure:
        conn.get("/admin/info/system")
    assert SECRET not in str(failure.value)
