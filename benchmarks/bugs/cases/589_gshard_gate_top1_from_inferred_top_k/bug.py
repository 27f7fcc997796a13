import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GShardGate(nn.Module):
    def __init__(self, d_model, num_expert, top_k=2, capacity=(1.2, 2.4)):
        super().__init__()
        self.gate = nn.Linear(d_model, num_expert)
        self.num_expert = num_expert
        self.top_k = top_k
        self.capacity = capacity
        self.loss = None

    def forward(self, x):
        # x: [S, d_model]
        gate_score = self.gate(x)                                          # [S, E]
        topk_val, topk_idx = torch.topk(gate_score, k=self.top_k, dim=-1)  # [S, K], [S, K]
        S = gate_score.shape[0]
        top_k = topk_idx.shape[0] // gate_score.shape[0]
        top1_idx = topk_idx.view((-1, top_k))[:, 0]                        # [S] first choice per token
        c_e = torch.scatter_add(torch.zeros(self.num_expert), 0, top1_idx,
                                torch.ones_like(top1_idx, dtype=torch.float)) / S   # [E] fraction routed
        m_e = torch.mean(F.softmax(gate_score, dim=1), dim=0)               # [E] mean gate prob
        self.loss = torch.mean(c_e * m_e) * (self.num_expert ** 2)
        capacity = math.ceil(self.capacity[0 if self.training else 1] * S)
        return topk_idx, F.softmax(topk_val, dim=-1), capacity


if __name__ == "__main__":
    torch.manual_seed(0)
    gate = GShardGate(d_model=16, num_expert=4, top_k=2)
    tokens = torch.randn(16, 16)                      # 16 tokens
    idx, val, cap = gate(tokens)
    print("balance loss:", gate.loss.item(), "capacity:", cap)
