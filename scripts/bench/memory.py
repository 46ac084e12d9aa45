"""Benchmark: peak memory of a crawl of 8 hosts serving large PDFs and DOCs in parallel, under
``crawl.memory_budget`` and without it, and whether every document that parses alone is
indexed.

Each of 8 local servers (127.0.0.1, a port each: 8 hosts) serves an index page linking two
PDFs (ReportLab, Japanese text on 40 pages and a photo-like image of random pixels, so the
file does not compress) and one DOC (python-docx with such an image, converted by
LibreOffice, ``soffice --convert-to doc``). The documents are made once into ``--cache``.
First every document is parsed alone (``indexer extract``, one after another): what parses
alone must be indexed by every crawl. Then ``indexer crawl`` of the 8 index pages (``--out``
file, no Solr: the memory measured is the crawl's, not a search server's; ``fetch.delay`` 0,
``fetch.per_host`` 4, ``fetch.concurrency`` 32, the default workers) runs:

- ``budget``: ``--memory-budget`` (default 512MiB);
- ``unbounded``: ``--memory-budget 64GiB`` (bodies held as they come: the behaviour before);
- ``one at a time``: ``fetch.concurrency`` 1 with the budget (the floor).

The crawl process's RSS (not its worker processes' nor the Tika JVM's, printed apart) is
sampled every 20 ms with psutil. Printed: peak RSS per run, budget + 200 MiB (the goal),
outcomes, documents that parsed alone but were not indexed, and the ratio of the unbounded
peak to the budgeted one. Measure alone on the machine; the load average is printed.

Usage: PYTHONPATH=. python scripts/bench/memory.py [--image-mib N] [--budget 512MiB]
       [--cache DIR] [--hosts 8]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import docx
import psutil
from PIL import Image
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

MIB = 1 << 20
FONT = "HeiseiMin-W3"
PAGES = 40
LINE = "{host}番サーバの{doc}は社内規程の改定案です。第{page}頁{row}行目の本文。"


def _noise(mib: int) -> Image.Image:
    """An RGB image of about ``mib`` MiB of random pixels (incompressible)."""
    side = int((mib * MIB / 3) ** 0.5)
    return Image.frombytes("RGB", (side, side), os.urandom(side * side * 3))


def _pdf(host: int, name: str, picture: Image.Image) -> bytes:
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=A4, invariant=True)
    pdf.setTitle(f"{host}番サーバ {name}")
    for page in range(PAGES):
        pdf.setFont(FONT, 11)
        for row in range(30):
            text = LINE.format(host=host, doc=name, page=page + 1, row=row + 1)
            pdf.drawString(40, 800 - 24 * row, text)
        if page == 0:
            pdf.drawImage(ImageReader(picture), 40, 40, 200, 200)
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def _docx(host: int, picture: Path) -> bytes:
    document = docx.Document()
    document.core_properties.title = f"{host}番サーバ 議事録"
    document.add_heading(f"{host}番サーバ 議事録", 1)
    for row in range(400):
        document.add_paragraph(LINE.format(host=host, doc="議事録", page=row // 30 + 1, row=row))
    document.add_picture(str(picture))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def make_documents(cache: Path, hosts: int, image_mib: int) -> dict[int, dict[str, Path]]:
    """``{host index: {file name: path}}``; made once into ``cache`` (kept between runs)."""
    cache.mkdir(parents=True, exist_ok=True)
    picture = _noise(image_mib)
    png = cache / "picture.png"
    if not png.exists():
        picture.save(png, compress_level=1)
    sites: dict[int, dict[str, Path]] = {}
    sources: list[Path] = []
    for host in range(hosts):
        files = sites.setdefault(host, {})
        for name in ("report-a.pdf", "report-b.pdf"):
            path = cache / f"h{host}-{name}"
            if not path.exists():
                path.write_bytes(_pdf(host, name, picture))
            files[name] = path
        doc = cache / f"h{host}-minutes.doc"
        if not doc.exists():
            source = cache / f"h{host}-minutes.docx"
            source.write_bytes(_docx(host, png))
            sources.append(source)
        files["minutes.doc"] = doc
    if sources:
        _convert(sources, cache)
    return sites


def _convert(sources: list[Path], outdir: Path) -> None:
    """``soffice --convert-to doc`` of every source, one LibreOffice, stopped by its pid."""
    with tempfile.TemporaryDirectory() as work:
        cmd = ["soffice", f"-env:UserInstallation={Path(work).as_uri()}", "--headless"]
        cmd += ["--norestore", "--convert-to", "doc", "--outdir", str(outdir)]
        proc = subprocess.Popen([*cmd, *map(str, sources)], stdout=subprocess.DEVNULL)
        try:
            proc.wait(timeout=900)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    missing = [s.name for s in sources if not s.with_suffix(".doc").exists()]
    if missing:
        sys.exit(f"soffice did not convert {missing}")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return None


def serve(sites: dict[int, dict[str, Path]], root: Path) -> list[ThreadingHTTPServer]:
    """One server per host on 127.0.0.1, serving ``index.html`` and its documents."""
    servers = []
    for host, files in sites.items():
        folder = root / f"h{host}"
        folder.mkdir(parents=True)
        links = "".join(f'<li><a href="{name}">{name}</a></li>' for name in files)
        index = f"<html><head><title>{host}番サーバ</title></head><body><ul>{links}</ul></body>"
        (folder / "index.html").write_text(index + "</html>", encoding="utf-8")
        for name, path in files.items():
            os.symlink(path, folder / name)
        handler = partial(_Quiet, directory=str(folder))
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    return servers


@dataclass
class Run:
    """One crawl's figures."""

    name: str
    peak_rss: int
    peak_children: int
    seconds: float
    outcomes: Counter[str]
    indexed: set[str]


