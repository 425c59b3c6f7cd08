"""How long ``python -m rules score`` takes as a whole process, against merely loading the JSON.

    python bench/cli_bench.py [--hands 1000] [--repeats 11] [--tree DIR] [--no-bytecode-cache]

For each family it writes a sheet (the seeded sheets of ``rules_bench``: Slovenian 4 and one
variant of each other family) to a temporary folder, then runs, in turn within each repeat so
that a noisy machine slows both alike:

- ``python -m rules score FILE > /dev/null`` (the engine: start-up, bounded reading, scoring,
  writing the compact JSON);
- ``python -c "import json,sys; json.load(open(sys.argv[1]))" FILE`` (the floor of parsing).

It prints the median CPU time (user and system) of each whole process and their ratio: CPU
time, as ``rules_bench`` takes, so that what other processes on a busy machine take is not
counted (a process waiting for a core does not look slower). The last line reads
``cli ÷ json.load: X (slovenian-4, N hands)``. The target is a ratio of at most 6.
``--tree`` runs the ``rules`` package of another folder (an old copy, to compare).

Both run from compiled bytecode, as an installed package and the standard library behind
``json.load`` do: the engine's modules are compiled once, before the timed runs, into the
temporary folder (``PYTHONPYCACHEPREFIX``), whatever ``PYTHONDONTWRITEBYTECODE`` says.
Otherwise a shell that sets it times Python's compiler on every start of the engine, and
not of ``json``. ``--no-bytecode-cache`` times it so anyway, for comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from rules_bench import FAMILY_VARIANT, sheet_for  # noqa: E402

from rules import scoring, variants  # noqa: E402

JSON_LOAD = "import json,sys; json.load(open(sys.argv[1]))"
TIMEOUT = 60  # seconds for one process: far beyond a 1,000-hand sheet
MAX_REPEATS = 101


def run(command: list[str], cwd: Path, env: dict[str, str]) -> float:
    """CPU time (user and system) of one whole process, its output thrown away."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        command,
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=TIMEOUT,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=scoring.MAX_HANDS)
    parser.add_argument("--repeats", type=int, default=11)
    parser.add_argument("--tree", type=Path, default=ROOT, help="folder holding the rules package")
    parser.add_argument(
        "--no-bytecode-cache", action="store_true", help="compile the engine at every start"
    )
    args = parser.parse_args()
    if not 1 <= args.hands <= scoring.MAX_HANDS:
        parser.error(f"--hands: 1 to {scoring.MAX_HANDS} (a sheet's limit)")
    repeats = max(1, min(args.repeats, MAX_REPEATS))
    registered = {v.family for v in variants()}
    families = [f for f in FAMILY_VARIANT if f in registered]
    with tempfile.TemporaryDirectory(prefix="cli_bench") as folder:
        files = {}
        for family in families:
            files[family] = Path(folder) / f"{family}.json"
            files[family].write_text(json.dumps(sheet_for(family, args.hands)), encoding="utf-8")
        env = dict(os.environ)
        if not args.no_bytecode_cache:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(folder) / "bytecode")
        commands = {
            (family, kind): command
            for family, path in files.items()
            for kind, command in (
                ("cli", [sys.executable, "-m", "rules", "score", str(path)]),
                ("json", [sys.executable, "-c", JSON_LOAD, str(path)]),
            )
        }
        for command in commands.values():  # untimed: writes the bytecode
            run(command, args.tree, env)
        times: dict[tuple[str, str], list[float]] = {key: [] for key in commands}
        for _ in range(repeats):
            for key, command in commands.items():
                times[key].append(run(command, args.tree, env))
    print(f"{'family':<16}{'cli ms':>10}{'json.load ms':>14}{'ratio':>8}   (median of {repeats})")
    lines = []
    for family in families:
        cli = statistics.median(times[family, "cli"])
        plain = statistics.median(times[family, "json"])
        print(f"{family:<16}{cli * 1000:>10.1f}{plain * 1000:>14.1f}{cli / plain:>8.2f}")
        lines.append(
            f"cli ÷ json.load: {cli / plain:.2f} ({FAMILY_VARIANT[family]}, {args.hands} hands)"
        )
    # Slovenian 4 last, as the issue reads it; the other families before it.
    print(*lines[1:], lines[0], sep="\n")


if __name__ == "__main__":
    main()
