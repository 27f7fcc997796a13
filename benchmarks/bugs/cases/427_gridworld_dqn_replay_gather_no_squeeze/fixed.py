import random
from collections import deque

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 150), nn.ReLU(), nn.Linear(150, 100), nn.ReLU(), nn.Linear(100, 4))
gamma = 0.9
replay = deque(maxlen=1000)


def sample_minibatch(buffer, batch_size):
    minibatch = random.sample(buffer, batch_size)
    state1_batch = torch.cat([s1 for (s1, a, r, s2, d) in minibatch])
    action_batch = torch.tensor([a for (s1, a, r, s2, d) in minibatch])
    reward_batch = torch.tensor([r for (s1, a, r, s2, d) in minibatch])
    state2_batch = torch.cat([s2 for (s1, a, r, s2, d) in minibatch])
    done_batch = torch.tensor([d for (s1, a, r, s2, d) in minibatch], dtype=torch.float32)
    return state1_batch, action_batch, reward_batch, state2_batch, done_batch


def td_loss(batch):
    state1_batch, action_batch, reward_batch, state2_batch, done_batch = batch
    Q1 = model(state1_batch)
    with torch.no_grad():
        Q2 = model(state2_batch)
    Y = reward_batch + gamma * ((1 - done_batch) * torch.max(Q2, dim=1)[0])
    X = Q1.gather(dim=1, index=action_batch.long().unsqueeze(dim=1)).squeeze()
    return ((X - Y.detach()) ** 2).mean()


if __name__ == "__main__":
    random.seed(0)
    torch.manual_seed(0)
    for _ in range(300):
        s1 = torch.rand(1, 64) / 10.0
        s2 = torch.rand(1, 64) / 10.0
        replay.append((s1, random.randrange(4), random.choice([-1.0, -10.0, 10.0]), s2, random.random() < 0.1))
    batch = sample_minibatch(replay, 200)
    s1b, ab, rb, s2b, db = batch
    loss = td_loss(batch)
    grad = torch.autograd.grad(loss, model[-1].bias)[0]
    with torch.no_grad():
        y = rb + gamma * (1 - db) * model(s2b).max(1)[0]
    q = model(s1b)
    ref_loss = torch.stack([(q[i, ab[i]] - y[i]) ** 2 for i in range(200)]).mean()
    ref_grad = torch.autograd.grad(ref_loss, model[-1].bias)[0]
    assert torch.allclose(loss, ref_loss, atol=1e-5) and torch.allclose(grad, ref_grad, atol=1e-5)
    print("ok")
