import copy

import torch
import torch.nn as nn


class DRQN(nn.Module):
    def __init__(self, num_feats, num_actions, hidden=64):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(num_feats, hidden), nn.ReLU())
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, num_actions)

    def forward(self, x, hx=None):
        out, hx = self.gru(self.body(x), hx)
        return self.head(out), hx


class RecurrentQLearner:
    def __init__(self, num_feats, num_actions, gamma=0.99, nsteps=1):
        self.model = DRQN(num_feats, num_actions)
        self.target_model = copy.deepcopy(self.model)
        self.gamma = gamma
        self.nsteps = nsteps

    def compute_loss(self, batch_vars):
        batch_state, batch_action, batch_reward, non_final_next_states, non_final_mask = batch_vars

        current_q_values, _ = self.model(batch_state)
        current_q_values = current_q_values.gather(1, batch_action).squeeze()

        with torch.no_grad():
            max_next_q_values = torch.zeros_like(batch_reward)
            max_next, _ = self.target_model(non_final_next_states)
            max_next_q_values[non_final_mask] = max_next.max(dim=2)[0]
            expected_q_values = batch_reward + (self.gamma ** self.nsteps) * max_next_q_values

        diff = expected_q_values - current_q_values
        return 0.5 * diff.pow(2).mean(), current_q_values


def make_batch(batch_size, seq_len, num_feats, num_actions):
    states = torch.randn(batch_size, seq_len, num_feats)
    actions = torch.randint(0, num_actions, (batch_size, seq_len, 1))
    rewards = torch.ones(batch_size, seq_len)
    next_last = torch.randn(batch_size, 1, num_feats)
    non_final_mask = torch.tensor([True, True, False, True, True, False])
    next_states = torch.cat([states[:, 1:], next_last], dim=1)[non_final_mask]
    return states, actions, rewards, next_states, non_final_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    learner = RecurrentQLearner(num_feats=4, num_actions=2)
    batch = make_batch(batch_size=6, seq_len=8, num_feats=4, num_actions=2)
    loss, q_taken = learner.compute_loss(batch)

    states, actions, rewards, next_states, mask = batch
    with torch.no_grad():
        q_all, _ = learner.model(states)
        ref = torch.tensor([[q_all[b, t, actions[b, t, 0]].item() for t in range(8)] for b in range(6)])
    print("Q(s_t, a_t) used, sequence 0:", [round(v, 4) for v in q_taken[0].tolist()])
    print("reference,        sequence 0:", [round(v, 4) for v in ref[0].tolist()])
    print("max abs diff vs reference:", (q_taken.detach() - ref).abs().max().item())
