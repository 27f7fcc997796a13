import torch
import torch.nn.functional as F


def top1_dispatch(scores):
    """scores (torch.FloatTensor of shape (batch_size, seq_len, num_experts))"""
    expert_idx = scores.argmax(dim=-1, keepdim=True)
    mask = torch.zeros_like(scores)
    mask.scatter_(dim=1, index=expert_idx, value=1.0)  # expect: GL004
    return mask


if __name__ == "__main__":
    scores = torch.randn(2, 16, 4)
    mask = top1_dispatch(scores)
    expected = F.one_hot(scores.argmax(-1), num_classes=4).float()
    assert not torch.equal(mask, expected)
