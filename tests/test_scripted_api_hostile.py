"""The scripted server against requests no SDK would send: it answers each in the API's shape and goes on."""

from __future__ import annotations

import copy
import http.client
import json
import socket
from urllib.parse import urlsplit

import pytest
from test_scripted_api import EIFFEL, TOOLS, client, raw

from react_course.scripted_api import serve

RESPONSES_TOOLS = [{"type": "function", **t["function"]} for t in TOOLS]
CHAT = {"model": "m", "tools": TOOLS, "tool_choice": "auto", "stop": ["\nObservation"], "max_tokens": 200,
        "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": EIFFEL},
                     {"role": "assistant", "content": None, "tool_calls": [
                         {"id": "call_1", "type": "function",
                          "function": {"name": "search", "arguments": "{\"query\": \"Eiffel Tower\"}"}}]},
                     {"role": "tool", "tool_call_id": "call_1", "content": "[Eiffel Tower] 330 m"}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": {
            "type": "object", "properties": {"a": {"type": "string"}}}}}}
RESPONSES = {"model": "m", "tools": RESPONSES_TOOLS, "tool_choice": {"type": "function", "name": "search"},
             "instructions": "i", "max_output_tokens": 100,
             "input": [{"role": "user", "content": [{"type": "input_text", "text": EIFFEL}]},
                       {"type": "function_call", "call_id": "c1", "name": "search", "arguments": "{}"},
                       {"type": "function_call_output", "call_id": "c1", "output": "330 m"}],
             "text": {"format": {"type": "json_schema", "name": "n", "schema": {"type": "object"}}}}
COMPLETIONS = {"model": "m", "prompt": ["Question: " + EIFFEL], "max_tokens": 50, "stop": ["\nObservation"],
               "stream": False, "stream_options": None, "n": 1, "temperature": 0}
BAD_VALUES = [None, -1, "x", [], {}, [{}]]


def places(value, path=()):
    """Every place in a JSON value, as a path of keys and indexes."""
    yield path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) \
        else ()
    for key, child in children:
        yield from places(child, (*path, key))


def put(body, path, value):
    body = copy.deepcopy(body)
    target = body
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return body


@pytest.fixture(scope="module")
def demo_url():
    with serve() as base_url:
        yield base_url


@pytest.mark.parametrize("path, body", [("/v1/chat/completions", CHAT), ("/v1/responses", RESPONSES),
                                        ("/v1/completions", COMPLETIONS)])
def test_every_field_made_wrong_gets_an_answer_never_a_crash(demo_url, path, body):
    parts = urlsplit(demo_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)  # one kept-alive connection

    def post(payload: dict) -> tuple[int, dict]:
        conn.request("POST", path, json.dumps(payload), {"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())

    assert post(body)[0] == 200
    statuses = set()
    for place in list(places(body))[1:]:
        for value in BAD_VALUES:
            status, payload = post(put(body, place, value))
            statuses.add(status)
            assert status in (200, 400), (place, value, payload)
            if status != 200:
                assert set(payload["error"]) == {"message", "type", "param", "code"}
    assert statuses == {200, 400}
    conn.close()


def test_malformed_http_gets_an_api_shaped_refusal(demo_url):
    port = int(demo_url.rsplit(":", 1)[1].split("/")[0])
    for request in (b"BREW /v1/models HTTP/1.1\r\nHost: x\r\n\r\n",
                    b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Length: -3\r\n\r\n",
                    b"POST /v1/responses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(request)
            reply = b""
            while chunk := sock.recv(65536):
                reply += chunk
        head, _, body = reply.partition(b"\r\n\r\n")
        assert head.split()[1] in (b"400", b"411", b"501") and json.loads(body)["error"]["message"]
    assert raw(demo_url, "GET", "/v1/models")[0] == 200


def test_the_demo_obeys_a_forced_tool_even_without_a_plan(demo_url):
    reply = client(demo_url).chat.completions.create(
        model="m", messages=[{"role": "user", "content": "Who painted the Mona Lisa?"}], tools=TOOLS,
        tool_choice={"type": "function", "function": {"name": "search"}})
    call = reply.choices[0].message.tool_calls[0]
    assert call.function.name == "search" and json.loads(call.function.arguments) == {
        "query": "Who painted the Mona Lisa?"}


def test_a_recursive_schema_still_gets_json(demo_url):
    schema = {"$defs": {"Node": {"type": "object", "properties": {
        "label": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}},
        "$ref": "#/$defs/Node"}
    reply = client(demo_url).chat.completions.create(
        model="m", messages=[{"role": "user", "content": "Who painted the Mona Lisa?"}],
        response_format={"type": "json_schema", "json_schema": {"name": "tree", "schema": schema}})
    tree = json.loads(reply.choices[0].message.content)
    assert tree["label"].startswith("Offline, the course's scripted model") and tree["children"]


def test_a_megabyte_without_spaces_is_answered(demo_url):
    """Exact byte-pair counting of one long word takes time that grows with its square: estimated instead."""
    reply = client(demo_url).chat.completions.create(model="m", messages=[
        {"role": "user", "content": "x" * 1_000_000}, {"role": "user", "content": "Who are you?"}])
    assert reply.usage.prompt_tokens > 100_000


def test_the_demo_obeys_required_even_when_it_knows_the_answer(demo_url):
    messages = [{"role": "user", "content": "What is today's date?"},
                {"role": "assistant", "content": None, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "today", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "call_1", "content": "Today is Friday, 26 July 2024."}]
    api = client(demo_url)
    free = api.chat.completions.create(model="m", messages=messages, tools=TOOLS)
    assert free.choices[0].message.content == "Today is Friday, 26 July 2024."
    forced = api.chat.completions.create(model="m", messages=messages, tools=TOOLS, tool_choice="required")
    assert forced.choices[0].finish_reason == "tool_calls"
