import torch
from jaxtyping import Float, Int
from torch import Tensor
from torch.distributions import Categorical


class Agent:
    def __init__(self, policy, argmax: bool = False):
        self.policy = policy
        self.argmax = argmax

    def act_batch(self, obs: Float[Tensor, "batch obs_dim"]) -> Int[Tensor, " batch"]:
        with torch.no_grad():
            logits = self.policy(obs)
        dist = Categorical(logits=logits)
        if self.argmax:
            action = dist.probs.max(1, keepdim=True)[1][:, 0]
        else:
            action = dist.sample()
        return action


def action_log_probs(
    logits: Float[Tensor, "batch n_actions"], actions: Int[Tensor, " batch"]
) -> Float[Tensor, " batch"]:
    log_probs = logits.log_softmax(dim=-1)
    return log_probs[torch.arange(log_probs.shape[0]), actions]


def evaluate_demo_likelihood(agent, obs: Float[Tensor, "batch obs_dim"]) -> Float[Tensor, ""]:
    actions = agent.act_batch(obs)
    logits = agent.policy(obs).detach()
    return action_log_probs(logits, actions).mean()


if __name__ == "__main__":
    torch.manual_seed(0)
    policy = torch.nn.Linear(16, 7)
    agent = Agent(policy, argmax=True)
    obs = torch.randn(8, 16)
    actions = agent.act_batch(obs)
    logp = action_log_probs(policy(obs).detach(), actions)
    logits = policy(obs).detach()
    ref = []
    for b in range(obs.shape[0]):
        row = logits[b].log_softmax(dim=-1)
        best = max(range(row.shape[0]), key=lambda a: float(row[a]))
        ref.append(float(row[best]))
    assert logp.shape == (obs.shape[0],)
    assert torch.allclose(logp, torch.tensor(ref), atol=1e-6)
    assert abs(evaluate_demo_likelihood(agent, obs).item() - sum(ref) / len(ref)) < 1e-5
    print("ok")
