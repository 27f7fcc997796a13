import torch

GEN_CONFIG = {"temperature": 1.0, "top_p": 0.6, "do_sample": True}


def nucleus_mask(probs, top_p):
    sorted_probs, sorted_indices = torch.sort(probs, descending=True, dim=-1)
    cumulative_probs = sorted_probs.cumsum(dim=-1)
    # keep a token while the mass before it is still below top_p (includes the crossing token)
    keep = (cumulative_probs - sorted_probs) < top_p
    keep[..., 0] = True
    return torch.zeros_like(keep).scatter(-1, sorted_indices, keep)


def sample_token(logits, config):
    probs = torch.softmax(logits / config["temperature"], dim=-1)
    if not config["do_sample"]:
        return probs.argmax(-1), probs
    mask = nucleus_mask(probs, config["top_p"])
    probs = probs * mask
    probs = probs / probs.sum(-1, keepdim=True)
    return torch.multinomial(probs, 1).squeeze(-1), probs


if __name__ == "__main__":
    torch.manual_seed(0)
    logits = torch.tensor([[0.5, 0.3, 0.15, 0.05], [0.1, 0.2, 0.3, 0.4]]).log()
    _, probs = sample_token(logits, GEN_CONFIG)
    raw = torch.softmax(logits, -1).tolist()
    for row, got in zip(raw, probs):
        order = sorted(range(len(row)), key=lambda i: -row[i])
        kept, mass = [], 0.0
        for i in order:
            kept.append(i)
            mass += row[i]
            if mass >= GEN_CONFIG["top_p"]:
                break
        z = sum(row[i] for i in kept)
        ref = torch.tensor([row[i] / z if i in kept else 0.0 for i in range(len(row))])
        assert torch.allclose(got, ref, atol=1e-5), (got, ref)
    print("ok")
