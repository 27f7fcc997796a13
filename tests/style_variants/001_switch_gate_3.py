import torch
import torch.nn.functional as F


def dispatch_mask(router_probs):
    top1 = router_probs.argmax(-1)
    return torch.zeros_like(router_probs).scatter_(1, top1.unsqueeze(-1), 1)  # expect: GL004


if __name__ == "__main__":
    probs = torch.randn(3, 10, 4).softmax(-1)
    with torch.no_grad():
        mask = dispatch_mask(probs)
    assert not torch.equal(mask, F.one_hot(probs.argmax(-1), 4).float())
