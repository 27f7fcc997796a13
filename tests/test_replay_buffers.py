"""Replay buffers: transitions appended to a list (a deque, a class's `self.buffer`) in a loop, sampled with
`random.sample(buffer, n)` and stacked into batches of n. The facts that carry them: a list of like records
grows by `append` (in a loop too), `random` gives ints, floats and picks of a population, a comparison of
numbers is a bool, a module-level model is read by the functions that call it, `torch.stack`/`torch.tensor`
of a list of n items has n rows. Every shape and every claim is checked in torch."""
import textwrap

import pytest

from .conftest import lint

CLASS_BUFFER = '''
import random
import torch
import torch.nn as nn


class Replay:
    def __init__(self, capacity):
        self.buffer = []
        self.capacity = capacity

    def push(self, s, a, r):
        self.buffer.append((s, a, r))

    def sample(self, n):
        batch = random.sample(self.buffer, n)
        states = torch.stack([b[0] for b in batch])
        actions = torch.tensor([b[1] for b in batch])
        rewards = torch.tensor([b[2] for b in batch], dtype=torch.float32)
        return states, actions, rewards


def td_step(q_net, replay):
    states, actions, rewards = replay.sample(32)
    q = q_net(states).gather(1, actions{COLUMN})
    return ((q.squeeze(1) - rewards) ** 2).mean()


if __name__ == "__main__":
    replay = Replay(100)
    for _ in range(64):
        replay.push(torch.randn(6), random.randrange(3), random.random())
    print(td_step(nn.Linear(6, 3), replay))
'''

MODULE_BUFFER = '''
import random
from collections import deque

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
replay = deque(maxlen=1000)


def sample_minibatch(buffer, batch_size):
    minibatch = random.sample(buffer, batch_size)
    s1 = torch.cat([s for (s, a, r, d) in minibatch])
    acts = torch.tensor([a for (s, a, r, d) in minibatch])
    rews = torch.tensor([r for (s, a, r, d) in minibatch])
    done = torch.tensor([d for (s, a, r, d) in minibatch], dtype=torch.float32)
    return s1, acts, rews, done


def td_loss(batch):
    s1, acts, rews, done = batch
    target = rews + 0.9 * (1 - done) * model(s1).max(dim=1)[0]
    taken = model(s1).gather(dim=1, index=acts.unsqueeze(dim=1)){SQUEEZE}
    return ((taken - target.detach()) ** 2).mean()


if __name__ == "__main__":
    for _ in range(300):
        replay.append((torch.rand(1, 16), random.randrange(4), random.choice([-1.0, 10.0]), random.random() < 0.1))
    print(td_loss(sample_minibatch(replay, 50)))
'''


def _found(code: str):
    return [(f.code, f.line) for f in lint(textwrap.dedent(code))]


def test_a_class_buffer_filled_in_a_loop_gives_its_samples_shapes(torch):
    assert _found(CLASS_BUFFER.replace("{COLUMN}", "")) == [("GL001", 25)]
    transitions = [(torch.randn(6), k % 3, 0.5) for k in range(64)]
    batch = transitions[:32]
    states, actions = torch.stack([b[0] for b in batch]), torch.tensor([b[1] for b in batch])
    assert states.shape == (32, 6) and actions.shape == (32,) and actions.dtype == torch.int64
    with pytest.raises(RuntimeError, match="same number of dimensions"):
        torch.randn(32, 3).gather(1, actions)


def test_the_column_of_actions_is_silent():
    assert _found(CLASS_BUFFER.replace("{COLUMN}", ".unsqueeze(1)")) == []


def test_a_module_deque_sampled_into_a_td_target_grows_the_kept_column(torch):
    found = _found(MODULE_BUFFER.replace("{SQUEEZE}", ""))
    assert found == [("GL006", 24)]
    taken = torch.randn(50, 4).gather(1, torch.randint(0, 4, (50,)).unsqueeze(1))
    done = torch.tensor([k % 2 == 0 for k in range(50)], dtype=torch.float32)
    assert done.shape == (50,) and torch.tensor([random_float for random_float in [0.5] * 50]).dtype == torch.float32
    assert (taken - torch.randn(50)).shape == (50, 50)  # silently a [50, 50] table


def test_the_squeezed_column_is_silent():
    assert _found(MODULE_BUFFER.replace("{SQUEEZE}", ".squeeze(1)")) == []


@pytest.mark.parametrize("variant", ["deque", "zip", "choices", "list copy", "indices"])
def test_other_ways_of_writing_the_buffer_keep_the_finding(variant):
    code = CLASS_BUFFER.replace("{COLUMN}", "")
    if variant == "deque":
        code = code.replace("self.buffer = []", "self.buffer = deque(maxlen=capacity)")
        code = code.replace("import random\n", "import random\nfrom collections import deque\n")
    elif variant == "zip":
        code = code.replace("states = torch.stack([b[0] for b in batch])", "s, a, r = zip(*batch)\n        states = torch.stack(s)")
    elif variant == "choices":
        code = code.replace("random.sample(self.buffer, n)", "random.choices(self.buffer, k=n)")
    elif variant == "list copy":
        code = code.replace("random.sample(self.buffer, n)", "random.sample(list(self.buffer), n)")
    else:
        code = code.replace("batch = random.sample(self.buffer, n)",
                            "idx = np.random.randint(0, len(self.buffer), size=n)\n        batch = [self.buffer[i] for i in idx]")
        code = code.replace("import random\n", "import random\nimport numpy as np\n")
    assert [f.code for f in lint(textwrap.dedent(code))] == ["GL001"]


CONFIG_DRIVER = '''
import torch
import torch.nn as nn

CFG = {"obs_dim": 6, "num_actions": 4, "envs": 8}


class Actor(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.body = nn.Linear(cfg["obs_dim"], cfg["num_actions"])

    def forward(self, obs):
        return self.body(obs).softmax(dim=-1)


def greedy(actor, q, obs):
    actions = torch.argmax(actor(obs))
    return q[torch.arange(q.size(0)), actions]


def main():
    obs = torch.randn(CFG["envs"], CFG["obs_dim"])
    print(greedy(Actor(CFG), torch.randn(CFG["envs"], CFG["num_actions"]), obs))


if __name__ == "__main__":
    main(){MUTATE}
'''


def test_a_module_config_dict_reaches_a_driver_function():
    """The same program with its driver in `main()` keeps the finding: the config dict is written once and
    never changed, so every function reads its values."""
    assert [f.code for f in lint(textwrap.dedent(CONFIG_DRIVER.replace("{MUTATE}", "")))] == ["GL011"]


def test_a_config_dict_written_elsewhere_is_not_carried():
    widen = "\n\ndef widen():\n    CFG['num_actions'] = 40\n"
    code = CONFIG_DRIVER.replace("{MUTATE}", widen)
    assert [f.code for f in lint(textwrap.dedent(code))] == []
