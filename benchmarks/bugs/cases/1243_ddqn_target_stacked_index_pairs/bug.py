import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Bool, Float, Int
from torch import Tensor


class TradingQNet(nn.Module):
    def __init__(self, n_features: int, n_actions: int, hidden: int = 32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, n_actions))

    def forward(self, state: Float[Tensor, "batch features"]) -> Float[Tensor, "batch actions"]:
        return self.net(state)


def ddqn_targets(
    online: TradingQNet,
    target: TradingQNet,
    rewards: Float[Tensor, " batch"],
    next_states: Float[Tensor, "batch features"],
    not_done: Bool[Tensor, " batch"],
    gamma: float,
) -> Float[Tensor, " batch"]:
    with torch.no_grad():
        best_next: Int[Tensor, " batch"] = online(next_states).argmax(dim=1)
        next_q: Float[Tensor, "batch actions"] = target(next_states)
        batch_idx = torch.arange(next_q.size(0))
        return rewards + gamma * next_q[batch_idx, best_next] * not_done.float()


def train_step(
    online: TradingQNet,
    target: TradingQNet,
    opt: torch.optim.Optimizer,
    states: Float[Tensor, "batch features"],
    actions: Int[Tensor, " batch"],
    rewards: Float[Tensor, " batch"],
    next_states: Float[Tensor, "batch features"],
    not_done: Bool[Tensor, " batch"],
    gamma: float = 0.99,
) -> float:
    targets = ddqn_targets(online, target, rewards, next_states, not_done, gamma)
    q_values: Float[Tensor, "batch actions"] = online(states)
    q_target = q_values.detach().clone()
    idx = torch.stack([torch.arange(states.size(0)), actions])
    q_target[idx] = targets
    loss = F.mse_loss(q_values, q_target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    online, target = TradingQNet(10, 3), TradingQNet(10, 3)
    target.load_state_dict(online.state_dict())
    opt = torch.optim.SGD(online.parameters(), lr=0.0)
    batch = 6
    states, next_states = torch.randn(batch, 10), torch.randn(batch, 10)
    actions = torch.randint(0, 3, (batch,))
    rewards = torch.randn(batch)
    not_done = torch.tensor([True, True, False, True, True, False])
    print("loss:", train_step(online, target, opt, states, actions, rewards, next_states, not_done))
