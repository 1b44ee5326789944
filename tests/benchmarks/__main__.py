"""Run every ``bench_*.py`` module in this folder: ``python -m tests.benchmarks [NAME...]``.

Each module exposes ``main()``, which prints its own figures (and may return a non-zero int to
signal a failure). Names given on the command line select modules by substring.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path


def discover() -> list[str]:
    here = str(Path(__file__).resolve().parent)
    return sorted(m.name for m in pkgutil.iter_modules([here]) if m.name.startswith("bench_"))


def main(argv: list[str]) -> int:
    if "--list" in argv:
        print("\n".join(discover()))
        return 0
    names = [n for n in discover() if not argv or any(arg in n for arg in argv)]
    if not names:
        print("No benchmarks to run (add tests/benchmarks/bench_<thing>.py with a main()).")
        return 0
    failed: list[str] = []
    for name in names:
        print(f"=== {name} ===", flush=True)
        module = importlib.import_module(f"{__package__}.{name}")
        run = getattr(module, "main", None)
        if not callable(run):
            print(f"{name} has no main(); nothing run.")
            failed.append(name)
            continue
        started = time.perf_counter()
        outcome = run()
        elapsed = time.perf_counter() - started
        if isinstance(outcome, int) and outcome:
            failed.append(name)
        print(f"--- {name}: {elapsed:.2f} s{' (FAILED)' if name in failed else ''}\n", flush=True)
    if failed:
        print(f"Failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
