import torch


def verify_logit_bias(req, vocab_size):
    for key in (req.get("logit_bias") or {}):
        if not 0 <= int(key) < vocab_size:
            raise ValueError(f"logit_bias key {key} is outside [0, {vocab_size - 1}]")


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
    accepted, rejected = [], []
    for req in requests:
        try:
            verify_logit_bias(req, model_cfg["vocab_size"])
            accepted.append(req)
        except ValueError as err:
            rejected.append(str(err))
    assert len(rejected) == 1 and len(accepted) == 2
    logits = torch.randn(len(accepted), model_cfg["vocab_size"])
    out = apply_sampling_penalties(logits, accepted)
    for i, req in enumerate(accepted):
        bias = req.get("logit_bias") or {}
        for v in range(model_cfg["vocab_size"]):
            expected = logits[i, v].item() + float(bias.get(str(v), 0.0))
            assert abs(out[i, v].item() - expected) < 1e-5
    print("ok")
