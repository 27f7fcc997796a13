import torch
import torch.nn as nn


class TopKGate(nn.Module):
    def __init__(self, dim, num_experts, k):
        super().__init__()
        self.k = k
        self.w_gate = nn.Linear(dim, num_experts, bias=False)

    def _select(self, scores):
        top_idx = scores.topk(self.k, dim=-1).indices
        return top_idx, scores.gather(1, top_idx)  # expect: GL004

    def forward(self, x):
        bsz, seq_len, _ = x.shape
        scores = self.w_gate(x).softmax(dim=-1)
        return self._select(scores)


if __name__ == "__main__":
    gate = TopKGate(8, 16, 2)
    x = torch.randn(2, 20, 8)
    idx, w = gate(x)
    ref = gate.w_gate(x).softmax(-1).gather(-1, idx)
    assert not torch.allclose(w, ref)
