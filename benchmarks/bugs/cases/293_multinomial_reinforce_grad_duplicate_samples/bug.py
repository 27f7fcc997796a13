import torch
import torch.nn as nn


def multinomial_reinforce_grad(probs, samples, reward):
    """Score-function gradient of the expected reward of actions drawn with replacement from probs."""
    output_probs = probs.gather(1, samples)
    output_probs = output_probs.add(1e-6).reciprocal().neg().mul(reward)
    grad_probs = torch.zeros_like(probs)
    # fill in gradients
    idx = grad_probs.new_ones(grad_probs.size(0)).cumsum(0) - 1
    grad_probs[idx.long()[:, None], samples] = output_probs
    return grad_probs


class SlateBandit:
    def __init__(self, config):
        self.config = config
        self.policy = nn.Sequential(nn.Linear(config["context_dim"], config["hidden"]), nn.Tanh(), nn.Linear(config["hidden"], config["num_arms"]))
        self.optim = torch.optim.SGD(self.policy.parameters(), lr=config["lr"])

    def act(self, contexts, generator):
        probs = self.policy(contexts).softmax(dim=-1)
        samples = torch.multinomial(probs.detach(), self.config["slate_size"], replacement=True, generator=generator)
        return probs, samples

    def update(self, probs, samples, reward):
        self.optim.zero_grad()
        probs.backward(multinomial_reinforce_grad(probs.detach(), samples, reward))
        self.optim.step()


def environment_reward(contexts, samples, arm_values):
    return arm_values[samples] + 0.1 * contexts[:, :1]


if __name__ == "__main__":
    torch.manual_seed(0)
    config = {"context_dim": 3, "hidden": 8, "num_arms": 4, "slate_size": 6, "lr": 0.1}
    agent = SlateBandit(config)
    contexts = torch.randn(5, config["context_dim"])
    probs, samples = agent.act(contexts, torch.Generator().manual_seed(0))
    reward = environment_reward(contexts, samples, torch.tensor([0.1, 0.5, 0.9, 0.2]))
    grad = multinomial_reinforce_grad(probs.detach(), samples, reward)
    expected = torch.zeros_like(probs)
    for i in range(samples.shape[0]):
        for j in range(samples.shape[1]):
            a = samples[i, j].item()
            expected[i, a] -= reward[i, j].item() / (probs[i, a].item() + 1e-6)
    print("slates with a repeated arm:", sum(len(set(r)) < len(r) for r in samples.tolist()), "of", samples.shape[0])
    print("max |grad - per-sample reference|:", round((grad - expected).abs().max().item(), 4))
    agent.update(probs, samples, reward)