def _sample(proc: subprocess.Popen[bytes]) -> tuple[int, int]:
    """Peak RSS of ``proc`` and of its descendants together, sampled every 20 ms to its end."""
    me = psutil.Process(proc.pid)
    peak = children = 0
    while proc.poll() is None:
        try:
            peak = max(peak, me.memory_info().rss)
            rss = 0
            for child in me.children(recursive=True):
                with contextlib.suppress(psutil.Error):
                    rss += child.memory_info().rss
            children = max(children, rss)
        except psutil.Error:
            pass
        time.sleep(0.02)
    return peak, children


def crawl(name: str, seeds: list[str], work: Path, flags: list[str], env: dict[str, str]) -> Run:
    """``indexer crawl`` of ``seeds`` into an ``--out`` file; its peaks and outcomes."""
    data, out, summary = work / f"{name}-data", work / f"{name}.jsonl", work / f"{name}.json"
    cmd = [sys.executable, "-m", "indexer", "crawl", *seeds, "--data-dir", str(data)]
    cmd += ["--out", str(out), "--summary-json", str(summary), "-q", *flags]
    began = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        peak, children = _sample(proc)
        err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    took = time.monotonic() - began
    if proc.returncode != 0:
        print(f"{name}: exit {proc.returncode}\n{err[-2000:]}", file=sys.stderr)
    report = json.loads(summary.read_text(encoding="utf-8")) if summary.exists() else {}
    outcomes = Counter({k: int(v) for k, v in report.get("outcomes", {}).items()})
    indexed = set()
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            doc = json.loads(line)
            indexed.add(str(doc.get("id") or doc.get("url")))
    return Run(name, peak, children, took, outcomes, indexed)


