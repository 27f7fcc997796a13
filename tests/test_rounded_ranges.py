"""Integer ranges sent through bfloat16 / float16 and back: the range's top can round up to the
table's size, one past its last row (diffusion timesteps in [0, 1000) stored as bfloat16 reach
1000). Torch is the oracle for the rounding and for the error; near misses whose rounded top still
fits stay silent."""
import textwrap

import pytest

from gather_lint.float_formats import rounded

from .conftest import lint


def findings(code: str):
    return [(f.line, f.code) for f in lint(code)]


def expected(code: str):
    return [(n, "GL011") for n, text in enumerate(textwrap.dedent(code).splitlines(), 1) if text.endswith("# expect")]


def run(code: str):
    scope = {"__name__": "snippet"}
    exec(textwrap.dedent(code), scope)  # noqa: S102 - the snippet under test
    return scope


def test_rounding_matches_torch(torch):
    for dtype, spelled in (("bfloat16", torch.bfloat16), ("float16", torch.float16)):
        numbers = list(range(0, 5000)) + [32767, 50256, 65503, 65504, 100_003, 1_000_001]
        made = torch.tensor(numbers, dtype=torch.float64).to(spelled).double().tolist()
        for number, back in zip(numbers, made):
            assert rounded(number, dtype) == (None if back == float("inf") else int(back)), (dtype, number)


# a noise schedule kept as a buffer; the training step draws timesteps in the latents' dtype
SCHEDULE = """
import torch
import torch.nn as nn


class NoiseSchedule(nn.Module):
    def __init__(self, timesteps: int = 1000):
        super().__init__()
        betas = torch.linspace(1e-4, 0.02, timesteps)
        self.register_buffer("alphas_bar", torch.cumprod(1 - betas, 0))

    def q_sample(self, x0, t, noise):
        a = self.alphas_bar[t.long()].sqrt()[:, None]  # expect
        return a * x0 + (1 - a).sqrt() * noise


def train_step(schedule, x0):
    t = torch.randint(0, 1000, (x0.shape[0],), device=x0.device).to(x0.dtype)
    return schedule.q_sample(x0, t, torch.randn_like(x0))


if __name__ == "__main__":
    schedule = NoiseSchedule()
    train_step(schedule, torch.randn(8, 16, dtype=torch.bfloat16))
"""

# a step embedding looked up with ids drawn below its size and kept in half precision
STEP_EMBEDDING = """
import torch
import torch.nn as nn


class StepConditioned(nn.Module):
    def __init__(self, n_steps, width):
        super().__init__()
        self.n_steps = n_steps
        self.step_table = nn.Embedding(n_steps, width)

    def forward(self, x):
        steps = torch.randint(self.n_steps, (x.shape[0],)).half()
        return x + self.step_table(steps.long())  # expect


if __name__ == "__main__":
    StepConditioned(4096, 8)(torch.randn(3, 8))
"""


def test_bfloat16_timesteps_reach_one_past_the_schedule(torch):
    assert findings(SCHEDULE) == expected(SCHEDULE)
    assert "rounds to 1000" in lint(SCHEDULE)[0].message
    assert torch.tensor(999).to(torch.bfloat16).long().item() == 1000
    schedule = run(SCHEDULE)["NoiseSchedule"]()
    every_step = torch.arange(1000).to(torch.bfloat16)  # what randint(0, 1000) can draw
    with pytest.raises(IndexError, match="index 1000 is out of bounds for dimension 0 with size 1000"):
        schedule.q_sample(torch.randn(1000, 2), every_step, torch.randn(1000, 2))


def test_float16_step_ids_reach_one_past_the_embedding(torch):
    assert findings(STEP_EMBEDDING) == expected(STEP_EMBEDDING)
    assert "rounds to 4096" in lint(STEP_EMBEDDING)[0].message
    layer = run(STEP_EMBEDDING)["StepConditioned"](4096, 8)
    with pytest.raises(IndexError, match="index out of range in self"):
        layer.step_table(torch.arange(4096).half().long())


@pytest.mark.parametrize("program, change, rows", [
    # 1000 is a bfloat16 number: the top of [0, 1001) stays 1000, within 1001 rows
    (SCHEDULE, [("timesteps: int = 1000", "timesteps: int = 1001"), ("randint(0, 1000", "randint(0, 1001")], 1001),
    # float32 holds every integer up to 2**24
    (SCHEDULE, [("dtype=torch.bfloat16", "dtype=torch.float32")], 1000),
    # below 256 bfloat16 is exact
    (SCHEDULE, [("timesteps: int = 1000", "timesteps: int = 200"), ("randint(0, 1000", "randint(0, 200")], 200),
    # 4096 is a float16 number: the top of [0, 4097) stays within 4097 rows
    (STEP_EMBEDDING, [("StepConditioned(4096, 8)", "StepConditioned(4097, 8)")], 4097),
])
def test_ranges_whose_rounded_top_fits_stay_silent(program, change, rows, torch):
    for old, new in change:
        assert old in program
        program = program.replace(old, new)
    found = findings(program)
    # the top fits (no GL011); ids past float16's 2048 still come back as a neighbour's (GL015, silent rounding)
    assert [code for _, code in found] == (["GL015"] if "StepConditioned" in program else [])
    scope = run(program)
    if "NoiseSchedule" in scope:
        dtype = torch.float32 if "float32" in program else torch.bfloat16
        schedule = scope["NoiseSchedule"](rows)
        every_step = torch.arange(rows).to(dtype)
        assert schedule.q_sample(torch.randn(rows, 2), every_step, torch.randn(rows, 2)).shape == (rows, 2)
    else:
        layer = scope["StepConditioned"](rows, 8)
        assert layer.step_table(torch.arange(rows).half().long()).shape == (rows, 8)


# the diffusion `extract` helper: a gather of the schedule at the drawn timesteps
EXTRACT = """
import torch


def extract(schedule, t, x_shape):
    out = schedule.gather(-1, t)  # expect
    return out.reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))


def noisy(x0, schedule):
    t = torch.randint(0, schedule.shape[0], (x0.shape[0],)).bfloat16().long()
    return extract(schedule, t, x0.shape) * x0


if __name__ == "__main__":
    noisy(torch.randn(4, 3, 8, 8), torch.linspace(0.99, 0.01, 1000))
"""


def test_a_gather_of_the_schedule_at_rounded_timesteps_is_an_error_not_a_rounding_warning(torch):
    assert findings(EXTRACT) == expected(EXTRACT)
    scope = run(EXTRACT)
    every_step = torch.arange(1000).bfloat16().long()
    assert int(every_step.max()) == 1000
    with pytest.raises(RuntimeError, match="index 1000 is out of bounds"):
        scope["extract"](torch.linspace(0.99, 0.01, 1000), every_step, (1000, 3))
