"""Secrets are scrubbed before anything is written, and telemetry never sees them (SPEC BTO-8)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic_ai import Agent

from observable_harness import ToolOutputLimits
from observable_harness._text.scan import Engine
from observable_harness._text.secrets import _ASSIGNED_NAME, DEFAULT_PATTERNS, DEFAULT_SCRUBBER, ENGINES
from observable_harness.bounded import CommandOutput, Condense, Offload, Retention, Scrubber, scrub, scrub_bytes
from observable_harness.telemetry import names
from observable_harness.tool_output_limits import Band, LocalFileStore
from tests.agents import Script, call, done, respond
from tests.doubles import MemoryStore
from tests.otel import OTelHarness
from tests.real_outputs import RealOutput

GITHUB = 'ghp_' + 'Zq8rT2vLm4Kx9Wd1Np7Yc3Bh6Fs0Ju5Ea2Gk'
AWS_KEY = 'AKIA' + 'QX7M2KD9PLW4RT8N'
AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYz9q8Kd2LmN'
JWT = (
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwicm9sZSI6ImFkbWluIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r'
)
OPENAI = 'sk-proj-' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6'
DB_PASSWORD = 'Tr0ub4dor&3-horse'
STRIPE = 'sk_live_' + '51HxYzAbCdEfGhIjKlMnOpQr'
SLACK = 'xoxb-' + '2718281828-3141592653-AbCdEfGhIjKlMnOpQrStUv'
PRIVATE_KEY_BODY = 'MIIEowIBAAKCAQEAx8Jk2q7v3RZb9Lm0pQWy5tNcD4eHf6gUuA1sB2oC3dE4fG5h'

SECRETS = (GITHUB, AWS_KEY, AWS_SECRET, JWT, OPENAI, DB_PASSWORD, STRIPE, SLACK, PRIVATE_KEY_BODY)

DEPLOY_LOG = f"""\
$ env | sort
AWS_ACCESS_KEY_ID={AWS_KEY}
AWS_SECRET_ACCESS_KEY={AWS_SECRET}
GITHUB_TOKEN={GITHUB}
HOME=/home/deploy
OPENAI_API_KEY={OPENAI}
PATH=/usr/local/bin:/usr/bin
PWD=/srv/app
$ curl -v -H 'Authorization: Bearer {JWT}' https://api.internal.example/v1/deploy
> GET /v1/deploy HTTP/1.1
> Host: api.internal.example
> Authorization: Bearer {JWT}
< HTTP/1.1 401 Unauthorized
$ psql postgresql://deploy:{DB_PASSWORD}@db.internal:5432/app -c 'select 1'
psql: error: connection to server at "db.internal" (10.0.0.7), port 5432 failed: FATAL:  password authentication failed
$ cat config/settings.json
{{"stripe": {{"api_key": "{STRIPE}"}}, "slack_token": "{SLACK}", "max_tokens": 4096, "password": ""}}
$ cat ~/.ssh/id_rsa
-----BEGIN RSA PRIVATE KEY-----
{PRIVATE_KEY_BODY}
-----END RSA PRIVATE KEY-----
error: deploy failed
exit status 1
"""


def test_realistic_secrets_are_replaced_and_the_rest_reads_the_same() -> None:
    result = scrub(DEPLOY_LOG)
    for secret in SECRETS:
        assert secret not in result.text
    assert 'GITHUB_TOKEN=[REDACTED:github_token]' in result.text
    assert 'Authorization: Bearer [REDACTED:jwt]' in result.text
    assert 'postgresql://deploy:[REDACTED:url_credentials]@db.internal' in result.text
    assert '"max_tokens": 4096' in result.text and '"password": ""' in result.text  # not secrets
    assert 'PWD=/srv/app' in result.text and 'HOME=/home/deploy' in result.text
    assert result.counts == {
        'private_key': 1,
        'aws_access_key': 1,
        'github_token': 1,
        'slack_token': 1,
        'stripe_key': 1,
        'openai_key': 1,
        'jwt': 2,
        'url_credentials': 1,
        'assignment': 1,
    }
    assert scrub(result.text).counts == {}  # scrubbing is idempotent: placeholders are not secrets


@pytest.mark.parametrize(
    ('text', 'kind'),
    [
        ('password=hunter2', 'assignment'),
        ('--db-password "correct horse battery"', 'flag'),
        ("mysql --user=root --password 'hunter2 x' app", 'flag'),
        ('gh api --auth-token ghs_shorttoken1 /repos', 'flag'),
        ('deploy --api-key 5f2b9c1e7d --region eu', 'flag'),
        ('--password-stdin < pw.txt', None),
        ('--token $GH_TOKEN', None),
        ('--token --verbose', None),
        ('--with-token < token.txt', None),
        ('re-token the input', None),
        ('export SECRET_KEY="django-insecure-8f3k"', 'assignment'),
        ('api-key: 5f2b9c1e7d', 'assignment'),
        ('X-Api-Key: 5f2b9c1e7d', 'assignment'),
        ('https://example.com/cb?code=1&access_token=ya29.a0AfH6SM', 'assignment'),
        ('Authorization: Basic dXNlcjpwYXNzd29yZA==', 'basic_auth'),
        ('glpat-' + 'x1Y2z3A4b5C6d7E8f9G0', 'gitlab_token'),
        ('AIza' + 'SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY', 'google_api_key'),
        ('token = ${GITHUB_TOKEN}', None),
        ('max_tokens=500', None),
        ('KeyError: token', None),
    ],
)
def test_forms_of_secrets(text: str, kind: str | None) -> None:
    result = scrub(text)
    assert result.counts == ({kind: 1} if kind else {})


def test_bytes_variant_keeps_undecodable_bytes_and_scrubbing_can_be_configured() -> None:
    data = b'\xff\xfe binary prefix\npassword=hunter2\n'
    result = scrub_bytes(data)
    assert result.text == b'\xff\xfe binary prefix\npassword=[REDACTED:assignment]\n'
    assert Scrubber(enabled=False).scrub('password=hunter2').text == 'password=hunter2'
    assert DEFAULT_SCRUBBER.scrub('').counts == {}


def test_retention_writes_scrubbed_originals() -> None:
    store = MemoryStore()
    record = asyncio.run(Retention('failures').retain(CommandOutput(DEPLOY_LOG, exit_status=1), store, key='deploy'))
    stored = store.data['deploy'].decode()
    assert record.redactions == 10
    for secret in SECRETS:
        assert secret not in stored
    assert 'error: deploy failed' in stored


def test_stored_files_and_all_telemetry_are_free_of_secrets(tmp_path: Path, otel: OTelHarness) -> None:
    limits = ToolOutputLimits(
        per_tool={
            'deploy': [Band(over=500, action=Condense(max_chars=800, retain='always'))],
            'show_env': [Band(over=500, action=Offload())],
        },
        store=LocalFileStore(base_dir=tmp_path),
    )
    script = Script([respond(call('deploy', call_id='a'), call('show_env', call_id='b')), done()])
    agent: Agent[None, str] = Agent(script.model(), capabilities=[limits])
    agent.tool_plain(name='deploy')(lambda: CommandOutput(DEPLOY_LOG, exit_status=1))
    agent.tool_plain(name='show_env')(lambda: DEPLOY_LOG)
    result = agent.run_sync('deploy')
    assert result.output == 'done'
    files = [path for path in tmp_path.rglob('*') if path.is_file()]
    assert len(files) == 2
    for path in files:
        stored = path.read_text()
        assert 'error: deploy failed' in stored
        for secret in SECRETS:
            assert secret not in stored, (path.name, secret)
            assert secret not in path.name
    # The offload summary shown to the model is built from the scrubbed text too.
    offloaded = [p for p in result.all_messages()[-2].parts if getattr(p, 'tool_name', '') == 'show_env']
    for secret in SECRETS:
        assert secret not in str(offloaded)
    spans = otel.our_spans()
    assert {span.name for span in spans} >= {names.SPAN_CONDENSE, names.SPAN_OFFLOAD, names.SPAN_RETAIN}
    for span in spans:
        flat = str(dict(span.attributes or {})) + str([event.attributes for event in span.events])
        for secret in SECRETS:
            assert secret not in flat
    for point in otel.points():
        for secret in SECRETS:
            assert secret not in str(point.attributes)
    assert otel.delta(names.BOUNDED_REDACTIONS_TOTAL.name, kind='jwt') == 4  # retained once, offloaded once
    assert otel.delta(names.BOUNDED_REDACTIONS_TOTAL.name) == 20
    [offload_span] = otel.spans(names.SPAN_OFFLOAD)
    assert dict(offload_span.attributes or {})[names.BOUNDED_REDACTIONS] == 10


# The fast paths (the one-pass gate on each engine; without one, hints looked up by their rarest character
# and regexes tried only where a match can begin) must scrub exactly what running every regex over the
# whole text scrubs.
EVERYWHERE = Scrubber(
    patterns=tuple(dataclasses.replace(p, hints=(), starts=(), gate=()) for p in DEFAULT_PATTERNS), engine='python'
)
# The assignment regex as it was before it opened with its look-behind (`(?<![^\W_])`): slower, same matches.
_OLD_ASSIGNMENT = re.compile(
    r'(?<![\w.-])(?:[\w.-]*?[_.-])?' + _ASSIGNED_NAME + r'["\']?\s*[:=]\s*'
    r'(?!\[REDACTED)(?:"([^"\n]*)"|\'([^\'\n]*)\'|([^\s"\',;&)}\]]+))',
    re.IGNORECASE,
)

_FRAGMENTS = (
    *SECRETS,
    'password',
    'PASSWD',
    'db_password',
    'aws.secret_key',
    'x-api-key',
    'apikey',
    'client_secret',
    'auth-token',
    'Credentials',
    'mypassword',
    'token',
    'key',
    'Bearer ',
    '--db-password ',
    '--token ',
    '--',
    'authorization: Basic ',
    'https://',
    '9://',
    'user:',
    '@host',
    'sk-',
    'sk-ant-',
    'ghp_',
    'github_pat_',
    'AKIA',
    'AIza',
    'eyJ',
    'xoxb-',
    'glpat-',
    'npm_',
    'pypi-',
    '-----BEGIN PRIVATE KEY-----',
    '[REDACTED:x]',
    '$VAR',
    '"',
    "'",
    '=',
    ': ',
    ' ',
    '\n',
    '_',
    '.',
    '-',
    '/',
    'pa\u017f\u017fword',  # long s: re.IGNORECASE reads it as s
    'to\u212aen',  # Kelvin sign: lowered to k
    '\u0130',  # dotted capital I: lowering makes the text longer
    'caf\u00e9 \u2026',
)
_ALPHABET = st.characters(
    codec='utf-8', categories=('L', 'N', 'P', 'S', 'Zs'), include_characters='\n\t\u017f\u0131\u0130\u212a\u3000'
)
_NAMES = (
    'password',
    'passwd',
    'passphrase',
    'secret',
    'token',
    'api_key',
    'api-key',
    'apikey',
    'access_key',
    'secret-key',
    'private_key',
    'client_secret',
    'auth_token',
    'auth-token',
    'authtoken',
    'accesskey',
    'secretkey',
    'privatekey',
    'clientsecret',
    'credential',
    'credentials',
    'pa\u017f\u017fword',
    'pa\u017f\u017fphrase',
    'to\u212aen',
    '\u0130',  # dotted capital I: re.IGNORECASE reads it as i
    'prıvate_key',  # dotless i
)
_ASSIGNMENTS = st.tuples(
    st.sampled_from(('', 'DB_', 'aws.', 'x-', 'my', '"', ' ')),
    st.sampled_from(_NAMES).flatmap(lambda name: st.sampled_from((name, name.upper(), name.title()))),
    st.sampled_from(('=', ': ', '="', "='", '" : "', ' = ')),
    st.text(alphabet='abcXYZ019&-_.$<{', min_size=0, max_size=16),
).map(''.join)
_SECRETISH = st.lists(
    st.one_of(
        _ASSIGNMENTS,
        st.sampled_from(_FRAGMENTS),
        st.sampled_from(_FRAGMENTS).map(str.upper),
        st.text(alphabet=_ALPHABET, max_size=12),
        st.text(alphabet='abcdefABCDEF0123456789_-', min_size=8, max_size=48),
    ),
    max_size=40,
).map(''.join)


@given(text=_SECRETISH)
@example('pa\u017f\u017fword=hunter2x')  # long s: only folding it finds the hint and the place
@example('AUTHTOKEN=abcdef12 clientsecret: xyz')  # names whose every start matters
@example('\u0130 password=abc token=def')  # lowering makes this text longer than it is
@example('token=a token=b Bearer abcdefgh12 bearer zyxwvuts99 password="p w"')  # adjacent matches
@example(f'{GITHUB}{GITHUB} x{AWS_KEY} {AWS_KEY}')  # a start inside a match, a start inside a word
@example('--A.prİvate_key x --\u212a-token\u3000y')  # folded letters inside a flag's name
@example('Bearer\u3000\u3000abcdefgh12 https://u\u00e9:p\u212aw@h')  # Unicode space and letters inside matches
@example('password' + ' ' * 40 + '= hunter2x')  # more space than the first form allows
@pytest.mark.parametrize('engine', ENGINES)
def test_the_fast_paths_scrub_exactly_what_every_regex_run_everywhere_scrubs(engine: Engine, text: str) -> None:
    fast, everywhere = Scrubber(engine=engine).scrub(text), EVERYWHERE.scrub(text)
    assert (fast.text, dict(fast.counts)) == (everywhere.text, dict(everywhere.counts))


@given(text=_SECRETISH)
def test_the_assignment_regex_finds_what_its_slower_form_found(text: str) -> None:
    new = next(p for p in DEFAULT_PATTERNS if p.kind == 'assignment')
    old = dataclasses.replace(new, pattern=_OLD_ASSIGNMENT, hints=(), starts=(), gate=())
    assert Scrubber(patterns=(new,)).scrub(text) == Scrubber(patterns=(old,)).scrub(text)


@pytest.mark.parametrize('engine', ENGINES)
def test_the_fast_paths_scrub_real_output_exactly_like_every_regex_everywhere(
    engine: Engine, real_outputs: dict[str, RealOutput]
) -> None:
    scrubber = Scrubber(engine=engine)
    for output in real_outputs.values():
        text = output.text
        middle = len(text) // 2
        planted = f'{text[:middle]}\nexport DB_PASSWORD={DB_PASSWORD} GITHUB_TOKEN={GITHUB}\n{text[middle:]}'
        for sample in (text, planted):
            fast, everywhere = scrubber.scrub(sample), EVERYWHERE.scrub(sample)
            assert (fast.text, dict(fast.counts)) == (everywhere.text, dict(everywhere.counts)), output.name
        scrubbed = scrubber.scrub(planted)
        assert DB_PASSWORD not in scrubbed.text and GITHUB not in scrubbed.text, output.name


def test_url_credentials_are_found_after_any_scheme_like_character() -> None:
    # From `://` on: a scheme the old form did not take for one (it began with a digit) is scrubbed too.
    assert scrub('git clone https://deploy:hunter2x@git.example/x').counts == {'url_credentials': 1}
    assert scrub('9p://deploy:hunter2x@host').text == '9p://deploy:[REDACTED:url_credentials]@host'
    assert scrub('see http://example.com/a:b@c and mailto:x@y').counts == {}
