import torch
import torch.nn as nn


class TokenCritic(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(hidden_size, hidden_size), nn.Tanh())
        self.value_head = nn.Linear(hidden_size, 1)

    def forward(self, token_states):
        return self.value_head(self.body(token_states))


def value_loss(critic, token_states, returns, action_mask):
    values = critic(token_states)
    action_values = torch.masked_select(values, action_mask)
    action_returns = torch.masked_select(returns, action_mask)
    return ((action_values.mean() - action_returns.mean()) ** 2), action_values


if __name__ == "__main__":
    torch.manual_seed(0)
    critic = TokenCritic(64)
    token_states = torch.randn(12, 64)
    returns = torch.randn(12)
    action_mask = torch.tensor([0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0], dtype=torch.bool)
    loss, action_values = value_loss(critic, token_states, returns, action_mask)
    print("selected values:", action_values.numel(), "for", int(action_mask.sum()), "action tokens")
    print("value loss:", round(loss.item(), 4))
