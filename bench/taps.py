"""Taps (clicks + keystrokes) to record a typical hand from the sheet page, per variant.

    .venv/bin/python bench/taps.py

Runs the Playwright tests that count them (tests/e2e/test_record_hand.py, a Pixel 7 with
Debian's chromium) and prints their figures. A Slovenian "three" with a partner and one silent
bonus must take at most 8; the tests fail when it takes more.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = "tests/e2e/test_record_hand.py"
SELECT = "slovenian_three or typical_hand_of_every_variant"


def main() -> int:
    with tempfile.TemporaryDirectory() as out:
        env = {
            **os.environ,
            "SCREENSHOT_DIR": out,
            "TEST_SQLITE_PATH": str(Path(out) / "taps-test.sqlite3"),
        }
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", TESTS, "-k", SELECT],
            cwd=ROOT,
            env=env,
        )
        figures = Path(out) / "taps.txt"
        if figures.exists():
            print("\ntaps from the sheet page to a saved hand:")
            print(figures.read_text(), end="")
        return run.returncode


if __name__ == "__main__":
    sys.exit(main())
