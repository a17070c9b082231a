"""A real S3 API on loopback for tests: moto's HTTP server, with a bucket ready for spills."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import boto3
from moto.server import ThreadedMotoServer

BUCKET = 'observable-harness-spills'
SECRET = 'testing-secret-CANARY'
CREDENTIALS: dict[str, Any] = {'key': 'testing-key-id', 'secret': SECRET, 'client_kwargs': {'region_name': 'us-east-1'}}


def create_bucket(endpoint: str, bucket: str, credentials: dict[str, Any]) -> None:
    """Make `bucket` on the S3 server at `endpoint`, with the fsspec-style `credentials` (`key`, `secret`)."""
    boto3.client(
        's3',
        endpoint_url=endpoint,
        aws_access_key_id=credentials['key'],
        aws_secret_access_key=credentials['secret'],
        region_name='us-east-1',
    ).create_bucket(Bucket=bucket)


@dataclass
class MotoServer:
    """A real moto S3 server in this process, listening on a free loopback port."""

    server: ThreadedMotoServer
    endpoint: str

    @classmethod
    def start(cls) -> MotoServer:
        server = ThreadedMotoServer(ip_address='127.0.0.1', port=0, verbose=False)
        server.start()
        host, port = server.get_host_and_port()
        endpoint = f'http://{host}:{port}'
        create_bucket(endpoint, BUCKET, CREDENTIALS)
        return cls(server, endpoint)

    def options(self, **extra: Any) -> dict[str, Any]:
        return {'endpoint_url': self.endpoint, **CREDENTIALS, **extra}
