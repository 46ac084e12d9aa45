"""A self-signed certificate for 127.0.0.1 (the ``cryptography`` package), for the HTTPS
tests of ``indexer serve``; and a child ``indexer serve`` that can bind nothing but
loopback (an audit hook ends it before any other bind or connect happens)."""

from __future__ import annotations

import datetime
import ipaddress
import os
import subprocess
import sys
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

#: Exit status of a child stopped by :data:`LOOPBACK_ONLY` before a non-loopback bind.
STOPPED_BEFORE_BIND = 99
# Runs `indexer ARGS` under an audit hook (PEP 578) that fires before the bind()/connect()
# system call: any address but loopback ends the process there, so nothing ever listens on
# or reaches it.
LOOPBACK_ONLY = f"""
import os, sys
LOOPBACK = ("127.0.0.1", "::1", "localhost")
def guard(event, args):
    if event in ("socket.bind", "socket.connect"):
        addr = args[1]
        host = addr[0] if isinstance(addr, tuple) else str(addr)
        if host not in LOOPBACK and isinstance(addr, tuple):
            print(f"stopped before {{event}} to {{host}}", file=sys.stderr, flush=True)
            os._exit({STOPPED_BEFORE_BIND})
sys.addaudithook(guard)
from indexer.cli import main
sys.exit(main(sys.argv[1:]))
"""


def self_signed(folder: Path) -> tuple[Path, Path]:
    """Write ``cert.pem`` and ``key.pem`` (P-256, one day, SAN IP 127.0.0.1) into
    ``folder``; returns their paths."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


def run_guarded(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``indexer ARGS`` under :data:`LOOPBACK_ONLY`, to its end (30 s at most)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("INDEXER_SERVE_")}
    return subprocess.run(
        [sys.executable, "-c", LOOPBACK_ONLY, *args],
        capture_output=True,
        text=True,
        timeout=30,
        env={**clean, **env},
    )
