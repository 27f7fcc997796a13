import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, s_dim, a_dim):
        super().__init__()
        self.pi1 = nn.Linear(s_dim, 128)
        self.pi2 = nn.Linear(128, a_dim)
        self.v1 = nn.Linear(s_dim, 128)
        self.v2 = nn.Linear(128, 1)

    def forward(self, x):
        logits = self.pi2(torch.tanh(self.pi1(x)))
        values = self.v2(torch.tanh(self.v1(x)))
        return logits, values.squeeze(-1)

    def loss_func(self, s, a, v_t, entropy_beta=0.005):
        logits, values = self.forward(s)
        td = v_t - values
        c_loss = td.pow(2)
        log_probs = logits.log_softmax(dim=1)
        log_prob = log_probs.gather(1, a.view(-1, 1)).squeeze(1)
        entropy = -(log_probs.exp() * log_probs).sum(dim=1)
        a_loss = -(log_prob * td.detach() + entropy_beta * entropy)
        return (c_loss + a_loss).mean()


def n_step_targets(rewards, bootstrap, gamma):
    targets = []
    running = bootstrap
    for r in reversed(rewards):
        running = r + gamma * running
        targets.append(running)
    return torch.tensor(targets[::-1])


def worker_segment(net, cfg):
    states = torch.randn(cfg["update_every"], cfg["s_dim"])
    with torch.no_grad():
        actions = torch.distributions.Categorical(logits=net(states)[0]).sample()
    rewards = torch.randn(cfg["update_every"]).tolist()
    return states, actions, n_step_targets(rewards, 0.0, cfg["gamma"])


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"s_dim": 4, "a_dim": 2, "update_every": 20, "gamma": 0.9}
    net = Net(cfg["s_dim"], cfg["a_dim"])
    s, a, v_t = worker_segment(net, cfg)
    loss = net.loss_func(s, a, v_t)
    logits, values = net(s)
    td = v_t - values
    lp = logits.log_softmax(1)
    ent = -(lp.exp() * lp).sum(1)
    ref = (td.pow(2) - (lp[torch.arange(len(a)), a] * td.detach() + 0.005 * ent)).mean()
    assert torch.allclose(loss, ref, atol=1e-6)
    print("ok")
