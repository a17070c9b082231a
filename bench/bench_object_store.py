"""Spill (write) and read-back latency: `ObjectStore` against a real S3 API (moto's server) vs `LocalFileStore`.

Run with the bench interpreter: `bash bench/setup_env.sh` then `bench/.venv/bin/python bench/bench_object_store.py`.

The S3 endpoint is `moto_server` in its own process on a loopback port, so the client and the server do
not share a GIL; it keeps objects in memory, so what is measured is the client path (s3fs, botocore,
HTTP over loopback, our worker-thread hop) plus moto's request handling, not a disk or a network. A
real bucket adds the network round trip on top. `ObjectStore` on `file://` is shown too: it isolates
the cost of the store itself from the cost of S3.

Each store writes and reads the same payloads (1 KB, 100 KB, 1 MB, 10 MB) under fresh keys, as a spill
does, in interleaved rounds (order shuffled each round) so drift on a shared machine hits all of
them alike. Reported: the median over rounds of the mean milliseconds per call, and the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from observable_harness.tool_output_limits import LocalFileStore, ObjectStore, OverflowStore

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.s3_server import create_bucket  # noqa: E402

BUCKET = 'bench-spills'
CREDENTIALS = {'key': 'bench', 'secret': 'bench', 'client_kwargs': {'region_name': 'us-east-1'}}
SIZES = {'1 KB': 1024, '100 KB': 100 * 1024, '1 MB': 1024 * 1024, '10 MB': 10 * 1024 * 1024}
CALLS_PER_SAMPLE = {'1 KB': 20, '100 KB': 10, '1 MB': 4, '10 MB': 1}
LOCAL = 'LocalFileStore'
FILE = 'ObjectStore file://'
S3 = 'ObjectStore s3:// (moto)'


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


def start_moto() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, '-m', 'moto.server', '-H', '127.0.0.1', '-p', str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    endpoint = f'http://127.0.0.1:{port}'
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f'{endpoint}/moto-api/', timeout=1).close()
            break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise SystemExit('moto_server did not start; is moto[server] installed in this interpreter?') from None
            time.sleep(0.2)
    create_bucket(endpoint, BUCKET, CREDENTIALS)
    return server, endpoint


def payload(size: int) -> bytes:
    line = b'2026-11-30T08:00:00 INFO worker-3 processed batch 123456 in 12.5 ms status=ok\n'
    return (line * (size // len(line) + 1))[:size]


async def sample(store: OverflowStore, prefix: str, data: bytes, calls: int) -> tuple[float, float]:
    """Mean milliseconds per write and per read of `data`, over `calls` fresh keys."""
    keys = [f'{prefix}/call_{index}.0' for index in range(calls)]
    started = time.perf_counter()
    handles = [await store.write(key, data) for key in keys]
    written = time.perf_counter()
    read = [await store.read(handle) for handle in handles]
    done = time.perf_counter()
    assert all(stored == data for stored in read)
    return (written - started) * 1000 / calls, (done - written) * 1000 / calls


async def measure(stores: dict[str, OverflowStore], rounds: int) -> dict[tuple[str, str, str], list[float]]:
    payloads = {name: payload(size) for name, size in SIZES.items()}
    results: dict[tuple[str, str, str], list[float]] = {}
    work = [(store, size) for store in stores for size in SIZES]
    for round_number in range(rounds + 1):  # round 0 warms up connections and caches, and is dropped
        random.shuffle(work)
        for store_name, size in work:
            prefix = f'round-{round_number}/{size.replace(" ", "")}'
            write_ms, read_ms = await sample(stores[store_name], prefix, payloads[size], CALLS_PER_SAMPLE[size])
            if round_number:
                results.setdefault((store_name, size, 'write'), []).append(write_ms)
                results.setdefault((store_name, size, 'read'), []).append(read_ms)
    return results


def report(results: dict[tuple[str, str, str], list[float]], rounds: int) -> None:
    print(f'median of {rounds} interleaved rounds, milliseconds per call (lower is better)\n')
    header = f'{"payload":>8} {"op":>5} {LOCAL:>15} {FILE:>20} {S3:>25} {"s3/local":>9} {"file/local":>11}'
    print(header)
    print('-' * len(header))
    for size in SIZES:
        for operation in ('write', 'read'):
            local, file, s3 = (statistics.median(results[(name, size, operation)]) for name in (LOCAL, FILE, S3))
            print(
                f'{size:>8} {operation:>5} {local:>15.3f} {file:>20.3f} {s3:>25.3f} '
                f'{s3 / local:>8.1f}x {file / local:>10.2f}x'
            )


def main() -> None:
    parser = argparse.ArgumentParser(description='Spill and read-back latency, ObjectStore against LocalFileStore.')
    parser.add_argument('--rounds', type=int, default=15)
    args = parser.parse_args()
    server, endpoint = start_moto()
    workdir = Path(tempfile.mkdtemp(prefix='bench-object-store-'))
    try:
        stores: dict[str, OverflowStore] = {
            LOCAL: LocalFileStore(base_dir=workdir / 'local'),
            FILE: ObjectStore(f'file://{workdir / "objects"}'),
            S3: ObjectStore(f's3://{BUCKET}/spills', storage_options={'endpoint_url': endpoint, **CREDENTIALS}),
        }
        results = asyncio.run(measure(stores, args.rounds))
        report(results, args.rounds)
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == '__main__':
    main()
