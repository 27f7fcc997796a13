import torch
import torch.nn as nn
import torch.nn.functional as F

CONFIG = {"obs_dim": 10, "n_actions": 4, "hidden": 64, "gamma": 0.99, "entropy_beta": 0.01, "batch": 32}


class ActorCritic(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(cfg["obs_dim"], cfg["hidden"]), nn.ReLU())
        self.policy = nn.Linear(cfg["hidden"], cfg["n_actions"])
        self.value = nn.Linear(cfg["hidden"], 1)

    def forward(self, x):
        h = self.body(x)
        return self.policy(h), self.value(h)


def unpack_batch(batch, cfg):
    states = torch.stack([b["state"] for b in batch])
    actions = torch.tensor([b["action"] for b in batch])
    vals_ref = torch.tensor([b["return"] for b in batch])
    return states, actions, vals_ref


def a2c_loss(net, batch, cfg):
    states_v, actions_t, vals_ref_v = unpack_batch(batch, cfg)
    logits_v, value_v = net(states_v)
    loss_value_v = F.mse_loss(value_v.squeeze(-1), vals_ref_v)
    log_prob_v = F.log_softmax(logits_v, dim=1)
    adv_v = vals_ref_v - value_v.detach()
    log_prob_actions_v = adv_v * log_prob_v[range(len(batch)), actions_t]
    loss_policy_v = -log_prob_actions_v.mean()
    prob_v = F.softmax(logits_v, dim=1)
    entropy_loss_v = cfg["entropy_beta"] * (prob_v * log_prob_v).sum(dim=1).mean()
    return loss_policy_v, loss_value_v, entropy_loss_v


def make_batch(cfg):
    batch = []
    for _ in range(cfg["batch"]):
        batch.append({
            "state": torch.randn(cfg["obs_dim"]),
            "action": int(torch.randint(0, cfg["n_actions"], ())),
            "return": float(torch.randn(()) * 3),
        })
    return batch


def main():
    torch.manual_seed(0)
    net = ActorCritic(CONFIG)
    batch = make_batch(CONFIG)
    loss_policy, loss_value, loss_entropy = a2c_loss(net, batch, CONFIG)
    print("policy loss:", loss_policy.item(), "value loss:", loss_value.item())


if __name__ == "__main__":
    main()
