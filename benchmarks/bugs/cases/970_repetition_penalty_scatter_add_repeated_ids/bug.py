import torch


class RepetitionPenaltyLogitsProcessor:
    def __init__(self, penalty):
        if penalty <= 0:
            raise ValueError("penalty must be strictly positive")
        self.penalty = penalty

    def __call__(self, input_ids, scores):
        score = torch.gather(scores, 1, input_ids)
        penalized = torch.where(score < 0, score * self.penalty, score / self.penalty)
        delta = penalized - score
        scores = scores.clone()
        scores.scatter_add_(1, input_ids, delta)
        return scores


def greedy_step(logits, input_ids, processors):
    for proc in processors:
        logits = proc(input_ids, logits)
    next_ids = logits.argmax(dim=-1, keepdim=True)
    return torch.cat([input_ids, next_ids], dim=1), logits


if __name__ == "__main__":
    torch.manual_seed(0)
    input_ids = torch.tensor([[1, 4, 4, 7, 4], [2, 2, 2, 5, 9]])
    logits = torch.randn(2, 10) * 3
    procs = [RepetitionPenaltyLogitsProcessor(penalty=1.3)]
    out_ids, processed = greedy_step(logits, input_ids, procs)
    print("raw logit of token 4 / 2:", logits[0, 4].item(), logits[1, 2].item())
    print("penalized logit of token 4 / 2:", processed[0, 4].item(), processed[1, 2].item())
