"""The recall figures of benchmarks/recall.py may rise, never fall; fixed forms and clean files stay silent.

benchmarks/recall_floor.json holds, per set, the cases detected when it was last raised. After a gain,
raise the floor with `python benchmarks/recall.py --json` (its detected_cases list)."""
import importlib.util
import json
import os
import sys

import pytest

from .bug_sets import ROOT, present_sets

FLOOR = os.path.join(ROOT, "benchmarks", "recall_floor.json")


def _recall_module():
    spec = importlib.util.spec_from_file_location("recall", os.path.join(ROOT, "benchmarks", "recall.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


SETS = present_sets()


@pytest.fixture(scope="module")
def results():
    recall = _recall_module()
    return {name: recall.score_set(path) for name, path in SETS.items()}


@pytest.mark.parametrize("name", sorted(SETS))
def test_no_finding_on_fixed_or_clean_files(name, results):
    assert results[name].false_positives == {}


@pytest.mark.parametrize("name", sorted(SETS))
def test_recall_never_falls(name, results):
    with open(FLOOR, encoding="utf-8") as handle:
        floor = json.load(handle).get(name, {})
    detected = {c.name for c in results[name].cases if c.detected}
    lost = sorted(set(floor.get("detected_cases", ())) - detected)
    assert not lost, f"cases no longer detected: {lost}"
