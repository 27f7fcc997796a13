import torch


def select_topk(prob_tensor, topk=1, dim=1):
    # prob_tensor: any layout, classes along `dim`
    # returns an int 0/1 tensor of the same shape with ones at the top-k classes
    zeros = torch.zeros_like(prob_tensor)
    topk_tensor = zeros.scatter(1, prob_tensor.topk(k=topk, dim=dim).indices, 1.0)
    return topk_tensor.int()


class TokenTopKAccuracy:
    """Top-k accuracy for sequence taggers; predictions are batch-first, classes last."""

    def __init__(self, top_k=2, ignore_index=-100):
        self.top_k = top_k
        self.ignore_index = ignore_index
        self.correct = 0
        self.total = 0

    def update(self, probs, target):
        # probs: [N, L, C], target: [N, L]
        hits = select_topk(probs, self.top_k, dim=-1)  # [N, L, C]
        valid = target.ne(self.ignore_index)  # [N, L]
        safe_target = target.clamp(min=0).unsqueeze(-1)  # [N, L, 1]
        correct = hits.gather(-1, safe_target).squeeze(-1).bool() & valid  # [N, L]
        self.correct += int(correct.sum())
        self.total += int(valid.sum())

    def compute(self):
        return self.correct / max(self.total, 1)


if __name__ == "__main__":
    torch.manual_seed(0)
    num_tags = 10
    probs = torch.randn(3, 5, num_tags).softmax(-1)  # [3, 5, 10]
    target = torch.randint(0, num_tags, (3, 5))
    target[2, 3:] = -100
    metric = TokenTopKAccuracy(top_k=2)
    metric.update(probs, target)
    print("top-2 token accuracy:", metric.compute())
