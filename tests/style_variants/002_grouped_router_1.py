import torch


def topk_weights(probs, k):
    # probs: [batch, seq, experts]
    idx = probs.topk(k, dim=-1).indices
    weights = torch.gather(probs, dim=1, index=idx)  # expect: GL004
    return idx, weights


if __name__ == "__main__":
    probs = torch.randn(2, 32, 16).softmax(-1)
    idx, w = topk_weights(probs, 4)
    ref = probs.gather(-1, idx)
    assert not torch.allclose(w, ref)
