"""Reading a request's body: a JSON object, sent whole or in chunks.

A client says how long its body is (``Content-Length``) or sends it in chunks
(``Transfer-Encoding: chunked``: each chunk's size in hexadecimal, a line
break, the bytes, a line break; a chunk of size 0 ends the body). Both are read
here, within the server's size limit, and the result must be a JSON object.

What it leaves out: compressed bodies (``Content-Encoding``), which no OpenAI
client sends.
"""

from __future__ import annotations

import json
from typing import Any, BinaryIO

from .wire import APIError

HEX = frozenset(b"0123456789abcdefABCDEF")


def read_chunks(stream: BinaryIO, limit: int) -> bytes:
    r"""A chunked body from ``stream``, refused (413) once it passes ``limit`` bytes.

    >>> import io
    >>> read_chunks(io.BytesIO(b"4\r\n{\"a\"\r\n3\r\n: 1\r\n1\r\n}\r\n0\r\n\r\n"), 100)
    b'{"a": 1}'
    """
    raw = bytearray()
    while True:
        size_line = stream.readline(1024).split(b";")[0].strip()  # ";..." would be a chunk extension
        if not size_line or not set(size_line) <= HEX:
            raise APIError(400, "Invalid chunked body: a chunk's size is not hexadecimal.", None,
                           "invalid_chunked_body")
        size = int(size_line, 16)
        if size == 0:
            while stream.readline(1024).strip():  # trailers, then the blank line
                pass
            return bytes(raw)
        if len(raw) + size > limit:
            raise APIError(413, f"Request body too large: the scripted server accepts at most {limit} "
                           "bytes.", None, "request_too_large")
        chunk = stream.read(size + 2)  # the chunk and its line break
        if len(chunk) < size + 2:
            raise EOFError("the client went away mid-body")
        raw += chunk[:size]


def parse_body(raw: bytes) -> dict[str, Any]:
    """The request body as a JSON object, or the API's error.

    >>> parse_body(b'{"model": "m"}')
    {'model': 'm'}
    >>> parse_body(b'[1]')
    Traceback (most recent call last):
    ...
    react_course.scripted_api.wire.APIError: The request body must be a JSON object, not an array.
    """
    try:
        body = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise APIError(400, "We could not parse the JSON body of your request. The API expects a JSON "
                       f"payload, but what was sent was not valid JSON ({error}).") from None
    if not isinstance(body, dict):
        kind = {list: "an array", str: "a string"}.get(type(body), "a " + type(body).__name__)
        raise APIError(400, f"The request body must be a JSON object, not {kind}.")
    return body
