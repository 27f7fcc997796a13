import torch
import torch.nn as nn


def loss_func(pred, target):
    return torch.mean((pred - target) ** 2)


def make_arms_model(cfg):
    return nn.Sequential(nn.Linear(cfg["context_dim"], cfg["hidden"]), nn.Tanh(), nn.Linear(cfg["hidden"], cfg["arms"]))


def collect(cfg, generator):
    contexts = torch.randn(cfg["batch"], cfg["context_dim"], generator=generator)
    arms = torch.randint(0, cfg["arms"], (cfg["batch"],), generator=generator)
    true_w = torch.linspace(-1, 1, cfg["context_dim"] * cfg["arms"]).view(cfg["arms"], cfg["context_dim"])
    rewards = (true_w[arms] * contexts).sum(-1)
    return contexts, arms, rewards


def predicted_reward(model, contexts, arms):
    return model(contexts).gather(1, arms.unsqueeze(1)).squeeze(1)


def train(cfg):
    torch.manual_seed(cfg["seed"])
    generator = torch.Generator().manual_seed(cfg["seed"])
    model = make_arms_model(cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
    for _ in range(cfg["steps"]):
        contexts, arms, rewards = collect(cfg, generator)
        loss = loss_func(predicted_reward(model, contexts, arms), rewards)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


def evaluate(model, cfg):
    contexts, arms, rewards = collect(cfg, torch.Generator().manual_seed(123))
    with torch.no_grad():
        pred = predicted_reward(model, contexts, arms)
        per_sample = [(pred[i].item() - rewards[i].item()) ** 2 for i in range(len(rewards))]
    return sum(per_sample) / len(per_sample)


if __name__ == "__main__":
    cfg = {"context_dim": 4, "hidden": 32, "arms": 3, "batch": 64, "lr": 3e-2, "steps": 60, "seed": 0}
    model = train(cfg)
    contexts, arms, rewards = collect(cfg, torch.Generator().manual_seed(123))
    with torch.no_grad():
        batched = loss_func(predicted_reward(model, contexts, arms), rewards).item()
    mse = evaluate(model, cfg)
    assert abs(batched - mse) < 1e-5
    assert mse < 0.25 * rewards.var().item()
    print("ok")
