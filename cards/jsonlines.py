"""The engine's command lines: one line in, one JSON object out (``hands``, ``action_deck``).

Works on bytes so that a line that is not UTF-8 becomes an error line rather than a traceback,
and the output is always UTF-8 whatever the terminal's encoding. A line that cannot be read
answers ``{"error": ..., "line": n}`` and the next lines still work.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from typing import Any, BinaryIO, TextIO


def serve(
    line_result: Callable[[str], dict[str, Any]],
    cannot: str,
    stdin: BinaryIO | TextIO | None = None,
    stdout: BinaryIO | TextIO | None = None,
) -> int:
    """Answer each non-blank line with ``line_result(line)``; an exception becomes
    ``{"error": f"{cannot}: ..."}`` (e.g. "could not read this line")."""
    source: BinaryIO | TextIO = stdin or sys.stdin.buffer
    sink: BinaryIO | TextIO = stdout or sys.stdout.buffer
    try:
        for number, raw in enumerate(source, start=1):
            line = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else str(raw)
            if not line.strip():
                continue
            try:
                result = line_result(line)
            except Exception as error:  # noqa: BLE001 — the contract is: never a traceback
                result = {"error": f"{cannot}: {error}"}
            if "error" in result:
                result["line"] = number
            text = json.dumps(result, ensure_ascii=False) + "\n"
            if isinstance(sink, io.TextIOBase):
                sink.write(text)
            else:
                sink.write(text.encode("utf-8"))  # type: ignore[arg-type]
            sink.flush()
    except (BrokenPipeError, KeyboardInterrupt):
        return 1
    return 0
