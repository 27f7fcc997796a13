import copy

import torch
import torch.nn as nn


class Config:
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)


def tensor(x, dtype=torch.float32):
    if isinstance(x, torch.Tensor):
        return x.to(dtype)
    return torch.as_tensor(x, dtype=dtype)


class VanillaNet(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(config.state_dim, config.hidden), nn.ReLU())
        self.fc_head = nn.Linear(config.hidden, config.action_dim)

    def forward(self, x):
        return {'q': self.fc_head(self.body(tensor(x)))}


class DQNAgent:
    def __init__(self, config):
        self.config = config
        self.network = VanillaNet(config)
        self.target_network = copy.deepcopy(self.network)

    def compute_loss(self, transitions):
        config = self.config
        with torch.no_grad():
            q_next = self.target_network(transitions['next_state'])['q'].detach()
            if config.double_q:
                best_actions = torch.argmax(self.network(transitions['next_state'])['q'], dim=-1)
                q_next = q_next.gather(1, best_actions.unsqueeze(-1)).squeeze(1)
            else:
                q_next = q_next.max(1)[0]
        masks = tensor(transitions['mask'])
        rewards = tensor(transitions['reward'])
        q_target = rewards + config.discount ** config.n_step * q_next * masks
        actions = tensor(transitions['action']).long()
        q = self.network(transitions['state'])['q']
        q = q.gather(1, actions.unsqueeze(-1)).squeeze(-1)
        return q_target - q


def sample_transitions(config, gen):
    n = config.batch_size
    return {'state': torch.randn(n, config.state_dim, generator=gen),
            'next_state': torch.randn(n, config.state_dim, generator=gen),
            'action': torch.randint(0, config.action_dim, (n,), generator=gen),
            'reward': torch.randn(n, generator=gen),
            'mask': (torch.rand(n, generator=gen) > 0.1).float()}


if __name__ == '__main__':
    torch.manual_seed(0)
    config = Config(state_dim=6, action_dim=3, hidden=32, batch_size=16,
                    discount=0.99, n_step=1, double_q=True)
    agent = DQNAgent(config)
    transitions = sample_transitions(config, torch.Generator().manual_seed(1))
    loss = agent.compute_loss(transitions)
    ref = []
    with torch.no_grad():
        for i in range(config.batch_size):
            s, s2 = transitions['state'][i:i + 1], transitions['next_state'][i:i + 1]
            a_star = int(agent.network(s2)['q'][0].argmax())
            target = (transitions['reward'][i] + config.discount * agent.target_network(s2)['q'][0, a_star]
                      * transitions['mask'][i])
            ref.append(target - agent.network(s)['q'][0, int(transitions['action'][i])])
    ref = torch.stack(ref)
    assert loss.shape == (config.batch_size,), loss.shape
    assert torch.allclose(loss.detach(), ref, atol=1e-5)
    print('ok')
