"""The loopback site of ``scripts/bench/throughput.py`` and its cheap static server.

``HOSTS`` hosts (127.0.0.1 … 127.0.0.N, one port) × ``PAGES`` Japanese pages each, 8–29 KB,
half UTF-8 (charset in the header), half Shift_JIS (charset only in a ``<meta>``), with a
navigation bar and a footer. Page ``i`` links to pages ``10i+1 … 10i+10`` of its host (so a
crawl from ``/`` reaches all of them), back to ``/`` and to its neighbour, and to the same
page of host 2 (127.0.0.2).

The server answers from bytes built once (keep-alive, no parsing beyond the request line):
it costs little CPU. It logs each request's host and arrival: the kernel's receive time of
its bytes (``SO_TIMESTAMPNS``, epoch seconds), not when the server got round to reading
them (on a loaded machine that was up to 45 ms later, and the log showed gaps the client
never left); written as JSON lines when it gets SIGTERM.
Usage (as a child): python scripts/bench/throughput_site.py PORT HOSTS PAGES LOGFILE [PARENT_PID]
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import json
import os
import random
import signal
import socket
import struct
import sys
import time
from pathlib import Path

Entry = tuple[str, str, float]  # host, path, receive time (epoch s)

WORDS = (
    "社内規程", "経費精算", "申請手続き", "有給休暇", "勤怠管理", "情報セキュリティ",
    "研修制度", "人事評価", "福利厚生", "出張旅費", "会議室予約", "文書管理", "品質保証",
    "顧客対応", "製品開発", "業務改善", "年末調整", "健康診断", "安全衛生", "就業規則",
    "システム更新", "ネットワーク",
)  # fmt: skip
ENDINGS = (
    "について説明します。",
    "を確認してください。",
    "は翌月十日までに提出します。",
    "の手順が変わりました。",
)


def _paragraph(rng: random.Random, sentences: int) -> str:
    out = []
    for _ in range(sentences):
        words = "と".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
        out.append(words + rng.choice(ENDINGS))
    return "".join(out)


def page(i: int, host: int, hosts: int, pages: int, port: int) -> tuple[bytes, str]:
    """Page ``i`` (0 is ``/``) of any host: its body and its Content-Type."""
    rng = random.Random(i)
    sjis = i % 2 == 1
    charset = "Shift_JIS" if sjis else "utf-8"
    links = [f"/p/{c}.html" for c in range(10 * i + 1, min(10 * i + 11, pages))]
    links += ["/", f"/p/{max(i - 1, 1)}.html"]
    other = f"http://127.0.0.{(host + 1) % hosts + 1}:{port}/p/{i}.html"
    nav = "".join(f'<li><a href="{u}">{u}</a></li>' for u in [*links, other])
    target = 8_000 + rng.randint(0, 21_000)  # bytes of body text, before encoding
    paras = []
    size = 0
    while size < target // 3:  # about 3 bytes a character in UTF-8
        text = _paragraph(rng, 6)
        paras.append(f"<p>{text}</p>")
        size += len(text)
    body = (
        f"<!doctype html><html><head><meta charset={charset}><title>社内報 第{i}号</title>"
        f"</head><body><header><nav><ul>{nav}</ul></nav></header><main><h1>社内報 第{i}号</h1>"
        f"{''.join(paras)}</main><footer>総務部 広報課 内線1234</footer></body></html>"
    )
    if sjis:
        return body.encode("cp932"), "text/html"
    return body.encode("utf-8"), "text/html; charset=utf-8"


def _response(status: str, body: bytes, ctype: str) -> bytes:
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
        "Connection: keep-alive\r\n\r\n"
    )
    return head.encode("ascii") + body


#: Linux's SO_TIMESTAMPNS: each read carries the kernel's receive time of its data.
_SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


class _Connection:
    """One client connection: requests read with the kernel's receive time (a server
    descheduled on a loaded machine reads late, and a log of its own read times then shows
    gaps shorter or longer than the client left), replies written in order."""

    def __init__(self, sock: socket.socket, replies: dict[str, bytes], log: list[Entry]) -> None:
        self.sock, self.replies, self.log, self.buf = sock, replies, log, b""
        self.host = str(sock.getsockname()[0])
        self.out: asyncio.Queue[bytes | None] = asyncio.Queue()
        sock.setblocking(False)
        sock.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
        loop = asyncio.get_running_loop()
        loop.add_reader(sock, self.readable)
        self.writer = loop.create_task(self.write())

    def readable(self) -> None:
        try:
            data, ancillary, _, _ = self.sock.recvmsg(65536, socket.CMSG_SPACE(16))
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data, ancillary = b"", []
        if not data:
            asyncio.get_running_loop().remove_reader(self.sock)
            self.out.put_nowait(None)
            return
        at = _received(ancillary)
        self.buf += data
        while b"\r\n\r\n" in self.buf:
            head, self.buf = self.buf.split(b"\r\n\r\n", 1)
            path = head.split(b" ", 2)[1].decode("ascii", "replace")
            self.log.append((self.host, path, at))
            reply = self.replies.get(path) or _response("404 Not Found", b"", "text/plain")
            self.out.put_nowait(reply)

    async def write(self) -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(OSError):
            while (reply := await self.out.get()) is not None:
                await loop.sock_sendall(self.sock, reply)
        self.sock.close()


def _received(ancillary: list[tuple[int, int, bytes]]) -> float:
    """The kernel's receive time (epoch s) of the data read, else now."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == _SO_TIMESTAMPNS and len(data) >= 16:
            sec, nsec = struct.unpack("qq", data[:16])
            return sec + nsec / 1e9
    return time.time()


