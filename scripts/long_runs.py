"""Run the long variants of the reliability tests and print their figures.

    .venv/bin/python scripts/long_runs.py                 # crash safety + hidden information
    .venv/bin/python scripts/long_runs.py --only crash -k sqlite
    .venv/bin/python scripts/long_runs.py --json figures.json

Each suite runs under `HYPOTHESIS_PROFILE=long` (five SIGKILLs per game and
database; forty random games per engine through every outbound path) and writes a
JUnit report; this script reads the reports and prints, per test, the outcome,
the time it took and the figures the test recorded with pytest's
`record_property` (games played, actions checked, kills, ...).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

SUITES = {
    "crash": "tests/reliability/test_crash_safety.py",
    "hidden": "tests/api/test_hidden_information.py",
}


def _run_suite(path: str, report: Path, extra: list[str]) -> int:
    env = {**os.environ, "HYPOTHESIS_PROFILE": "long"}
    # record_property needs the xunit1 flavour of the report.
    command = [sys.executable, "-m", "pytest", path, "-q", "--timeout=0", f"--junitxml={report}"]
    command += ["-o", "junit_family=xunit1"]
    return subprocess.call([*command, *extra], cwd=ROOT, env=env)


def _read_report(report: Path) -> list[dict[str, Any]]:
    rows = []
    for case in ET.parse(report).getroot().iter("testcase"):
        outcome = "passed"
        for tag in ("failure", "error", "skipped"):
            if case.find(tag) is not None:
                outcome = {"failure": "FAILED", "error": "ERROR", "skipped": "skipped"}[tag]
        figures = {p.get("name"): p.get("value") for p in case.iter("property")}
        rows.append(
            {
                "test": case.get("name", ""),
                "outcome": outcome,
                "seconds": round(float(case.get("time", 0)), 1),
                "figures": figures,
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(SUITES), action="append")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("-k", dest="keyword", help="pytest -k expression (e.g. sqlite)")
    args = parser.parse_args(argv)
    extra = ["-k", args.keyword] if args.keyword else []

    status = 0
    results: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or sorted(SUITES):
            report = Path(tmp) / f"{name}.xml"
            status |= _run_suite(SUITES[name], report, extra)
            results[name] = _read_report(report) if report.exists() else []

    print()
    for name, rows in results.items():
        print(f"== {name}: {SUITES[name]} (HYPOTHESIS_PROFILE=long)")
        for row in rows:
            figures = ", ".join(f"{k} {v}" for k, v in row["figures"].items())
            print(f"  {row['outcome']:<8} {row['seconds']:>7.1f} s  {row['test']}  {figures}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
