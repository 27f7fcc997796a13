import torch
import torch.nn.functional as F


def compute_load_balance_loss(top_scores, selected_experts, num_experts):
    num_tokens, top_k = selected_experts.shape
    flat_experts = selected_experts.reshape(-1)
    counts = torch.zeros(num_experts).scatter_add_(0, flat_experts, torch.ones(flat_experts.numel()))
    expert_fraction = counts / (num_tokens * top_k)
    expert_prob = torch.zeros(num_experts).scatter_add_(0, flat_experts, top_scores.reshape(-1)) / num_tokens
    return num_experts * (expert_fraction * expert_prob).sum()


class Router(torch.nn.Module):
    def __init__(self, hidden, num_experts, top_k):
        super().__init__()
        self.gate = torch.nn.Linear(hidden, num_experts, bias=False)
        self.num_experts = num_experts
        self.top_k = top_k

    def forward(self, x):
        probs = F.softmax(self.gate(x), dim=-1)
        top_scores, selected = probs.topk(self.top_k, dim=-1)
        aux = compute_load_balance_loss(top_scores, selected, self.num_experts)
        return top_scores, selected, aux


if __name__ == "__main__":
    torch.manual_seed(0)
    router = Router(hidden=16, num_experts=8, top_k=2)
    tokens = torch.randn(12, 16)
    with torch.no_grad():
        top_scores, selected, aux = router(tokens)
    frac = [0.0] * 8
    prob = [0.0] * 8
    for t in range(12):
        for k in range(2):
            e = selected[t, k].item()
            frac[e] += 1.0 / 24
            prob[e] += top_scores[t, k].item() / 12
    ref = 8 * sum(f * p for f, p in zip(frac, prob))
    assert abs(aux.item() - ref) < 1e-5
    print("ok")
