import torch
import torch.nn as nn
import torch.nn.functional as F

TOKEN_CONFIG = dict(
    x_range=[0.0, 4.0],
    y_range=[-0.4, 0.4],
    x_class=80,
    y_class=40,
)


def tokenize(trajectory, cfg=TOKEN_CONFIG):
    # trajectory: (B, T, 2) per-step (dx, dy) displacements -> tokens (B, T) in [0, x_class * y_class)
    x = trajectory[..., 0].clamp(*cfg["x_range"])
    y = trajectory[..., 1].clamp(*cfg["y_range"])
    x_index = (x - cfg["x_range"][0]) / ((cfg["x_range"][1] - cfg["x_range"][0]) / cfg["x_class"])
    y_index = (y - cfg["y_range"][0]) / ((cfg["y_range"][1] - cfg["y_range"][0]) / cfg["y_class"])
    x_index = x_index.clamp(max=cfg["x_class"] - 1).to(torch.int64)  # (B, T)
    y_index = y_index.clamp(max=cfg["y_class"] - 1).to(torch.int64)  # (B, T)
    return x_index + y_index * cfg["x_class"]  # (B, T)


class TrajectoryTokenEncoder(nn.Module):
    def __init__(self, hidden, num_tokens=TOKEN_CONFIG["x_class"] * TOKEN_CONFIG["y_class"]):
        super().__init__()
        self.action_proj = nn.Linear(num_tokens, hidden, bias=False)
        self.pos = nn.Parameter(torch.zeros(1, 64, hidden))

    def forward(self, trajectory, past_length=11):
        # trajectory: (B, T, 2) -> embeddings (B, past_length, hidden)
        tokens = tokenize(trajectory[:, :past_length])  # (B, past_length)
        one_hot = F.one_hot(tokens, 80 * 40).to(torch.float32)  # (B, past_length, num_tokens)
        return self.action_proj(one_hot) + self.pos[:, : tokens.size(1)]


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = TrajectoryTokenEncoder(hidden=32)
    # (B=3, T=16, 2): forward motion 0.5-3.5 m per step, lateral drift up to +-0.35 m (lane change)
    trajectory = torch.stack([torch.rand(3, 16) * 3.0 + 0.5, (torch.rand(3, 16) - 0.5) * 0.7], dim=-1)
    with torch.no_grad():
        emb = encoder(trajectory)
        W = encoder.action_proj.weight  # (hidden, num_tokens)
        for b in range(3):
            for t in range(11):
                dx = min(max(float(trajectory[b, t, 0]), 0.0), 4.0)
                dy = min(max(float(trajectory[b, t, 1]), -0.4), 0.4)
                xi = min(int(dx / (4.0 / 80)), 79)
                yi = min(int((dy + 0.4) / (0.8 / 40)), 39)
                expected = W[:, xi + yi * 80] + encoder.pos[0, t]
                assert torch.allclose(emb[b, t], expected, atol=1e-6)
    assert emb.shape == (3, 11, 32)
    print("ok")
