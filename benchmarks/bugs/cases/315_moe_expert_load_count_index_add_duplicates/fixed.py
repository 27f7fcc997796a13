import torch
import torch.nn as nn
import torch.nn.functional as F


class Top1Router(nn.Module):
    def __init__(self, d_model, num_experts):
        super().__init__()
        self.num_experts = num_experts
        self.gate = nn.Linear(d_model, num_experts, bias=False)

    def forward(self, x):
        probs = F.softmax(self.gate(x), dim=-1)
        expert_idx = probs.argmax(dim=-1)
        return probs, expert_idx

    def load_balancing_loss(self, probs, expert_idx):
        tokens_per_expert = torch.zeros(self.num_experts)
        tokens_per_expert.index_add_(0, expert_idx, torch.ones(expert_idx.numel()))
        fraction_tokens = tokens_per_expert / expert_idx.numel()
        fraction_probs = probs.mean(dim=0)
        return self.num_experts * torch.sum(fraction_tokens * fraction_probs)


def main():
    torch.manual_seed(0)
    router = Top1Router(d_model=16, num_experts=4)
    tokens = torch.randn(64, 16)
    probs, expert_idx = router(tokens)
    aux = router.load_balancing_loss(probs, expert_idx)
    counts = [0] * 4
    for e in expert_idx.tolist():
        counts[e] += 1
    mean_probs = [sum(float(probs.detach()[i, e]) for i in range(64)) / 64 for e in range(4)]
    ref = 4 * sum(counts[e] / 64 * mean_probs[e] for e in range(4))
    assert abs(aux.item() - ref) < 1e-5, (aux.item(), ref)
    print("ok")


if __name__ == "__main__":
    main()
