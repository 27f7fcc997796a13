import torch
import torch.nn as nn
from jaxtyping import Float, Int
from torch import Tensor


class ValueHead(nn.Module):
    """Reads the value at the last token of each action chunk from per-token hidden states."""

    def __init__(self, hidden_size: int):
        super().__init__()
        self.proj = nn.Linear(hidden_size, 1)

    def forward(
        self, hidden: Float[Tensor, "batch seq hidden"], chunk_end: Int[Tensor, "batch"]
    ) -> Float[Tensor, "batch 1"]:
        per_token = self.proj(hidden).squeeze(-1)
        return per_token.gather(1, chunk_end.unsqueeze(1))


def compute_critic_loss(
    values: Float[Tensor, "batch 1"],
    returns: Float[Tensor, "batch 1"],
    prev_values: Float[Tensor, "batch 1"],
    value_clip: float,
) -> Float[Tensor, ""]:
    assert values.shape == returns.shape == prev_values.shape, (values.shape, returns.shape, prev_values.shape)
    value_pred_clipped = prev_values + (values - prev_values).clamp(-value_clip, value_clip)
    loss_unclipped = (returns - values) ** 2
    loss_clipped = (returns - value_pred_clipped) ** 2
    return 0.5 * torch.max(loss_unclipped, loss_clipped).mean()


def ppo_value_update(value_head: ValueHead, rollout: dict, value_clip: float = 0.2) -> Float[Tensor, ""]:
    values = value_head(rollout["hidden"], rollout["chunk_end"])
    return compute_critic_loss(values, rollout["returns"], rollout["prev_values"], value_clip)


if __name__ == "__main__":
    torch.manual_seed(0)
    head = ValueHead(hidden_size=6)
    rollout = {
        "hidden": torch.randn(4, 5, 6),
        "chunk_end": torch.tensor([4, 2, 3, 4]),
        "returns": torch.tensor([[1.0], [-0.5], [2.0], [0.3]]),
        "prev_values": torch.tensor([[0.1], [0.0], [0.4], [-0.2]]),
    }
    with torch.no_grad():
        loss = ppo_value_update(head, rollout)
        total = 0.0
        for b in range(4):
            v = head.proj(rollout["hidden"][b, rollout["chunk_end"][b]]).item()
            ret, prev = rollout["returns"][b, 0].item(), rollout["prev_values"][b, 0].item()
            clipped = prev + min(max(v - prev, -0.2), 0.2)
            total += max((ret - v) ** 2, (ret - clipped) ** 2)
    assert abs(loss.item() - 0.5 * total / 4) < 1e-5
    print("ok")
