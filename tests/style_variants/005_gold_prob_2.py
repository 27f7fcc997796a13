import torch
from jaxtyping import Float, Int
from torch import Tensor


def picked_log_probs(log_probs: Float[Tensor, "batch vocab"], actions: Int[Tensor, "batch"]):
    chosen = torch.gather(log_probs, 1, actions.unsqueeze(0))  # expect: GL005
    return chosen.squeeze(0)


if __name__ == "__main__":
    log_probs = torch.randn(4, 7).log_softmax(-1)
    actions = torch.randint(0, 7, (4,))
    out = picked_log_probs(log_probs, actions)
    ref = torch.stack([log_probs[i, actions[i]] for i in range(4)])
    assert not torch.allclose(out, ref)