def parsed_alone(sites: dict[int, dict[str, Path]], env: dict[str, str]) -> dict[str, str]:
    """``{file name: outcome}`` of ``indexer extract`` on each document, one after another."""
    paths = [p for files in sites.values() for p in files.values()]
    cmd = [sys.executable, "-m", "indexer", "extract", *map(str, paths)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
    outcomes: dict[str, str] = {}
    for line in done.stdout.splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        text_ok = bool(str(row.get("text", "")).strip())
        outcome = str(row.get("outcome") or ("indexed" if text_ok else "no-text"))
        outcomes[Path(str(row.get("file", ""))).name] = outcome
    return outcomes


def main() -> None:
    """Make the documents, serve them, parse each alone, run the three crawls, print."""
    args = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    args.add_argument("--hosts", type=int, default=8)
    args.add_argument("--image-mib", type=int, default=24, help="image size per document")
    args.add_argument("--budget", default="512MiB", help="crawl.memory_budget of the run")
    args.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "bench-memory")
    opts = args.parse_args()
    pdfmetrics.registerFont(UnicodeCIDFont(FONT))
    sites = make_documents(opts.cache / f"{opts.image_mib}mib", opts.hosts, opts.image_mib)
    sizes = [p.stat().st_size for files in sites.values() for p in files.values()]
    print(
        f"{len(sizes)} documents on {opts.hosts} hosts, {sum(sizes) / MIB:.0f} MiB in all, "
        f"largest {max(sizes) / MIB:.1f} MiB"
    )
    env = {**os.environ, "INDEXER_FETCH_DELAY": "0", "INDEXER_FETCH_PER_HOST": "4"}
    alone = parsed_alone(sites, env)
    print(f"parsed alone: {dict(Counter(alone.values()))}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        servers = serve(sites, root / "sites")
        try:
            seeds = [f"http://127.0.0.1:{s.server_address[1]}/index.html" for s in servers]
            ports = {f"h{h}": s.server_address[1] for h, s in zip(sites, servers, strict=True)}
            runs = [
                crawl("budget", seeds, root, ["--memory-budget", opts.budget], env),
                crawl("unbounded", seeds, root, ["--memory-budget", "64GiB"], env),
                crawl(
                    "one at a time",
                    seeds,
                    root,
                    ["--memory-budget", opts.budget],
                    {**env, "INDEXER_FETCH_CONCURRENCY": "1", "INDEXER_FETCH_PER_HOST": "1"},
                ),
            ]
        finally:
            for server in servers:
                server.shutdown()
                server.server_close()
    _print(runs, alone, ports, opts.budget)


def _print(runs: list[Run], alone: dict[str, str], ports: dict[str, int], budget: str) -> None:
    ok_alone = {n for n, outcome in alone.items() if outcome == "indexed"}
    print(f"\nload average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    print(f"{'run':<14} {'peak RSS':>9} {'workers+JVM':>12} {'s':>6}  outcomes")
    for run in runs:
        print(
            f"{run.name:<14} {run.peak_rss / MIB:>6.0f} MiB {run.peak_children / MIB:>8.0f} MiB "
            f"{run.seconds:>6.1f}  {dict(run.outcomes)}"
        )
        names = {_file_of(url, ports) for url in run.indexed}
        lost = sorted(ok_alone - names)
        if lost:
            print(f"  parsed alone but not indexed: {lost}")
    by = {r.name: r for r in runs}
    limit = byte_size(budget)
    print(
        f"goal: budgeted peak <= budget + 200 MiB = {(limit + 200 * MIB) / MIB:.0f} MiB: "
        f"{'met' if by['budget'].peak_rss <= limit + 200 * MIB else 'NOT met'}"
    )
    print(
        f"ratio unbounded / budgeted peak RSS: "
        f"{by['unbounded'].peak_rss / max(1, by['budget'].peak_rss):.2f}"
    )


def byte_size(text: str) -> int:
    """``512MiB`` / ``2GiB`` / bytes as an int, as ``crawl.memory_budget`` reads it."""
    from pydantic import ByteSize, TypeAdapter

    return int(TypeAdapter(ByteSize).validate_python(text))


def _file_of(url: str, ports: dict[str, int]) -> str:
    """``h3-report-a.pdf`` for ``http://127.0.0.1:PORT/report-a.pdf`` of host 3."""
    by_port = {str(port): host for host, port in ports.items()}
    rest = url.split("127.0.0.1:", 1)[-1]
    port, _, path = rest.partition("/")
    return f"{by_port.get(port, port)}-{path}"


if __name__ == "__main__":
    shutil.which("soffice") or sys.exit("needs LibreOffice (soffice) for the DOC files")
    main()
