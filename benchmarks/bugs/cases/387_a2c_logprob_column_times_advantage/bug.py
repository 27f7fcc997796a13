import torch
import torch.nn as nn
import torch.nn.functional as F
from jaxtyping import Float, Int


class ActorCritic(nn.Module):
    def __init__(self, obs_dim: int, n_actions: int):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh())
        self.pi = nn.Linear(64, n_actions)
        self.v = nn.Linear(64, 1)

    def forward(
        self, obs: Float[torch.Tensor, "batch obs"]
    ) -> tuple[Float[torch.Tensor, "batch act"], Float[torch.Tensor, "batch"]]:
        h = self.body(obs)
        return self.pi(h), self.v(h).squeeze(-1)


def a2c_loss(
    model: ActorCritic,
    obs: Float[torch.Tensor, "batch obs"],
    act: Int[torch.Tensor, "batch"],
    returns: Float[torch.Tensor, "batch"],
    vf_coef: float = 0.5,
    ent_coef: float = 0.01,
) -> Float[torch.Tensor, ""]:
    logits, values = model(obs)
    log_probs = F.log_softmax(logits, dim=-1)
    log_prob_act = log_probs.gather(1, act.unsqueeze(1))
    advantage = (returns - values).detach()
    actor_loss = -(log_prob_act * advantage).mean()
    critic_loss = F.mse_loss(values, returns)
    entropy = -(log_probs.exp() * log_probs).sum(-1).mean()
    return actor_loss + vf_coef * critic_loss - ent_coef * entropy


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ActorCritic(6, 4)
    obs, act, ret = torch.randn(64, 6), torch.randint(0, 4, (64,)), torch.randn(64) * 3
    loss = a2c_loss(model, obs, act, ret)
    logits, values = model(obs)
    lp = F.log_softmax(logits, -1)
    actor = -sum(lp[i, act[i]] * (ret[i] - values[i]) for i in range(64)) / 64
    ref = actor + 0.5 * F.mse_loss(values, ret) - 0.01 * (-(lp.exp() * lp).sum(-1).mean())
    print("a2c loss:", loss.item(), "per-sample reference:", ref.item())
