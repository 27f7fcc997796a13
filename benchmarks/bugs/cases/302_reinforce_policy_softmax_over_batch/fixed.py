import math

import torch
import torch.nn as nn


def build_policy():
    return nn.Sequential(
        nn.Linear(4, 150),
        nn.LeakyReLU(),
        nn.Linear(150, 2),
        nn.Softmax(dim=1),
    )


def discount_rewards(rewards, gamma=0.99):
    steps = torch.arange(len(rewards), dtype=torch.float32)
    disc = torch.pow(gamma, steps) * rewards
    return disc / disc.max()


def episode_loss(model, states, actions, rewards):
    pred_batch = model(states)
    prob_batch = pred_batch.gather(dim=1, index=actions.long().view(-1, 1)).squeeze()
    returns = discount_rewards(rewards)
    return -1 * torch.sum(returns * torch.log(prob_batch))


def main():
    torch.manual_seed(0)
    model = build_policy()
    states = torch.randn(12, 4)
    actions = torch.randint(0, 2, (12,))
    rewards = torch.flip(torch.arange(1, 13, dtype=torch.float32), dims=(0,))
    loss = episode_loss(model, states, actions, rewards)
    logits = model[:3](states).detach()
    returns = discount_rewards(rewards)
    ref = 0.0
    for t in range(12):
        row = [float(v) for v in logits[t]]
        p = math.exp(row[int(actions[t])]) / sum(math.exp(v) for v in row)
        ref += -float(returns[t]) * math.log(p)
    assert abs(loss.item() - ref) < 1e-4, (loss.item(), ref)
    print("ok")


if __name__ == "__main__":
    main()
