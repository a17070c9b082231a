"""The one content hash used everywhere a payload needs a stable, comparable fingerprint."""

from __future__ import annotations

import xxhash

HASH_ALGORITHM = 'xxh3_128'


def content_hash(data: bytes | str) -> str:
    """`"xxh3_128:<32 hex digits>"` of `data` (text is hashed as UTF-8).

    Not a security primitive: it identifies payloads in telemetry and names stored files. xxh3 hashes
    a megabyte in ~50 us where sha256 takes ~800 us, and reductions hash every oversized payload.
    """
    if isinstance(data, str):
        data = data.encode('utf-8', 'surrogatepass')
    return f'{HASH_ALGORITHM}:{xxhash.xxh3_128_hexdigest(data)}'
