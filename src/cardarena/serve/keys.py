"""Optional API keys: a server given a key file answers `/v1` requests only with one of its keys.

The key file holds one key per line, optionally followed by the number of open tables that key
may hold (else the server's `--tables-per-key`); the caps together may not exceed the server's
`--max-tables`, so no key can take another's tables. Blank lines and everything from a `#` that starts
a word are ignored. A key is 16 to 200 printable ASCII characters without spaces. Keys are kept as
SHA-256 digests, compared in constant time, and never appear in an answer or an error.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ApiKeyError, ApiKeyFileError

API_KEY_HEADER = "X-API-Key"
TABLES_PER_KEY = 100
_KEY = re.compile(r"[!-~]{16,200}")
_CAP = re.compile(r"[1-9][0-9]{0,6}")


@dataclass(frozen=True, eq=False)
class ApiKey:
    """One key of the key file, known by its line; it may hold up to `max_tables` open tables."""

    line: int
    max_tables: int
    digest: bytes = field(repr=False)


class ApiKeys:
    """The keys a server accepts."""

    def __init__(self, keys: list[ApiKey]):
        self.keys = keys

    @classmethod
    def load(cls, path: str | Path, tables_per_key: int = TABLES_PER_KEY) -> ApiKeys:
        """The keys of the file at `path`; ApiKeyFileError naming the line of anything wrong."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ApiKeyFileError(f"cannot read the API key file {path}: {error}") from error
        return cls.parse(text, tables_per_key, source=str(path))

    @classmethod
    def parse(cls, text: str, tables_per_key: int = TABLES_PER_KEY, source: str = "the API key file") -> ApiKeys:
        """The keys of a key file's `text` (one key per line, optionally followed by its table cap)."""
        keys: list[ApiKey] = []
        lines_of: dict[bytes, int] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            words = _uncommented(line.split())
            if not words:
                continue
            where = f"{source} line {number}"
            if len(words) > 2:
                raise ApiKeyFileError(f"{where}: expected a key and at most its table cap, found {len(words)} words")
            if not _KEY.fullmatch(words[0]):
                raise ApiKeyFileError(f"{where}: a key is 16 to 200 printable ASCII characters without spaces")
            if len(words) == 2 and not _CAP.fullmatch(words[1]):
                raise ApiKeyFileError(
                    f"{where}: the table cap after the key must be a whole number from 1, got {words[1]!r}"
                )
            digest = _digest(words[0])
            if digest in lines_of:
                raise ApiKeyFileError(f"{where}: the same key as line {lines_of[digest]}")
            lines_of[digest] = number
            keys.append(
                ApiKey(line=number, max_tables=int(words[1]) if len(words) == 2 else tables_per_key, digest=digest)
            )
        if not keys:
            raise ApiKeyFileError(f"{source} holds no key: one key per line")
        return cls(keys)

    def check_caps(self, max_tables: int) -> None:
        """ApiKeyFileError unless the keys' caps add up to at most `max_tables`: then no key's tables
        can take the last free ones from another key, which can always open as many as its cap."""
        total = sum(key.max_tables for key in self.keys)
        if total > max_tables:
            raise ApiKeyFileError(
                f"the {len(self.keys)} API keys' table caps add up to {total}, over the server's {max_tables} tables "
                "(--max-tables): one key could then take the tables the others may open; lower the caps "
                "(--tables-per-key, or a cap after a key) or raise --max-tables"
            )

    def holder(self, presented: str | None) -> ApiKey:
        """The key `presented` in a request's header; ApiKeyError when it is missing or unknown."""
        if not presented:
            raise ApiKeyError(f"this server needs an API key in the {API_KEY_HEADER} header")
        digest = _digest(presented)
        found = None
        for key in self.keys:  # every key compared, so the time taken says nothing about the keys
            if hmac.compare_digest(key.digest, digest):
                found = key
        if found is None:
            raise ApiKeyError(f"the {API_KEY_HEADER} header holds no key this server accepts")
        return found


def _uncommented(words: list[str]) -> list[str]:
    comment = next((index for index, word in enumerate(words) if word.startswith("#")), len(words))
    return words[:comment]


def _digest(key: str) -> bytes:
    return hashlib.sha256(key.encode()).digest()
