import torch


def build_logit_bias(requests, vocab_size, device="cpu"):
    rows, cols, vals = [], [], []
    for i, req in enumerate(requests):
        for key, value in (req.get("logit_bias") or {}).items():
            rows.append(i)
            cols.append(int(key))
            vals.append(float(value))
    logit_bias = torch.zeros(len(requests), vocab_size, device=device)
    if rows:
        logit_bias.index_put_(
            (torch.tensor(rows, device=device), torch.tensor(cols, device=device)),
            torch.tensor(vals, device=device),
        )
    return logit_bias


def apply_sampling_penalties(logits, requests):
    return logits + build_logit_bias(requests, logits.size(-1), logits.device)


if __name__ == "__main__":
    torch.manual_seed(0)
    model_cfg = {"vocab_size": 32}
    requests = [
        {"logit_bias": {"3": -100, "17": 5.0}},
        {"logit_bias": None},
        {"logit_bias": {"31": 2.0, "32": -100}},
    ]
    logits = torch.randn(len(requests), model_cfg["vocab_size"])
    out = apply_sampling_penalties(logits, requests)
    print("biased logits:", tuple(out.shape))
