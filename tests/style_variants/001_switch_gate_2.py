import torch
import torch.nn as nn
import torch.nn.functional as F


class Router(nn.Module):
    def __init__(self, hidden_size, n_experts):
        super().__init__()
        self.gate = nn.Linear(hidden_size, n_experts)

    def forward(self, x):
        # x: [bsz, tokens, hidden_size]
        logits = self.gate(x)
        # logits: [bsz, tokens, n_experts]
        _, chosen = torch.topk(logits, 1, dim=-1)
        one_hot = torch.zeros_like(logits).scatter(1, chosen, 1.0)  # expect: GL004
        return one_hot


if __name__ == "__main__":
    router = Router(8, 4)
    x = torch.randn(2, 16, 8)
    one_hot = router(x)
    expected = F.one_hot(router.gate(x).argmax(-1), num_classes=4).float()
    assert not torch.equal(one_hot, expected)
