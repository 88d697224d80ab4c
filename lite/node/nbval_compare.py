"""Compare a cell's fresh outputs with its committed ones, the way nbval does on the laptop.

The laptop suite checks lessons with ``pytest --nbval`` and
``tests/nbval_sanitize.cfg``; the browser test (``notebooks.py``, in Pyodide)
has no Jupyter kernel to hand to nbval, so this module repeats nbval 0.11's
rules on plain notebook JSON (no nbformat, which Pyodide does not have):

- markers: ``# NBVAL_IGNORE_OUTPUT`` / ``# NBVAL_CHECK_OUTPUT`` /
  ``# NBVAL_RAISES_EXCEPTION`` / ``# NBVAL_SKIP`` comment lines, or the same
  names as cell tags (``nbval-ignore-output``, ``raises-exception``...);
  a comment wins over a tag;
- streams of one name are joined (a line's text before a ``\\r`` dropped), then every
  output is flattened to ``key -> [values]``: the stream's name, each MIME type
  of ``data``, an error's ``ename`` and ``evalue``; skipped are metadata,
  tracebacks, execution counts, widget model ids and images (their bytes
  differ between machines);
- the same keys, the same number of values per key, and equal values after the
  sanitize file's substitutions; a reference cell that was never run is not
  compared.

One thing nbval does not do: images are compared by presence (a plot that
became text, or vanished, is a difference), not by their bytes.
"""

from __future__ import annotations

import re
from collections import defaultdict

COMMENT_MARKERS = {
    "PYTEST_VALIDATE_IGNORE_OUTPUT": ("check", False),
    "NBVAL_IGNORE_OUTPUT": ("check", False),
    "NBVAL_CHECK_OUTPUT": ("check", True),
    "NBVAL_RAISES_EXCEPTION": ("check_exception", True),
    "NBVAL_SKIP": ("skip", True),
}
TAG_MARKERS = {name.lower().replace("_", "-"): marker for name, marker in COMMENT_MARKERS.items()}
TAG_MARKERS["raises-exception"] = ("check_exception", True)
SKIP_KEYS = {"metadata", "traceback", "prompt_number", "output_type", "name", "execution_count",
             "application/vnd.jupyter.widget-view+json", "image/png", "image/jpeg",
             "image/svg+xml"}
IMAGES = ("image/png", "image/jpeg", "image/svg+xml")
_CARRIAGE_RETURN = re.compile(r"^.*\r(?=[^\n])", re.MULTILINE)


def text(value) -> str:
    """Notebook JSON keeps long strings as lists of lines.

    >>> text(["a\\n", "b"])
    'a\\nb'
    """
    return "".join(value) if isinstance(value, list) else value


def cell_options(cell: dict) -> dict:
    """nbval's options for a cell: check (compare outputs), check_exception, skip.

    >>> cell_options({"source": "x  # no marker\\n# NBVAL_IGNORE_OUTPUT", "metadata": {}})["check"]
    False
    """
    options = {"check": True, "check_exception": False, "skip": False}
    for tag in cell.get("metadata", {}).get("tags", []) or []:
        if tag in TAG_MARKERS:
            key, value = TAG_MARKERS[tag]
            options[key] = value
    for line in text(cell.get("source", "")).splitlines():
        line = line.strip()
        if line.startswith("#") and line.lstrip("#").strip() in COMMENT_MARKERS:
            key, value = COMMENT_MARKERS[line.lstrip("#").strip()]
            options[key] = value
    return options


def read_sanitizers(config: str) -> list[tuple[str, str]]:
    """The (regex, replacement) pairs of an nbval sanitize file, in order."""
    return re.findall(r"^regex: (.*)$\n^replace: (.*)$", config, flags=re.MULTILINE)


def sanitize(value, sanitizers: list[tuple[str, str]]):
    """Apply every substitution to a string; other values (JSON data) pass unchanged.

    >>> sanitize("took 0.25 s", [(r"\\d+\\.\\d+ ?(s|ms|seconds)\\b", "N.NN s")])
    'took N.NN s'
    """
    if not isinstance(value, str):
        return value
    for regex, replacement in sanitizers:
        value = re.sub(regex, replacement, value)
    return value


