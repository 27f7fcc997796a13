import torch
import torch.nn as nn
import torch.nn.functional as F


class DQNetwork(nn.Module):
    def __init__(self, frame_shape, n_actions):
        super().__init__()
        c, h, w = frame_shape
        self.conv = nn.Sequential(nn.Conv2d(c, 8, 3, stride=2), nn.ELU(), nn.Flatten())
        self.fc = nn.Linear(8 * ((h - 3) // 2 + 1) * ((w - 3) // 2 + 1), n_actions)

    def forward(self, frames):
        return self.fc(self.conv(frames))  # [B, A]


def dqn_loss(net, frames, actions, target_q, n_actions):
    # frames: [B, C, H, W], actions: [B], target_q: [B]
    q_values = net(frames)  # [B, A]
    actions_ = F.one_hot(actions, n_actions).float()  # [B, A]
    q = torch.sum(q_values * actions_, dim=1)  # Q(s, a) of the action taken
    return torch.mean((target_q - q) ** 2), q


if __name__ == "__main__":
    torch.manual_seed(0)
    net = DQNetwork(frame_shape=(4, 21, 21), n_actions=3)
    frames = torch.randn(16, 4, 21, 21)  # [B, C, H, W]
    actions = torch.randint(0, 3, (16,))  # [B]
    target_q = torch.randn(16)  # [B]
    loss, q = dqn_loss(net, frames, actions, target_q, 3)
    with torch.no_grad():
        q_ref = net(frames)[torch.arange(16), actions]
    assert q.shape == (16,)
    assert torch.allclose(loss, ((target_q - q_ref) ** 2).mean(), atol=1e-6)
    print("ok")
