import numpy as np
import torch as th
import torch.nn as nn


class PolicyNet(nn.Module):
    def __init__(self, obs_dim, rew_dim, action_dim, net_arch):
        super().__init__()
        layers, last = [], obs_dim + rew_dim
        for width in net_arch:
            layers += [nn.Linear(last, width), nn.Tanh()]
            last = width
        self.net = nn.Sequential(*layers, nn.Linear(last, action_dim))

    def distribution(self, obs, acc_reward):
        logits = self.net(th.cat((obs, acc_reward), dim=-1))
        return th.distributions.Categorical(logits=logits)


class Accrued:
    def __init__(self):
        self.obs, self.accrued, self.actions, self.rewards = [], [], [], []

    def add(self, obs, accrued_reward, action, reward):
        self.obs.append(obs)
        self.accrued.append(accrued_reward)
        self.actions.append([action])
        self.rewards.append(reward)

    def get_all_data(self):
        return (th.tensor(np.array(self.obs), dtype=th.float32), th.tensor(np.array(self.accrued), dtype=th.float32),
                th.tensor(self.actions), th.tensor(np.array(self.rewards), dtype=th.float32))


class EUPG:
    def __init__(self, config, scalarization):
        self.gamma = config["gamma"]
        self.net = PolicyNet(config["obs_dim"], config["rew_dim"], config["action_dim"], config["net_arch"])
        self.optimizer = th.optim.Adam(self.net.parameters(), lr=config["learning_rate"])
        self.scalarization = scalarization
        self.buffer = Accrued()

    def _forward_cumulative_rewards(self, rewards):
        flip_rewards = rewards.flip(dims=[0])
        cumulative_rewards = th.zeros(rewards.shape[1])
        for i in range(len(rewards)):
            cumulative_rewards = self.gamma * cumulative_rewards + flip_rewards[i]
            flip_rewards[i] = cumulative_rewards
        return flip_rewards.flip(dims=[0])

    def policy_loss(self):
        obs, accrued_rewards, actions, rewards = self.buffer.get_all_data()
        discounted_forward_rewards = self._forward_cumulative_rewards(rewards)
        scalarized_values = self.scalarization(discounted_forward_rewards)
        current_distribution = self.net.distribution(obs, accrued_rewards)
        log_probs = current_distribution.log_prob(actions)
        return -th.mean(log_probs * scalarized_values)

    def update(self):
        loss = self.policy_loss()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def fishwood_episode(agent, length, rng):
    accrued = np.zeros(2)
    for t in range(length):
        obs = np.array([t % 2], dtype=np.float32)
        action = int(rng.integers(0, 2))
        reward = np.array([1.0, 0.0]) if action == obs[0] and rng.random() < 0.3 else np.array([0.0, 0.1 * action])
        agent.buffer.add(obs, accrued, action, reward)
        accrued = accrued + reward


if __name__ == "__main__":
    th.manual_seed(0)
    config = {"gamma": 0.99, "obs_dim": 1, "rew_dim": 2, "action_dim": 2, "net_arch": [16], "learning_rate": 1e-3}
    agent = EUPG(config, scalarization=lambda r: th.min(r, dim=-1).values)
    fishwood_episode(agent, length=12, rng=np.random.default_rng(0))
    obs, accrued, actions, rewards = agent.buffer.get_all_data()
    logp = th.log_softmax(agent.net.net(th.cat((obs, accrued), dim=-1)), dim=-1)
    values = agent.scalarization(agent._forward_cumulative_rewards(rewards))
    reinforce = -sum(logp[t, actions[t, 0]] * values[t] for t in range(len(actions))) / len(actions)
    print("policy loss:", round(agent.policy_loss().item(), 5))
    print("REINFORCE loss of the taken actions:", round(reinforce.item(), 5))
