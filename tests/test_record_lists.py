"""Records appended one by one: `batch.append({"state": s, "action": int(a), "return": float(g)})`.

A list of like dicts is one record value; `int(x)` is a Python int and `float(x)` a Python float whatever x
is, so `torch.tensor([b["return"] for b in batch])` is a float32 vector as long as the batch and
`torch.stack([b["state"] for b in batch])` its matrix of rows. An A2C advantage `returns - value` with the
critic's [B, 1] value is then a [B, B] table (a script's: a library's width-1 heads are not followed into every caller). Each claim
runs in torch.
"""
import pytest

from .conftest import lint
from .snippets import call_run as run

torch = pytest.importorskip("torch")

A2C = '''
import torch
import torch.nn as nn

class Critic(nn.Module):
    def __init__(self, obs_dim, hidden):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh())
        self.value = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.value(self.body(x))

def collect(n, obs_dim):
    batch = []
    for _ in range(n):
        batch.append({"state": torch.randn(obs_dim), "action": int(torch.randint(0, 3, ())),
                      "return": float(torch.randn(()))})
    return batch

def advantage(critic, batch):
    states = torch.stack([b["state"] for b in batch])
    returns = torch.tensor([b["return"] for b in batch])
    return returns - critic(states).detach()

def run():
    torch.manual_seed(0)
    return advantage(Critic(6, 8), collect(12, 6))

if __name__ == "__main__":
    print(run().shape)
'''


def test_records_appended_one_by_one_carry_their_fields():
    found = lint(A2C)
    assert [(f.code, f.line) for f in found] == [("GL006", 24)]
    assert "[12, 12]" in found[0].message
    assert run(A2C).shape == (12, 12)


@pytest.mark.parametrize("old, new", [
    ('batch.append({"state": torch.randn(obs_dim), "action": int(torch.randint(0, 3, ())),\n'
     '                      "return": float(torch.randn(()))})',
     'record = {"state": torch.randn(obs_dim), "action": int(torch.randint(0, 3, ())),\n'
     '                  "return": float(torch.randn(()))}\n        batch.append(record)'),
    ("def run():\n    torch.manual_seed(0)\n    return advantage(Critic(6, 8), collect(12, 6))",
     "def run():\n    torch.manual_seed(0)\n    critic, data = Critic(6, 8), collect(12, 6)\n    return advantage(critic, data)"),
    ('if __name__ == "__main__":\n    print(run().shape)', "def main():\n    print(run().shape)\n\nif __name__ == \"__main__\":\n    main()"),
])
def test_the_same_program_written_otherwise_keeps_the_finding(old, new):
    code = A2C.replace(old, new)
    assert code != A2C
    assert [f.code for f in lint(code)] == ["GL006"]
    assert run(code).shape == (12, 12)


def test_the_squeezed_value_is_left_alone():
    fixed = A2C.replace("critic(states).detach()", "critic(states).squeeze(-1).detach()")
    assert lint(fixed) == []
    assert run(fixed).shape == (12,)


def test_a_field_holding_a_list_is_no_number():
    # each record's return is a pair: the tensor is [12, 2], and [12, 2] - [12, 1] is what the author meant
    code = A2C.replace('"return": float(torch.randn(()))', '"return": [float(torch.randn(())), 0.5]')
    assert lint(code) == []
    assert run(code).shape == (12, 2)
