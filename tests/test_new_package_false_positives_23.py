"""False findings of the twenty-third set of packages never linted before (benchmarks/README.md, "Twenty-third
set"), each as a small program in the style of the package's code: torch runs it as the package does, and the
linter stays silent. Beside each, the mistake the rule is for, still reported and shown wrong in torch."""
import pytest

from .conftest import codes
from .snippets import run_snippet

torch = pytest.importorskip("torch")

# mpm-pytorch's impulse on the particles inside a cuboid: `target` is a boolean mask handed to the hook through
# functools.partial, and `v[target] = v[target] + dv` adds the impulse once to each selected particle. A key known
# only by its name may be such a mask, which picks each position once: nothing repeats, nothing is lost.
IMPULSE = """
from functools import partial

import torch
from torch import Tensor

def add_impulse(particles: Tensor, hooks: list, center: list, half_size: list, force: list, p_mass: float, dt: float):
    center, half_size, force = torch.tensor(center), torch.tensor(half_size), torch.tensor(force)
    target = torch.all(torch.abs(particles - center) < half_size, dim=1)

    def impulse(v: Tensor, target: Tensor, force: Tensor):
        v[target] = v[target] + force / p_mass * dt

    hooks.append(partial(impulse, target=target, force=force))

if __name__ == "__main__":
    torch.manual_seed(0)
    pos = torch.rand(2000, 3)
    hooks = []
    add_impulse(pos, hooks, [0.5, 0.5, 0.5], [0.1, 0.1, 0.1], [0.0, 0.0, -5.0], 1.0, 3e-4)
    RESULT = torch.zeros(2000, 3)
    for hook in hooks:
        hook(RESULT)
    EXPECTED = torch.zeros(2000, 3)
    for i in range(2000):
        if all(abs(float(pos[i, k]) - 0.5) < 0.1 for k in range(3)):
            EXPECTED[i] += torch.tensor([0.0, 0.0, -5.0]) * 3e-4
"""

# the mistake GL013 is for: the same write with integer ids that repeat loses all but one impulse per particle
REPEATED_IDS = """
import torch
from torch import Tensor

def impulse(v: Tensor, target: Tensor, force: Tensor, dt: float):
    v[target] = v[target] + force * dt

if __name__ == "__main__":
    RESULT = torch.zeros(4, 3)
    impulse(RESULT, torch.tensor([1, 1, 2]), torch.tensor([0.0, 0.0, -5.0]), 1.0)
"""


def test_a_key_known_by_its_name_alone_may_be_a_mask_and_is_left_alone():
    assert codes(IMPULSE) == []
    scope = run_snippet(IMPULSE)
    assert int(scope["RESULT"].abs().sum(1).gt(0).sum()) > 0
    assert torch.allclose(scope["RESULT"], scope["EXPECTED"])


def test_integer_ids_that_repeat_are_still_reported():
    assert codes(REPEATED_IDS) == ["GL013"]
    scope = run_snippet(REPEATED_IDS)
    assert float(scope["RESULT"][1, 2]) == -5.0  # two impulses on particle 1, one kept


def test_the_augmented_spelling_of_the_impulse_is_left_alone_too():
    code = IMPULSE.replace("v[target] = v[target] + force / p_mass * dt", "v[target] += force / p_mass * dt")
    assert code != IMPULSE
    assert codes(code) == []
    scope = run_snippet(code)
    assert torch.allclose(scope["RESULT"], scope["EXPECTED"])


def test_the_augmented_spelling_with_integer_ids_is_still_reported():
    code = REPEATED_IDS.replace("v[target] = v[target] + force * dt", "v[target] += force * dt")
    assert code != REPEATED_IDS
    assert codes(code) == ["GL013"]
    assert float(run_snippet(code)["RESULT"][1, 2]) == -5.0


# a plural name says many ids: with its dtype unknown, `counts[ids] += 1` is still the counting mistake
PLURAL = """
import torch
from torch import Tensor

def count(counts: Tensor, ids: Tensor):
    counts[ids] += 1
    return counts
"""


def test_a_plural_name_of_unknown_dtype_is_still_reported():
    assert codes(PLURAL) == ["GL013"]
    scope = run_snippet(PLURAL)
    out = scope["count"](torch.zeros(4), torch.tensor([1, 1, 2]))
    assert out.tolist() == [0.0, 1.0, 1.0, 0.0]  # id 1 twice, counted once


@pytest.mark.parametrize("name", ["target", "label", "action"])
def test_a_singular_name_of_unknown_dtype_may_be_a_mask(name):
    code = PLURAL.replace("ids", name)
    assert codes(code) == []
    mask = torch.tensor([False, True, True, False])
    assert run_snippet(code)["count"](torch.zeros(4), mask).tolist() == [0.0, 1.0, 1.0, 0.0]
