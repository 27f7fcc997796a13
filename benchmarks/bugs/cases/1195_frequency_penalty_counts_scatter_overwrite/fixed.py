import torch


class HeterogeneousFrequencyPenalty:
    def __init__(self, penalties, dtype, device):
        self.penalty = torch.tensor(penalties, dtype=dtype, device=device).unsqueeze(1)

    def token_counts(self, generated_ids, vocab_size):
        counts = torch.zeros(generated_ids.size(0), vocab_size, dtype=self.penalty.dtype, device=generated_ids.device)
        ones = torch.ones_like(generated_ids, dtype=counts.dtype)
        counts.scatter_add_(1, generated_ids, ones)
        return counts

    def __call__(self, generated_ids, scores):
        counts = self.token_counts(generated_ids, scores.size(-1))
        return scores - self.penalty * counts


def build_processors(requests, dtype=torch.float32, device="cpu"):
    penalties = [r.get("frequency_penalty", 0.0) for r in requests]
    return HeterogeneousFrequencyPenalty(penalties, dtype, device)


def next_token_scores(requests, generated_ids, scores):
    proc = build_processors(requests)
    return proc(generated_ids, scores)


if __name__ == "__main__":
    cfg = {"vocab_size": 8}
    requests = [{"frequency_penalty": 1.0}, {"frequency_penalty": 0.5}]
    generated = torch.tensor([[3, 3, 3, 3, 5], [1, 2, 2, 6, 6]])
    scores = torch.zeros(len(requests), cfg["vocab_size"])
    out = next_token_scores(requests, generated, scores)
    for b, req in enumerate(requests):
        for v in range(cfg["vocab_size"]):
            n = sum(1 for t in generated[b].tolist() if t == v)
            assert abs(out[b, v].item() - (scores[b, v].item() - req["frequency_penalty"] * n)) < 1e-6
    print("ok")
