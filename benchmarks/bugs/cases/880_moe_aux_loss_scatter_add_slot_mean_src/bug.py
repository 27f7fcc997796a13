import torch
import torch.nn.functional as F


def compute_load_balance_loss(top_scores, selected_experts, num_experts):
    num_tokens, top_k = selected_experts.shape
    flat_experts = selected_experts.reshape(-1)
    counts = torch.zeros(num_experts).scatter_add_(0, flat_experts, torch.ones(flat_experts.numel()))
    expert_fraction = counts / (num_tokens * top_k)
    mean_score = top_scores.mean(dim=0)
    expert_prob = torch.zeros(num_experts).scatter_add_(0, flat_experts, mean_score)
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
    _, selected, aux = router(tokens)
    print("aux loss:", aux.item())
