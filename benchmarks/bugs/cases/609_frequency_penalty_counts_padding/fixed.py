import torch


class FrequencyPenaltyProcessor:
    def __init__(self, penalties):
        self.penalties = torch.tensor(penalties).unsqueeze(1)

    def __call__(self, input_ids, attention_mask, scores):
        counts = torch.zeros_like(scores).scatter_add_(
            1, input_ids, attention_mask.to(scores.dtype)
        )
        return scores - self.penalties * counts


def left_pad(batch, pad_id):
    width = max(len(s) for s in batch)
    ids = torch.full((len(batch), width), pad_id)
    mask = torch.zeros(len(batch), width, dtype=torch.long)
    for i, seq in enumerate(batch):
        ids[i, width - len(seq):] = torch.tensor(seq)
        mask[i, width - len(seq):] = 1
    return ids, mask


if __name__ == "__main__":
    cfg = {"vocab": 12, "pad_token_id": 2, "eos_token_id": 2, "frequency_penalty": [0.0, 1.05]}
    requests = [[5, 6, 7, 8, 9, 10, 4, 3, 5, 6], [7, 9, 4]]
    ids, mask = left_pad(requests, cfg["pad_token_id"])
    scores = torch.zeros(len(requests), cfg["vocab"])
    out = FrequencyPenaltyProcessor(cfg["frequency_penalty"])(ids, mask, scores)
    for b, seq in enumerate(requests):
        for v in range(cfg["vocab"]):
            ref = -cfg["frequency_penalty"][b] * sum(1 for t in seq if t == v)
            assert abs(out[b, v].item() - ref) < 1e-6
    print("ok")
