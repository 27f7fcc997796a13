import torch
import torch.nn as nn
from jaxtyping import Float, Int


def chosen_action_value(
    values: Float[torch.Tensor, "*batch n_actions"],
    action: Int[torch.Tensor, "*batch"],
) -> Float[torch.Tensor, "*batch 1"]:
    if values.dim() == 1:
        return values[action].unsqueeze(-1)
    batch_size = values.size(0)
    return values[torch.arange(batch_size), action].unsqueeze(-1)


class AgentQNet(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, n_actions))

    def forward(self, obs: Float[torch.Tensor, "*batch obs"]) -> Float[torch.Tensor, "*batch n_actions"]:
        return self.body(obs)


def td_loss(net, obs, action, target: Float[torch.Tensor, "*batch 1"]):
    q_sa = chosen_action_value(net(obs), action)
    return (q_sa - target).pow(2).mean(), q_sa


if __name__ == "__main__":
    torch.manual_seed(0)
    env_cfg = {"num_envs": 4, "n_agents": 4, "obs_dim": 6, "n_actions": 4}
    net = AgentQNet(env_cfg["obs_dim"], env_cfg["n_actions"])
    obs = torch.randn(env_cfg["num_envs"], env_cfg["n_agents"], env_cfg["obs_dim"])
    action = torch.randint(0, env_cfg["n_actions"], (env_cfg["num_envs"], env_cfg["n_agents"]))
    target = torch.randn(env_cfg["num_envs"], env_cfg["n_agents"], 1)
    loss, q_sa = td_loss(net, obs, action, target)
    print("q_sa shape", tuple(q_sa.shape), "loss", loss.item())
