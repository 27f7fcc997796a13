import torch
import torch.nn as nn
import torch.nn.functional as F


class CNNQValueMultiHeadNetwork(nn.Module):
    """One head per action: forward returns the value of every action for every state."""

    def __init__(self, input_channels, input_size, action_dim, hidden_dim=32):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(input_channels, 4, 3, padding=1), nn.ReLU(), nn.Flatten())
        self.mlp = nn.Sequential(nn.Linear(4 * input_size * input_size, hidden_dim), nn.ReLU(),
                                 nn.Linear(hidden_dim, action_dim))

    def forward(self, state_batch):
        return self.mlp(self.conv(state_batch))

    def get_q_values(self, state_batch, action_batch):
        q_all = self.forward(state_batch)
        if action_batch.dim() == 1:
            action_batch = action_batch.unsqueeze(-1)
        q_values = q_all.gather(1, action_batch)
        # one action per state -> one value per state; several candidate actions -> keep them
        if len(action_batch) == 1:
            q_values = q_values.squeeze(-1)
        return q_values


class DeepQLearning:
    def __init__(self, network, target_network, discount_factor=0.99, lr=1e-2):
        self._Q = network
        self._Q_target = target_network
        self._discount_factor = discount_factor
        self._optimizer = torch.optim.SGD(self._Q.parameters(), lr=lr)

    def learn_batch(self, batch):
        state_action_values = self._Q.get_q_values(batch["state"], batch["action"])
        with torch.no_grad():
            next_q = self._Q_target(batch["next_state"]).max(dim=1).values
            expected = batch["reward"] + self._discount_factor * next_q * (1 - batch["terminated"])
        loss = F.mse_loss(state_action_values, expected)
        self._optimizer.zero_grad()
        loss.backward()
        self._optimizer.step()
        return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    q_net = CNNQValueMultiHeadNetwork(input_channels=2, input_size=5, action_dim=3)
    target = CNNQValueMultiHeadNetwork(input_channels=2, input_size=5, action_dim=3)
    target.load_state_dict(q_net.state_dict())
    learner = DeepQLearning(q_net, target)
    batch = {
        "state": torch.randn(8, 2, 5, 5),
        "action": torch.randint(0, 3, (8,)),
        "reward": torch.randn(8),
        "next_state": torch.randn(8, 2, 5, 5),
        "terminated": torch.zeros(8),
    }
    with torch.no_grad():
        q = q_net.get_q_values(batch["state"], batch["action"])
        next_q = target(batch["next_state"]).max(dim=1).values
        td = batch["reward"] + 0.99 * next_q - q_net(batch["state"])[torch.arange(8), batch["action"]]
    print("q values shape:", tuple(q.shape))
    print("loss:", round(learner.learn_batch(batch), 4), "mean squared TD error:", round(td.pow(2).mean().item(), 4))
