"""The README's examples stay true: its scenario loads, its commands parse, its calibration table is current."""

from __future__ import annotations

import re
import subprocess
import sys

from advisor.io.scenario_files import scenario_from_data
from tests.conftest import ROOT, shipped_catalog

README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands_and_ci_runs_the_second():
    blocks = re.findall(r"```sh\n(.*?)\n```", README, re.S)
    install_run, install_test = blocks[0].strip(), blocks[1].strip()
    assert install_run.endswith("pip install . && advisor")
    assert install_test.endswith("pytest")
    assert README.index(install_run) < README.index("## ")
    ci = (ROOT / ".ci/run").read_text(encoding="utf-8")
    assert install_test in ci.splitlines()


def test_readme_scenario_example_loads():
    import tomllib

    section = README[README.index("## Scenario files") :]
    text = re.search(r"```toml\n(.*?)\n```", section, re.S).group(1)
    scenario = scenario_from_data(tomllib.loads(text), "README", text)
    scenario.check_ids(shipped_catalog())
    assert scenario.assumptions.mfu == {"*": 0.4}


def test_readme_calibration_table_is_what_the_model_gives():
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks/calibration_report.py")],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    for line in result.stdout.splitlines()[2:]:
        assert line in README, f"README calibration table is stale: {line}"