def replies(hosts: int, pages: int, port: int) -> dict[str, bytes]:
    """Every path's full response (the pages' links to the next host use host 0's)."""
    out = {"/robots.txt": _response("200 OK", b"User-agent: *\nAllow: /\n", "text/plain")}
    for i in range(pages):
        body, ctype = page(i, 0, hosts, pages, port)
        out["/" if i == 0 else f"/p/{i}.html"] = _response("200 OK", body, ctype)
    return out


async def serve(port: int, hosts: int, pages: int, logfile: Path) -> None:
    """Serve until SIGTERM, then write the request log to ``logfile``."""
    log: list[Entry] = []
    table = replies(hosts, pages, port)
    loop = asyncio.get_running_loop()
    listening = []
    for h in range(hosts):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((f"127.0.0.{h + 1}", port))
        sock.listen(128)
        sock.setblocking(False)
        loop.add_reader(sock, _accept, sock, table, log)
        listening.append(sock)
    stop = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    print("ready", flush=True)
    await stop.wait()
    for sock in listening:
        loop.remove_reader(sock)
        sock.close()
    with logfile.open("w") as f:
        for host, path, at in log:
            f.write(json.dumps([host, path, at]) + "\n")


def _accept(sock: socket.socket, table: dict[str, bytes], log: list[Entry]) -> None:
    with contextlib.suppress(BlockingIOError, InterruptedError):
        conn, _ = sock.accept()
        _Connection(conn, table, log)


def _stop_with_parent(parent: int) -> None:
    """Get SIGTERM when the benchmark that started this server (pid ``parent``, which it
    passes: read here it could already be the reaper's) dies, however it dies (a SIGTERM
    to it stops its clusters and re-raises, skipping its ``finally`` blocks): Linux's
    ``prctl(PR_SET_PDEATHSIG)``; exit at once when it is gone already."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # 1: PR_SET_PDEATHSIG, <linux/prctl.h>
    if os.getppid() != parent:
        sys.exit(1)


if __name__ == "__main__":
    _stop_with_parent(int(sys.argv[5]) if len(sys.argv) > 5 else os.getppid())
    asyncio.run(serve(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])))
