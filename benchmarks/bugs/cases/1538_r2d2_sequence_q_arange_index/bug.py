import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class RecurrentQNet(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden):
        super().__init__()
        self.encoder = nn.Linear(obs_dim, hidden)
        self.rnn = nn.LSTM(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_actions)

    def init_hidden(self, batch_size):
        h = torch.zeros(1, batch_size, self.rnn.hidden_size)
        return h, h.clone()

    def forward(self, obs, hidden):
        out, hidden = self.rnn(torch.relu(self.encoder(obs)), hidden)
        return self.head(out), hidden


class R2D2Agent:
    def __init__(self, qnet, discount=0.99, burn_frames=2, double=True):
        self.qnet = qnet
        self.target_qnet = copy.deepcopy(qnet)
        self.discount = discount
        self.burn_frames = burn_frames
        self.double = double

    def td_loss(self, batch):
        batch_size = batch["obs"].size(0)
        hidden = self.qnet.init_hidden(batch_size)
        target_hidden = self.target_qnet.init_hidden(batch_size)

        pred_qvals, _ = self.qnet(batch["obs"], hidden)
        actions = batch["action"].long()
        pred_qvals = pred_qvals[torch.arange(pred_qvals.size(0)), actions]

        with torch.no_grad():
            next_qvals, _ = self.target_qnet(batch["next_obs"], target_hidden)
            if self.double:
                online_next, _ = self.qnet(batch["next_obs"], hidden)
                next_action = online_next.argmax(-1, keepdim=True)
                next_qvals = next_qvals.gather(-1, next_action).squeeze(-1)
            else:
                next_qvals = next_qvals.max(-1).values
            q_targets = batch["reward"] + self.discount * next_qvals * (1 - batch["done"])

        loss = F.smooth_l1_loss(pred_qvals, q_targets, reduction="none")
        mask = torch.ones(loss.size(-1))
        mask[: self.burn_frames] = 0.0
        return (loss * mask).sum() / (mask.sum() * batch_size)


def sample_sequences(num_seqs, seq_len, obs_dim, n_actions):
    return {
        "obs": torch.randn(num_seqs, seq_len, obs_dim),
        "next_obs": torch.randn(num_seqs, seq_len, obs_dim),
        "action": torch.randint(0, n_actions, (num_seqs, seq_len)),
        "reward": torch.randn(num_seqs, seq_len),
        "done": (torch.rand(num_seqs, seq_len) < 0.1).float(),
    }


if __name__ == "__main__":
    torch.manual_seed(0)
    agent = R2D2Agent(RecurrentQNet(obs_dim=6, n_actions=5, hidden=32))
    batch = sample_sequences(num_seqs=4, seq_len=8, obs_dim=6, n_actions=5)
    loss = agent.td_loss(batch)
    print("R2D2 loss:", loss.item())