def coalesce_streams(outputs: list[dict]) -> list[dict]:
    """One output per stream name, in first-seen place, each line cut to what follows its last ``\\r``.

    >>> coalesce_streams([{"output_type": "stream", "name": "stdout", "text": "a"},
    ...                   {"output_type": "stream", "name": "stdout", "text": "x\\rb"}])
    [{'output_type': 'stream', 'name': 'stdout', 'text': 'b'}]
    """
    merged, streams = [], {}
    for output in outputs:
        if output.get("output_type") != "stream":
            merged.append(output)
        elif output["name"] in streams:
            streams[output["name"]]["text"] += text(output["text"])
        else:
            streams[output["name"]] = {**output, "text": text(output["text"])}
            merged.append(streams[output["name"]])
    for stream in streams.values():
        # nbval 0.11 also means to apply backspaces, but its loop never runs (and its pattern,
        # r"[^\n]\b", is a word boundary): doing it here would pass what nbval fails.
        stream["text"] = _CARRIAGE_RETURN.sub("", stream["text"])
    return merged


def flatten(outputs: list[dict], sanitizers: list[tuple[str, str]]) -> dict[str, list]:
    """``key -> [sanitized values]`` over a cell's outputs, as nbval builds it before comparing."""
    flat = defaultdict(list)
    for output in coalesce_streams(outputs):
        if output.get("output_type") == "stream":
            flat[output["name"]].append(sanitize(output["text"], sanitizers))
            continue
        for key, value in output.items():
            if key == "data":
                for mime, content in value.items():
                    if mime not in SKIP_KEYS:
                        flat[mime].append(sanitize(text(content), sanitizers))
            elif key not in SKIP_KEYS:
                flat[key].append(sanitize(text(value), sanitizers))
    return dict(flat)


def images(outputs: list[dict]) -> list[str]:
    """The image types a cell showed, in order: compared by presence only."""
    return [mime for output in outputs for mime in output.get("data", {}) if mime in IMAGES]


def difference(expected: list[dict], got: list[dict], sanitizers: list[tuple[str, str]],
               drawn: bool = True) -> dict | None:
    """None when nbval would pass the cell; else where it differs, shortened for a report.

    ``drawn=False``: in Pyodide, matplotlib is the course's plotter (``react_course.web.plots_offline``),
    whose figures are SVG, not PNG, so images are not compared; the alt text still is.
    """
    want, have = flatten(expected, sanitizers), flatten(got, sanitizers)
    if set(want) != set(have):
        return {"what": "output fields", "expected": sorted(want), "got": sorted(have),
                "sample": shorten(next((str(have[k][0]) for k in set(have) - set(want)), ""))}
    for key in want:
        if len(want[key]) != len(have[key]):
            return {"what": f"number of {key} outputs", "expected": len(want[key]), "got": len(have[key])}
        for left, right in zip(want[key], have[key], strict=True):
            if left != right:
                return {"what": key, **first_different_line(str(left), str(right))}
    if drawn and images(expected) != images(got):
        return {"what": "images", "expected": images(expected), "got": images(got)}
    return None


def first_different_line(expected: str, got: str) -> dict:
    """The first line where two texts part, with its number (1-based), both sides shortened.

    >>> first_different_line("a\\nb\\nc", "a\\nB\\nc")
    {'line': 2, 'expected': 'b', 'got': 'B'}
    """
    left, right = expected.splitlines(), got.splitlines()
    for number, (a, b) in enumerate(zip(left, right, strict=False), start=1):
        if a != b:
            return {"line": number, "expected": shorten(a), "got": shorten(b)}
    number = min(len(left), len(right)) + 1
    pick = lambda lines: shorten(lines[number - 1]) if len(lines) >= number else "<end of output>"  # noqa: E731
    return {"line": number, "expected": pick(left), "got": pick(right)}


def shorten(value: str, limit: int = 160) -> str:
    """
    >>> shorten("x" * 200, 10)
    'xxxxxxxxx…'
    """
    return value if len(value) <= limit else value[: limit - 1] + "…"
