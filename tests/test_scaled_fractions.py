"""Fractions scaled to a size and made integer: `(1 - u ** 3) * N`, `torch.linspace(0, N, S)` and a
`.round()` of values just below N all include N itself, one past a table of N entries. Each claim
is run in torch: the value N does come out, and the lookup raises."""
import textwrap

import pytest

from .conftest import lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


NOISE_LEVELS = """
import torch
import torch.nn as nn


class NoiseLevels(nn.Module):
    def __init__(self, num_steps, dim):
        super().__init__()
        self.num_steps = num_steps
        self.register_buffer("sigmas", torch.linspace(1e-3, 1.0, num_steps))
        self.step_embed = nn.Embedding(num_steps, dim)

    def forward(self, x):
        u = torch.rand(x.size(0))
        steps = (1.0 - u ** 2) * self.num_steps  # biased towards the noisy end
        steps = steps.to(torch.long)
        noisy = x + self.sigmas[steps].unsqueeze(-1) * torch.randn_like(x)
        return noisy + self.step_embed(steps)


if __name__ == "__main__":
    levels = NoiseLevels(num_steps=500, dim=8)
    print(levels(torch.randn(16, 8)).shape)
"""


def test_one_minus_power_of_rand_scaled_by_the_table_size(torch):
    assert findings(NOISE_LEVELS) == [(17, "GL011"), (18, "GL011")]
    torch.manual_seed(0)
    u = torch.rand(200_000)
    assert int(((1.0 - u ** 2) * 500).to(torch.long).max()) == 500  # 1 - u**2 rounds to 1.0 for u < 1.7e-4
    levels = run(NOISE_LEVELS)["NoiseLevels"](num_steps=500, dim=8)
    torch.manual_seed(0)
    with pytest.raises(IndexError, match="index 500 is out of bounds for dimension 0 with size 500"):
        for _ in range(200):  # each batch of 256 reaches 500 with probability about 4%
            levels(torch.randn(256, 8))


def test_the_same_sampling_scaled_by_size_minus_one_stays_silent(torch):
    fixed = NOISE_LEVELS.replace("* self.num_steps  #", "* (self.num_steps - 1)  #")
    assert findings(fixed) == []
    levels = run(fixed)["NoiseLevels"](num_steps=500, dim=8)
    torch.manual_seed(0)
    for _ in range(200):
        levels(torch.randn(256, 8))


def test_rand_scaled_and_truncated_stays_silent():
    code = NOISE_LEVELS.replace("(1.0 - u ** 2) * self.num_steps", "u * self.num_steps")
    assert findings(code) == []


SCHEDULE = """
import torch
import torch.nn.functional as F

STEPS = 1000


def inference_schedule(table, n):
    positions = torch.linspace(0, STEPS, n).long()
    return F.embedding(positions, table)


def draw(table, n):
    picks = (torch.rand(n) * STEPS).round().long()
    return table.index_select(0, picks)


if __name__ == "__main__":
    weights = torch.randn(STEPS, 4)
    print(inference_schedule(weights, 10).shape, draw(weights, 8).shape)
"""


def test_linspace_to_the_size_and_rounded_draws_reach_it(torch):
    assert findings(SCHEDULE) == [(10, "GL011"), (15, "GL011")]
    assert int(torch.linspace(0, 1000, 10).long().max()) == 1000
    torch.manual_seed(0)
    assert int((torch.rand(100_000) * 1000).round().long().max()) == 1000
    scope = run(SCHEDULE)
    with pytest.raises(IndexError, match="index out of range in self"):
        scope["inference_schedule"](torch.randn(1000, 4), 10)
    with pytest.raises(IndexError, match="index out of range in self"):
        torch.manual_seed(0)
        for _ in range(100):
            scope["draw"](torch.randn(1000, 4), 64)


def test_linspace_to_the_last_index_and_floored_draws_stay_silent(torch):
    code = SCHEDULE.replace("torch.linspace(0, STEPS, n)", "torch.linspace(0, STEPS - 1, n)") \
        .replace(".round().long()", ".floor().long()")
    assert findings(code) == []
    scope = run(code)
    scope["inference_schedule"](torch.randn(1000, 4), 10)
    torch.manual_seed(0)
    for _ in range(100):
        scope["draw"](torch.randn(1000, 4), 64)


def test_clamped_after_scaling_stays_silent():
    code = SCHEDULE.replace("torch.linspace(0, STEPS, n).long()", "torch.linspace(0, STEPS, n).long().clamp(max=STEPS - 1)")
    assert (10, "GL011") not in findings(code)


CONFIG_CLASS = """
import torch


class Schedule:
    def __init__(self, num_train_timesteps):
        self.config = type("Config", (), {"num_train_timesteps": num_train_timesteps})()
        self.alphas = torch.cumprod(1 - torch.linspace(1e-4, 0.02, num_train_timesteps), dim=0)


def sample(schedule, batch):
    t = torch.rand(batch)
    t = ((1 - t ** 3) * schedule.config.num_train_timesteps).long()
    return schedule.alphas[t]


if __name__ == "__main__":
    print(sample(Schedule(1000), 4))
"""


def test_a_config_made_with_type_gives_its_items(torch):
    assert findings(CONFIG_CLASS) == [(14, "GL011")]
    scope = run(CONFIG_CLASS)
    assert scope["Schedule"](1000).config.num_train_timesteps == 1000
    torch.manual_seed(0)
    with pytest.raises(IndexError, match="index 1000 is out of bounds"):
        for _ in range(100):
            scope["sample"](scope["Schedule"](1000), 64)



def test_linspace_with_its_end_dropped_stays_silent(torch):
    code = SCHEDULE.replace("torch.linspace(0, STEPS, n).long()", "torch.linspace(0, STEPS, n + 1)[:-1].long()")
    assert (10, "GL011") not in findings(code)
    assert int(torch.linspace(0, 1000, 11)[:-1].long().max()) == 900


def test_method_spellings_of_the_scaling(torch):
    code = NOISE_LEVELS.replace("(1.0 - u ** 2) * self.num_steps", "(1.0 - u.pow(2)).mul(self.num_steps)")
    assert findings(code) == [(17, "GL011"), (18, "GL011")]
    silent = NOISE_LEVELS.replace("(1.0 - u ** 2) * self.num_steps", "u.pow(2).mul(self.num_steps)")
    assert findings(silent) == []


def test_steps_clamped_in_place_stay_silent(torch):
    code = NOISE_LEVELS.replace("""        steps = steps.to(torch.long)""", """        steps.clamp_(max=self.num_steps - 1)
        steps = steps.to(torch.long)""")
    assert findings(code) == []
    levels = run(code)["NoiseLevels"](num_steps=500, dim=8)
    torch.manual_seed(0)
    for _ in range(200):
        levels(torch.randn(256, 8))
