import torch


class RepetitionPenaltyLogitsProcessor:
    def __init__(self, penalty):
        if penalty <= 0:
            raise ValueError("penalty must be strictly positive")
        self.penalty = penalty

    def __call__(self, input_ids, scores):
        score = torch.gather(scores, 1, input_ids)
        penalized = torch.where(score < 0, score * self.penalty, score / self.penalty)
        scores = scores.clone()
        scores.scatter_(1, input_ids, penalized)
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
    for b in range(2):
        seen = set(int(t) for t in input_ids[b])
        for v in range(10):
            x = logits[b, v].item()
            ref = (x * 1.3 if x < 0 else x / 1.3) if v in seen else x
            assert abs(processed[b, v].item() - ref) < 1e-5
        assert int(out_ids[b, -1]) == int(processed[b].argmax())
    print("ok")
