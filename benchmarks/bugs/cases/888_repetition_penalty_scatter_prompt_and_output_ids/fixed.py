import torch

SAMPLING = {"repetition_penalty": 1.3, "penalize_prompt": True}


def seen_token_ids(requests, include_prompt):
    rows = [(req["prompt"] + req["output"]) if include_prompt else req["output"] for req in requests]
    width = max(len(r) for r in rows)
    # pad with the row's own first id: repeated ids receive the same penalized value
    return torch.tensor([r + [r[0]] * (width - len(r)) for r in rows])


def apply_repetition_penalty(logits, requests, params):
    penalty = params["repetition_penalty"]
    target_ids = seen_token_ids(requests, include_prompt=params["penalize_prompt"])
    score = torch.gather(logits, 1, target_ids)
    score = torch.where(score > 0, score / penalty, score * penalty)
    logits.scatter_(1, target_ids, score)
    return logits


if __name__ == "__main__":
    torch.manual_seed(0)
    requests = [
        {"prompt": [5, 9, 12], "output": [7, 7, 3]},
        {"prompt": [4, 4], "output": [11, 2]},
    ]
    logits = torch.randn(len(requests), 16)
    out = apply_repetition_penalty(logits.clone(), requests, SAMPLING)
    for b, req in enumerate(requests):
        seen = set(req["prompt"]) | set(req["output"])
        for v in range(16):
            x = float(logits[b, v])
            want = (x / 1.3 if x > 0 else x * 1.3) if v in seen else x
            assert abs(float(out[b, v]) - want) < 1e-6, (b, v)
    print("ok")
